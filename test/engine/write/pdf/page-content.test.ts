import { describe, expect, it } from 'vitest';
import type { TextItem } from '../../../../src/engine/layout/page-items';
import type { Page } from '../../../../src/engine/pages/display-list';
import { type ContentResources, pageContent } from '../../../../src/engine/write/pdf/page-content';

/** Resources whose "font" shows each character as its own byte, 500 thousandths of text space wide. */
const resources: ContentResources = {
  fontName: (key) => `/${key}`,
  imageName: (key) => `/${key}`,
  encode: (_key, text, write) => {
    write(new TextEncoder().encode(text));
    return text.length * 500;
  },
};

const word = (text: string, x: number, extra: Partial<TextItem> = {}): TextItem => ({
  kind: 'text',
  x,
  y: 100,
  font: 'F1',
  size: 10,
  color: '000000',
  text,
  ...extra,
});

function content(...items: TextItem[]): string {
  const page: Page = { width: 200, height: 200, items };
  return new TextDecoder().decode(pageContent(page, resources));
}

describe('page content: words on a baseline', () => {
  it('joins words at their natural spacing into one string', () => {
    // "ab " is 3 × 5 pt wide at 10 pt: "cd" starts where the pen is.
    expect(content(word('ab ', 10), word('cd', 25))).toBe('BT\n/F1 10 Tf\n1 0 0 1 10 100 Tm\n(ab cd) Tj\nET\n');
  });

  it('moves the pen to a justified word with a TJ number (thousandths of text space, negative moves right)', () => {
    expect(content(word('ab ', 10), word('cd', 28), word('ef', 38))).toBe(
      'BT\n/F1 10 Tf\n1 0 0 1 10 100 Tm\n[(ab ) -300 (cdef)] TJ\nET\n',
    );
  });

  it('starts a new string with Td for another font or colour', () => {
    expect(
      content(word('ab ', 10), word('cd', 25, { font: 'F2' }), word('ef', 35, { font: 'F2', color: 'ff0000' })),
    ).toBe('BT\n/F1 10 Tf\n1 0 0 1 10 100 Tm\n(ab ) Tj\n/F2 10 Tf\n15 0 Td\n(cd) Tj\n1 0 0 rg\n10 0 Td\n(ef) Tj\nET\n');
  });

  it('never joins across baselines, character spacing or rotation', () => {
    const out = content(
      word('ab ', 10),
      word('cd', 25, { y: 120 }),
      word('ef', 35, { y: 120, characterSpacing: 1 }),
      word('gh', 50, { y: 120, angle: 90 }),
    );
    expect(out.match(/Tj|TJ/g)).toHaveLength(4);
  });
});

describe('page content: WordArt text', () => {
  it('stretches text with the text matrix and outlines it in rendering mode 2, then goes back to filling', () => {
    const out = content(
      word('ab', 10, { scaleX: 0.5, outline: { color: '0000ff', width: 0.75 } }),
      word('cd', 20),
      word('ef', 30, { y: 120, scaleX: 2, angle: 90, unfilled: true }),
    );
    expect(out).toBe(
      'BT\n/F1 10 Tf\n0 0 1 RG\n0.75 w\n2 Tr\n0.5 0 0 1 10 100 Tm\n(ab) Tj\n0 Tr\n1 0 0 1 20 100 Tm\n(cd) Tj\n3 Tr\n0 2 -1 0 30 80 Tm\n(ef) Tj\nET\n',
    );
  });
});
