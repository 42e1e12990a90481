import { describe, expect, it } from 'vitest';
import { p1363ToDer } from '../../../src/services/sign/ecdsa-der';
import { formatPdfDate } from '../../../src/services/sign/pdf-date';

describe('p1363ToDer', () => {
  it('encodes r || s as SEQUENCE { INTEGER r, INTEGER s }, minimal and positive', () => {
    const r = new Uint8Array(32).fill(0x11);
    const s = new Uint8Array(32).fill(0x22);
    const der = p1363ToDer(new Uint8Array([...r, ...s]));
    expect([...der.subarray(0, 4)]).toEqual([0x30, 68, 0x02, 32]);
    expect(der.length).toBe(70);
  });

  it('adds 0x00 before a high bit and strips leading zeros', () => {
    const r = new Uint8Array(32);
    r[0] = 0x80;
    const s = new Uint8Array(32);
    s[31] = 0x05; // 31 leading zeros → INTEGER 05
    const der = p1363ToDer(new Uint8Array([...r, ...s]));
    expect([...der.subarray(0, 5)]).toEqual([0x30, 33 + 2 + 3, 0x02, 33, 0x00]);
    expect([...der.subarray(der.length - 3)]).toEqual([0x02, 1, 0x05]);
  });

  it('rejects odd lengths', () => {
    expect(() => p1363ToDer(new Uint8Array(63))).toThrow(/even/);
  });
});

describe('formatPdfDate', () => {
  it('writes UTC as D:YYYYMMDDHHmmSSZ (ISO 32000-1 §7.9.4)', () => {
    expect(formatPdfDate(new Date('2026-01-02T03:04:05.678Z'))).toBe('D:20260102030405Z');
  });
});
