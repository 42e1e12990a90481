// Paragraph borders (ECMA-376 §17.3.1.24 w:pBdr): the room they take, and border groups.
import { describe, expect, it } from 'vitest';
import type { LineItem, TextItem } from '../../../src/engine/layout/page-items';
import type { Border, Paragraph } from '../../../src/engine/model/document';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { documentModel, paragraph, section } from '../../helpers/model-builder';
import { bundledLayout } from './fallback-layout';

const layout = bundledLayout();

/** A single 0.75 pt rule 1 pt from the text: its extent beside the text is 1.75 pt. */
const RULE: Border = { style: 'single', width: 0.75, space: 1, color: '000080' };
const BOX = { top: RULE, bottom: RULE, left: RULE, right: RULE };
const SPACED = { before: 0, after: 8, line: 1, lineRule: 'auto' as const };

function boxed(text: string, color = '000080'): Paragraph {
  const rule = { ...RULE, color };
  return paragraph(text, { spacing: SPACED, borders: { top: rule, bottom: rule, left: rule, right: rule } });
}

function baseline(doc: LaidOutDocument, word: string): number {
  const item = doc.pages[0]?.items.find((i): i is TextItem => i.kind === 'text' && i.text.includes(word));
  if (!item) throw new Error(`${word} not drawn`);
  return item.y;
}

function rules(doc: LaidOutDocument): { horizontal: LineItem[]; vertical: LineItem[] } {
  const lines = (doc.pages[0]?.items ?? []).filter((i): i is LineItem => i.kind === 'line');
  return { horizontal: lines.filter((l) => l.y1 === l.y2), vertical: lines.filter((l) => l.x1 === l.x2) };
}

describe('paragraph borders', () => {
  it('draws adjacent paragraphs with the same borders as one box, their inner edges taking no room', async () => {
    const plain = documentModel([
      section([
        paragraph('Above', { spacing: SPACED }),
        paragraph('One', { spacing: SPACED }),
        paragraph('Two', { spacing: SPACED }),
      ]),
    ]);
    const grouped = documentModel([section([paragraph('Above', { spacing: SPACED }), boxed('One'), boxed('Two')])]);
    const a = await layout(plain);
    const b = await layout(grouped);
    const pitch = baseline(a, 'Two') - baseline(a, 'One'); // a line and 8 pt
    // The top border's 1.75 pt is added to the 8 pt of spacing above the box, not collapsed into it.
    expect(baseline(b, 'One') - baseline(b, 'Above')).toBeCloseTo(pitch + 1.75, 3);
    // Inside the group: the spacing alone, as without borders.
    expect(baseline(b, 'Two') - baseline(b, 'One')).toBeCloseTo(pitch, 3);
    const { horizontal, vertical } = rules(b);
    expect(horizontal).toHaveLength(2); // the group's top and bottom, no edge between One and Two
    expect(vertical).toHaveLength(2); // left and right, each down the whole group
    const [left] = vertical;
    expect(Math.abs((left?.y2 ?? 0) - (left?.y1 ?? 0))).toBeGreaterThan(pitch + 8);
  });

  it('keeps two boxes apart, each with its own edges, when their borders differ', async () => {
    const doc = await layout(documentModel([section([boxed('One'), boxed('Two', 'FF0000')])]));
    const plain = await layout(
      documentModel([section([paragraph('One', { spacing: SPACED }), paragraph('Two', { spacing: SPACED })])]),
    );
    const pitch = baseline(plain, 'Two') - baseline(plain, 'One');
    expect(baseline(doc, 'Two') - baseline(doc, 'One')).toBeCloseTo(pitch + 3.5, 3);
    expect(rules(doc).horizontal).toHaveLength(4);
  });

  it('draws the between border where one paragraph of a group meets the next, and gives it its room', async () => {
    const between = { ...RULE, width: 1.5, space: 2 };
    const withBetween = (text: string) => paragraph(text, { spacing: SPACED, borders: { ...BOX, between } });
    const doc = await layout(documentModel([section([withBetween('One'), withBetween('Two')])]));
    const plain = await layout(
      documentModel([section([paragraph('One', { spacing: SPACED }), paragraph('Two', { spacing: SPACED })])]),
    );
    const pitch = baseline(plain, 'Two') - baseline(plain, 'One');
    expect(baseline(doc, 'Two') - baseline(doc, 'One')).toBeCloseTo(pitch + 3.5, 3);
    expect(rules(doc).horizontal).toHaveLength(3);
  });
});
