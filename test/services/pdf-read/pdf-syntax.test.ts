import { describe, expect, it } from 'vitest';
import { readValue } from '../../../src/services/pdf-read/pdf-syntax';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('PDF syntax values', () => {
  it('reads numbers in every form ISO 32000-1 §7.3.3 allows', () => {
    for (const [text, value] of [
      ['34.5', 34.5],
      ['-3.62', -3.62],
      ['+123.6', 123.6],
      ['4.', 4],
      ['-.002', -0.002],
      ['0.0', 0],
      ['17', 17],
    ] as const) {
      expect(readValue(bytes(`${text} `), 0)).toMatchObject({ kind: 'number', value });
    }
    expect(readValue(bytes('1.2.3 '), 0)).toMatchObject({ kind: 'keyword' });
  });

  it('tells a 40,000-digit run ending in a letter from a number in linear time', () => {
    const started = Date.now();
    expect(readValue(bytes(`${'7'.repeat(40_000)}x `), 0)).toMatchObject({ kind: 'keyword' });
    expect(Date.now() - started).toBeLessThan(500);
  });
});
