import { describe, expect, it } from 'vitest';
import { call } from '../../helpers/api';

/** The page's policy as the route sends it, directive by directive. */
function directives(csp: string | null): Map<string, string> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );
}

describe('GET /playground', () => {
  it('answers the page, with no key, under a strict CSP', async () => {
    const res = await call('/playground');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    const csp = directives(res.headers.get('Content-Security-Policy'));
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('style-src')).toBe("'self'");
    expect(csp.get('connect-src')).toBe("'self'");
    expect(csp.get('frame-src')).toBe('blob:');
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('<title>Quire playground</title>');
    expect(html).toContain('<script src="/playground/app.js" defer></script>');
    expect(html).toContain('<link rel="stylesheet" href="/playground/style.css">');
    // Nothing inline that the CSP would block: no inline script or style.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/);
  });

  it.each([
    ['/playground/app.js', /^(application|text)\/javascript/, 'sessionStorage'],
    ['/playground/style.css', /^text\/css/, '.curl-command'],
  ])('serves %s, with no key', async (path, type, content) => {
    const res = await call(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(type);
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(await res.text()).toContain(content);
  });

  it('serves nothing else of the static assets: the fonts beside it stay private', async () => {
    for (const path of [
      '/playground/index.html',
      '/playground/../fonts/Carlito-Regular.ttf',
      '/fonts/Carlito-Regular.ttf',
    ]) {
      const res = await call(path);
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
  });

  it('sends /playground/ to /playground', async () => {
    const res = await call('/playground/', { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get('Location') ?? '', 'https://quire.test/').pathname).toBe('/playground');
    await res.arrayBuffer();
  });

  it('answers HEAD and refuses POST with 405', async () => {
    const head = await call('/playground', { method: 'HEAD' });
    expect(head.status).toBe(200);
    await head.arrayBuffer();
    const post = await call('/playground', { method: 'POST' });
    expect(post.status).toBe(405);
    await post.arrayBuffer();
  });

  it('is not an API operation: /openapi.json does not list it', async () => {
    const doc = (await (await call('/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/playground'))).toEqual([]);
  });
});
