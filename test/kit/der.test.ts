import { describe, expect, it } from 'vitest';
import { derElement } from '../../src/kit/der';

describe('derElement', () => {
  it('writes a length below 128 in one octet and the contents after it, in order', () => {
    expect([...derElement(0x30, [Uint8Array.of(2, 1, 5), Uint8Array.of(2, 1, 6)])]).toEqual([
      0x30, 6, 2, 1, 5, 2, 1, 6,
    ]);
    expect([...derElement(0x04, [])]).toEqual([0x04, 0]);
  });

  it('writes a longer length in the fewest octets (X.690 §10.1)', () => {
    expect([...derElement(0x04, [new Uint8Array(0x80)]).subarray(0, 3)]).toEqual([0x04, 0x81, 0x80]);
    expect([...derElement(0x04, [new Uint8Array(0x100)]).subarray(0, 4)]).toEqual([0x04, 0x82, 0x01, 0x00]);
    expect([...derElement(0x04, [new Uint8Array(0x10000)]).subarray(0, 5)]).toEqual([0x04, 0x83, 1, 0, 0]);
  });
});
