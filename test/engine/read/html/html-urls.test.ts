import { describe, expect, it } from 'vitest';
import { documentUrls, isRelativeUrl } from '../../../../src/engine/read/html/urls';

describe('HTML document base URL (HTML LS §2.4.1, §4.2.3)', () => {
  it('resolves against baseUrl; fragments, absolute URLs and data: URIs stay as written', () => {
    const urls = documentUrls(undefined, 'https://site.example/docs/index.html', []);
    expect(urls.resolve(' img/a.png ')).toBe('https://site.example/docs/img/a.png');
    expect(urls.resolve('/root.png')).toBe('https://site.example/root.png');
    expect(urls.resolve('//cdn.example/x.png')).toBe('https://cdn.example/x.png');
    expect(urls.resolve('#intro')).toBe('#intro');
    expect(urls.resolve('mailto:a@b.example')).toBe('mailto:a@b.example');
    expect(urls.resolve('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
  });

  it('a <base href> wins, resolved against baseUrl; protocol-relative without any base takes https:', () => {
    expect(documentUrls('../assets/', 'https://site.example/docs/', []).resolve('a.png')).toBe(
      'https://site.example/assets/a.png',
    );
    expect(documentUrls('https://cdn.example/v2/', undefined, []).resolve('a.png')).toBe(
      'https://cdn.example/v2/a.png',
    );
    expect(documentUrls('//cdn.example/v3/', undefined, []).resolve('a.png')).toBe('https://cdn.example/v3/a.png');
    expect(documentUrls(undefined, undefined, []).resolve('//cdn.example/a.png')).toBe('https://cdn.example/a.png');
  });

  it('a relative URL without a base stays relative; an unusable <base href> is a warning', () => {
    const warnings: string[] = [];
    const urls = documentUrls('static/', undefined, warnings);
    expect(urls.base).toBeUndefined();
    expect(urls.resolve('a.png')).toBe('a.png');
    expect(isRelativeUrl('a.png')).toBe(true);
    expect(warnings[0]).toContain('relative and no baseUrl was sent');

    const javascript: string[] = [];
    const fallback = documentUrls('javascript:alert(1)', 'https://site.example/', javascript);
    expect(fallback.resolve('a.png')).toBe('https://site.example/a.png');
    expect(javascript[0]).toContain('javascript: URL');
  });
});
