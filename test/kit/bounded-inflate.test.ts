import { deflateSync, zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { boundedInflate, inflateWithin } from '../../src/kit/bounded-inflate';

const text = (length: number) => new TextEncoder().encode('quire '.repeat(Math.ceil(length / 6)).slice(0, length));

describe('inflateWithin', () => {
  it('gives the whole output of a zlib or a raw deflate stream within the ceiling', () => {
    const data = text(300_000);
    const zlib = inflateWithin(zlibSync(data), data.length);
    const raw = inflateWithin(deflateSync(data), data.length, { format: 'raw' });
    for (const outcome of [zlib, raw]) {
      expect(outcome.ok).toBe(true);
      if (outcome.ok) expect(outcome.bytes).toEqual(data);
    }
  });

  it('stops at the ceiling and says so, apart from damaged data', () => {
    const data = text(300_000);
    expect(inflateWithin(zlibSync(data), data.length - 1)).toEqual({ ok: false, reason: 'ceiling' });
    const damaged = deflateSync(data);
    damaged[0] = 0xff; // BFINAL 1, BTYPE 11: a reserved block type (RFC 1951 §3.2.3)
    expect(inflateWithin(damaged, 1 << 20, { format: 'raw' })).toEqual({ ok: false, reason: 'corrupt' });
    const truncated = zlibSync(data).subarray(0, 200);
    expect(inflateWithin(truncated, 1 << 20)).toEqual({ ok: false, reason: 'corrupt' });
    expect(inflateWithin(new Uint8Array(0), 1 << 20)).toEqual({ ok: false, reason: 'corrupt' });
  });

  it('ignores bytes after the end of the stream, as zlib does, and only counts with keep: false', () => {
    const data = text(5000);
    const trailing = new Uint8Array([...zlibSync(data), 1, 2, 3]);
    const kept = inflateWithin(trailing, 5000);
    expect(kept.ok && kept.bytes).toEqual(data);
    expect(inflateWithin(zlibSync(data), 5000, { keep: false })).toEqual({
      ok: true,
      bytes: new Uint8Array(0),
      length: 5000,
    });
  });

  it('boundedInflate is the same with any failure as undefined', () => {
    const data = text(10_000);
    expect(boundedInflate(zlibSync(data), 10_000)?.bytes).toEqual(data);
    expect(boundedInflate(zlibSync(data), 9_999)).toBeUndefined();
    expect(boundedInflate(Uint8Array.of(0xff, 0, 0), 10_000, { format: 'raw' })).toBeUndefined();
  });
});
