import { describe, expect, it } from 'vitest';
import type { TextItem } from '../../../src/engine/layout/page-items';
import type { Inline, ParagraphFrame } from '../../../src/engine/model/document';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { documentModel, paragraph, runProps, section, text } from '../../helpers/model-builder';
import { bundledLayout } from './fallback-layout';

const layout = bundledLayout();

function textsOf(doc: LaidOutDocument, page: number): TextItem[] {
  return (doc.pages[page]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
}

function item(doc: LaidOutDocument, page: number, text: string): TextItem {
  const found = textsOf(doc, page).find((t) => t.text === text || t.text.startsWith(text));
  if (!found) throw new Error(`no "${text}" on page ${page + 1}`);
  return found;
}

/** Where a text item ends, measured in its own face. */
function rightEdge(doc: LaidOutDocument, t: TextItem): number {
  const face = doc.fonts[t.font];
  if (!face) throw new Error(`no face ${t.font}`);
  return t.x + face.measure(t.text) * t.size;
}

const page = (): Inline => ({ kind: 'field', field: 'PAGE', cached: '', props: runProps() });

/** Word's page-number gallery frame: at the right margin, on the paragraph after it (vAnchor text, y 1 twip). */
const PAGE_NUMBER_FRAME: ParagraphFrame = {
  heightRule: 'auto',
  x: { from: 'margin', offset: 0, align: 'right' },
  y: { from: 'text', offset: 0.05 },
  wrap: 'around',
  distance: { horizontal: 0, vertical: 0 },
};

/** Letter paper, 1 in margins: the text area runs from 72 to 540 pt. */
const RIGHT_MARGIN = 612 - 72;

describe('text frames in headers and footers (w:framePr, §17.3.1.11)', () => {
  it('sets a framed page number at the right margin, beside the text it is anchored to', async () => {
    const model = documentModel([
      section([paragraph('Body')], {
        footers: {
          default: [paragraph([page()], { frame: PAGE_NUMBER_FRAME }), paragraph('Footer text')],
        },
      }),
    ]);
    const doc = await layout(model);
    const number = item(doc, 0, '1');
    const footer = item(doc, 0, 'Footer text');
    expect(rightEdge(doc, number)).toBeCloseTo(RIGHT_MARGIN, 1);
    // On the footer text's line, 1 twip lower, not on a line of its own above it.
    expect(number.y - footer.y).toBeCloseTo(0.05, 2);
    expect(footer.x).toBeCloseTo(72, 1);
  });

  it('takes no room: a frame does not push the body down', async () => {
    const lines = ['Header one', 'Header two', 'Header three', 'Header four'].map((t) => paragraph(t));
    const bodyTop = async (header: ReturnType<typeof paragraph>[]) => {
      const doc = await layout(documentModel([section([paragraph('Body')], { headers: { default: header } })]));
      return item(doc, 0, 'Body').y;
    };
    const plain = await bodyTop(lines);
    const framed = await bodyTop([paragraph([page()], { frame: PAGE_NUMBER_FRAME }), ...lines]);
    // Four lines from the header distance (36 pt) reach below the 72 pt margin and push the body;
    // the frame beside the first of them adds nothing.
    expect(plain).toBeGreaterThan(72 + 13);
    expect(framed).toBeCloseTo(plain, 2);
  });

  it('places a frame by its offsets from the page when it has no alignment', async () => {
    const frame: ParagraphFrame = {
      width: 100,
      heightRule: 'auto',
      x: { from: 'page', offset: 300 },
      y: { from: 'page', offset: 20 },
      wrap: 'none',
      distance: { horizontal: 0, vertical: 0 },
    };
    const doc = await layout(
      documentModel([
        section([paragraph('Body')], { headers: { default: [paragraph('Boxed', { frame }), paragraph('Header')] } }),
      ]),
    );
    const boxed = item(doc, 0, 'Boxed');
    const header = item(doc, 0, 'Header');
    expect(boxed.x).toBeCloseTo(300, 1);
    expect(boxed.y).toBeLessThan(header.y);
    expect(boxed.y).toBeGreaterThan(20);
    expect(boxed.y).toBeLessThan(20 + 14);
  });
});

describe('page fields in headers and footers are laid out with each page’s value', () => {
  it('keeps a right-aligned "Page X of Y" at the margin whatever Word cached', async () => {
    const props = runProps();
    // Word cached "Page 1 of 1"; the document has 12 pages, so page 11 shows "Page 11 of 12".
    const footer = paragraph(
      [
        text('Page '),
        { kind: 'field', field: 'PAGE', cached: '1', props },
        text(' of '),
        { kind: 'field', field: 'NUMPAGES', cached: '1', props },
      ],
      { align: 'right' },
    );
    const body = Array.from({ length: 12 }, (_, i) => paragraph(`Page body ${i + 1}`, { pageBreakBefore: i > 0 }));
    const doc = await layout(documentModel([section(body, { footers: { default: [footer] } })]));
    expect(doc.pages.length).toBe(12);
    for (const index of [0, 10]) {
      const items = textsOf(doc, index).filter((t) => t.y > 700);
      const last = items.reduce((a, b) => (rightEdge(doc, a) > rightEdge(doc, b) ? a : b));
      expect(items.map((t) => t.text.trim()).join(' ')).toBe(`Page ${index + 1} of 12`);
      expect(rightEdge(doc, last)).toBeCloseTo(RIGHT_MARGIN, 1);
    }
  });

  it('sets a framed page number as wide as its value on each page', async () => {
    const body = Array.from({ length: 10 }, (_, i) => paragraph(`Body ${i + 1}`, { pageBreakBefore: i > 0 }));
    const doc = await layout(
      documentModel([
        section(body, {
          headers: { default: [paragraph([page()], { frame: PAGE_NUMBER_FRAME }), paragraph('Header')] },
        }),
      ]),
    );
    expect(rightEdge(doc, item(doc, 0, '1'))).toBeCloseTo(RIGHT_MARGIN, 1);
    expect(rightEdge(doc, item(doc, 9, '10'))).toBeCloseTo(RIGHT_MARGIN, 1);
  });
});
