import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };

describe('GET /v1/health', () => {
  it('answers with status, timestamp and the package version', async () => {
    const res = await SELF.fetch('https://quire.test/v1/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.status).toBe('healthy');
    expect(body.version).toBe(pkg.version);
    expect(Number.isNaN(Date.parse(String(body.timestamp)))).toBe(false);
    expect(new Date(String(body.timestamp)).toISOString()).toBe(body.timestamp);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await SELF.fetch('https://quire.test/v1/health', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Request-Id')).toBeTruthy();
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(await res.text()).toBe('');
  });
});
