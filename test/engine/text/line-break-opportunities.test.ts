import LineBreaker from 'linebreak';
import { describe, expect, it } from 'vitest';
import { lineBreakOpportunities } from '../../../src/engine/text/line-break-opportunities';

function packageBreaks(text: string): number[] {
  const breaks: number[] = [];
  const breaker = new LineBreaker(text);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) breaks.push(bk.position);
  return breaks;
}

/** A small deterministic generator (mulberry32), so that a failure can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let latin = '';
for (let unit = 0xc0; unit < 0x250; unit++) latin += String.fromCharCode(unit);

let cyrillic = '';
for (let unit = 0x400; unit < 0x530; unit++) cyrillic += String.fromCharCode(unit);

describe('lineBreakOpportunities', () => {
  it('finds the breaks the linebreak package finds in text of its plain characters', () => {
    const alphabets = [
      'aZ09   .,;:)]',
      `ab  &*#@_<>=~\`'"\u2018\u2019\u201c\u201d.,;:)]${latin}`,
      'a  .;)"\u2019\u201c\u201d',
      'a5  -- .)"\u2019',
      `a Ж -${cyrillic}`,
      'a5 "-.)\t/([]\u2019',
      'a (-/',
      'a5 "-.)\t/(!?\u00a0\u2013\u2019',
      'a !\u00a0(-',
      // Prefix and postfix signs, guillemets, braces, the ellipsis, the em dash, the soft hyphen,
      // the bullet, § and ·, the object replacement character.
      'a5 +%$\u00b0\u2116.,-(',
      'a5 \u00ab\u00bb\u201e"\u2019{}[]()',
      'a5 \u2026\u2014\u00ad|\u2022\u00a7\u00b7\ufffc\u00a0-',
      'a5 +%\u00ab\u00bb{}\u2026\u2014\u00ad|\u2022\ufffc\t/!?;:\u2013',
    ];
    const next = random(14);
    for (const alphabet of alphabets) {
      for (let n = 0; n < 20000; n++) {
        const length = 1 + Math.floor(next() * 40);
        let text = '';
        for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
        expect(lineBreakOpportunities(text), JSON.stringify(text)).toEqual(packageBreaks(text));
      }
    }
  });

  it('asks the package about any other text', () => {
    for (const text of [
      '',
      'well-known (sic) 50% and/or?',
      'по-русски \u0483',
      'a\tb\nc',
      'שלום עולם',
      '中文文本',
      ' \u00a0x',
    ]) {
      expect(lineBreakOpportunities(text)).toEqual(packageBreaks(text));
    }
  });
});
