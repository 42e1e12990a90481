// Equations set in two dimensions (src/engine/layout/math-layout.ts): every Office Math structure of
// ECMA-376 Part 1 §22.1 draws its content, structure as rules and paths; display math takes lines
// of its own, aligned as m:jc says; inline math breaks before operators.
import { describe, expect, it } from 'vitest';
import { collectFontNeeds } from '../../../src/engine/layout/font-requests';
import type { LineItem, PageItem, PathItem, TextItem } from '../../../src/engine/layout/page-items';
import type { DocumentModel } from '../../../src/engine/model/document';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { readParts } from '../read/ooxml/model-queries';
import { layoutWithFallback } from './fallback-layout';

const r = (text: string, properties = '') =>
  `<m:r>${properties ? `<m:rPr>${properties}</m:rPr>` : ''}<m:t>${text}</m:t></m:r>`;
const e = (content: string) => `<m:e>${content}</m:e>`;
const display = (math: string, justification?: string) =>
  `<m:oMathPara>${justification ? `<m:oMathParaPr><m:jc m:val="${justification}"/></m:oMathParaPr>` : ''}<m:oMath>${math}</m:oMath></m:oMathPara>`;
const words = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;

function model(body: string): DocumentModel {
  return readParts({
    document: `<w:body>${body}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720"/></w:sectPr></w:body>`,
  });
}

const items = (doc: LaidOutDocument, page = 0): PageItem[] => doc.pages[page]?.items ?? [];
const texts = (doc: LaidOutDocument) => items(doc).filter((i): i is TextItem => i.kind === 'text');
const lines = (doc: LaidOutDocument) => items(doc).filter((i): i is LineItem => i.kind === 'line');
const paths = (doc: LaidOutDocument) => items(doc).filter((i): i is PathItem => i.kind === 'path');

function only(doc: LaidOutDocument, text: string): TextItem {
  const found = texts(doc).filter((t) => t.text === text);
  expect(found, `one text item "${text}"`).toHaveLength(1);
  return found[0] as TextItem;
}

function pathXs(path: PathItem): number[] {
  return path.commands.flatMap((c) => (c.op === 'Z' ? [] : [c.x]));
}
function pathYs(path: PathItem): number[] {
  return path.commands.flatMap((c) => (c.op === 'Z' ? [] : [c.y]));
}

describe('layout: Office Math in two dimensions', () => {
  it('every §22.1 structure draws its content: text as text, structure as rules and paths', async () => {
    const math = [
      `<m:f><m:num>${r('N')}</m:num><m:den>${r('D')}</m:den></m:f>`,
      r('+'),
      `<m:rad><m:deg>${r('3')}</m:deg>${e(r('Q'))}</m:rad>`,
      `<m:sSup>${e(r('B'))}<m:sup>${r('S')}</m:sup></m:sSup>`,
      `<m:sSubSup>${e(r('G'))}<m:sub>${r('4')}</m:sub><m:sup>${r('5')}</m:sup></m:sSubSup>`,
      `<m:sPre><m:sub>${r('6')}</m:sub><m:sup>${r('7')}</m:sup>${e(r('P'))}</m:sPre>`,
      `<m:nary><m:naryPr><m:chr m:val="∑"/><m:limLoc m:val="undOvr"/></m:naryPr><m:sub>${r('K')}</m:sub><m:sup>${r('M')}</m:sup>${e(r('Y'))}</m:nary>`,
      `<m:limLow>${e(r('lim', '<m:sty m:val="p"/>'))}<m:lim>${r('L')}</m:lim></m:limLow>`,
      `<m:acc><m:accPr><m:chr m:val="̃"/></m:accPr>${e(r('A'))}</m:acc>`,
      `<m:bar><m:barPr><m:pos m:val="top"/></m:barPr>${e(r('T'))}</m:bar>`,
      `<m:borderBox>${e(r('U'))}</m:borderBox>`,
      `<m:d><m:dPr><m:sepChr m:val=","/></m:dPr>${e(r('V'))}${e(r('X'))}</m:d>`,
      `<m:m><m:mr>${e(r('8'))}${e(r('9'))}</m:mr><m:mr>${e(r('0'))}${e(r('Z'))}</m:mr></m:m>`,
      `<m:eqArr>${e(r('E'))}${e(r('F'))}</m:eqArr>`,
      `<m:func><m:fName>${r('sin', '<m:sty m:val="p"/>')}</m:fName>${e(r('C'))}</m:func>`,
      `<m:groupChr>${e(r('O'))}</m:groupChr>`,
      `<m:box>${e(r('I'))}</m:box>`,
      `<m:phant><m:phantPr><m:show m:val="0"/></m:phantPr>${e(r('H'))}</m:phant>`,
      `<m:phant>${e(r('W'))}</m:phant>`,
    ].join('');
    const m = model(`<w:p>${display(math)}</w:p>`);
    expect(m.warnings.join('\n')).not.toMatch(/equation|plain text/i);
    const doc = await layoutWithFallback(m);
    const shown = texts(doc).map((t) => t.text);
    // Every run's text, once; a phantom whose m:show is off shows nothing, one without m:phantPr shows its content.
    for (const text of [
      'N',
      'D',
      '3',
      'Q',
      'B',
      'S',
      'G',
      '4',
      '5',
      '6',
      '7',
      'P',
      '∑',
      'K',
      'M',
      'Y',
      'lim',
      'L',
      'A',
      'T',
      'U',
      'V',
      'X',
      '8',
      '9',
      '0',
      'Z',
      'E',
      'F',
      'sin',
      'C',
      'O',
      'I',
      'W',
    ])
      expect(
        shown.filter((s) => s === text),
        text,
      ).toHaveLength(1);
    expect(shown).not.toContain('H');
    // Fraction: numerator over a rule over the denominator, the rule spanning both.
    const [n, d] = [only(doc, 'N'), only(doc, 'D')];
    const rule = lines(doc).find((l) => l.y1 === l.y2 && l.y1 > n.y && l.y1 < d.y && l.x1 <= n.x && l.x2 >= n.x);
    expect(rule).toBeDefined();
    // Scripts: smaller, the superscript raised and the subscript lowered.
    const [b, s, g, sub, sup] = [only(doc, 'B'), only(doc, 'S'), only(doc, 'G'), only(doc, '4'), only(doc, '5')];
    expect(s.size).toBeLessThan(b.size);
    expect(s.y).toBeLessThan(b.y - 2);
    expect(sub.y).toBeGreaterThan(g.y);
    expect(sup.y).toBeLessThan(g.y);
    // The superscript clears the italic letter's slant.
    expect(Math.abs(sup.x - sub.x)).toBeLessThan(1);
    // Prescripts before their base.
    expect(only(doc, '6').x).toBeLessThan(only(doc, 'P').x);
    // Radical: a sign drawn to the left of the radicand, its bar over it; the degree small, before it.
    const q = only(doc, 'Q');
    const sign = paths(doc).find((p) => p.stroke && Math.min(...pathXs(p)) < q.x && Math.max(...pathXs(p)) > q.x);
    expect(sign).toBeDefined();
    expect(Math.min(...pathYs(sign as PathItem))).toBeLessThan(q.y - q.size * 0.6);
    expect(only(doc, '3').size).toBeLessThan(q.size);
    // N-ary: the operator larger, its limits under and over it.
    const [sum, k, top] = [only(doc, '∑'), only(doc, 'K'), only(doc, 'M')];
    expect(sum.size).toBeGreaterThan(b.size);
    expect(k.y).toBeGreaterThan(sum.y);
    expect(top.y).toBeLessThan(sum.y - sum.size * 0.5);
    // lim with its limit under it.
    expect(only(doc, 'L').y).toBeGreaterThan(only(doc, 'lim').y);
    // Bar over T; four sides round U.
    const t = only(doc, 'T');
    expect(lines(doc).some((l) => l.y1 === l.y2 && l.y1 < t.y - t.size * 0.6 && l.x1 <= t.x + 1 && l.x2 > t.x)).toBe(
      true,
    );
    const u = only(doc, 'U');
    const spansX = (l: LineItem) => Math.min(l.x1, l.x2) < u.x && Math.max(l.x1, l.x2) > u.x;
    const spansY = (l: LineItem) => Math.min(l.y1, l.y2) < u.y - u.size * 0.5 && Math.max(l.y1, l.y2) > u.y;
    const near = (a: number, b: number) => Math.abs(a - b) < u.size * 1.5;
    const box = lines(doc).filter((l) => (spansX(l) && near(l.y1, u.y)) || (spansY(l) && near(l.x1, u.x)));
    expect(box.filter((l) => l.y1 === l.y2 && l.y1 < u.y - u.size * 0.5)).toHaveLength(1);
    expect(box.filter((l) => l.y1 === l.y2 && l.y1 > u.y)).toHaveLength(1);
    expect(box.filter((l) => l.x1 === l.x2 && l.x1 < u.x)).toHaveLength(1);
    expect(box.filter((l) => l.x1 === l.x2 && l.x1 > u.x)).toHaveLength(1);
    // Fences and separator are drawn; the accent too (a path over A).
    expect(shown).toEqual(expect.arrayContaining(['(', ',', ')']));
    const a = only(doc, 'A');
    expect(
      paths(doc).some((p) => Math.max(...pathYs(p)) < a.y - a.size * 0.4 && Math.min(...pathXs(p)) >= a.x - 2),
    ).toBe(true);
    // Matrix: two rows of two; the equation array's lines one above the other.
    const [c8, c9, c0, cz] = [only(doc, '8'), only(doc, '9'), only(doc, '0'), only(doc, 'Z')];
    expect(c8.y).toBeCloseTo(c9.y, 3);
    expect(c0.y).toBeGreaterThan(c8.y);
    expect(c0.x).toBeLessThan(c9.x);
    expect(cz.y).toBeCloseTo(c0.y, 3);
    expect(only(doc, 'F').y).toBeGreaterThan(only(doc, 'E').y);
    // The group character (an under-brace by default) is drawn under O.
    const o = only(doc, 'O');
    expect(paths(doc).some((p) => Math.min(...pathYs(p)) > o.y && Math.min(...pathXs(p)) >= o.x - 3)).toBe(true);
  }, 60_000);

  it('letters are italic by default, m:sty p upright, m:sty b bold; a hyphen is a minus sign', async () => {
    const m = model(
      `<w:p>${display(`${r('x')}${r('-')}${r('sin', '<m:sty m:val="p"/>')}${r('v', '<m:sty m:val="b"/>')}${r('2')}`)}</w:p>`,
    );
    const needs = collectFontNeeds(m);
    expect(needs.requests).toEqual(
      expect.arrayContaining([
        { family: 'Cambria Math', bold: false, italic: true },
        { family: 'Cambria Math', bold: false, italic: false },
        { family: 'Cambria Math', bold: true, italic: false },
      ]),
    );
    const doc = await layoutWithFallback(m);
    const x = only(doc, 'x');
    const sin = only(doc, 'sin');
    const v = only(doc, 'v');
    expect(x.font).toMatch(/Italic/);
    expect(sin.font).not.toMatch(/Italic|Bold/);
    expect(v.font).toMatch(/Bold/);
    expect(texts(doc).map((t) => t.text)).toContain('\u2212');
    expect(only(doc, '2').font).not.toMatch(/Italic/);
  }, 60_000);

  it('display math takes lines of its own, centred by default, at m:jc left or right as asked', async () => {
    const m = model(
      [
        `<w:p><w:pPr><w:jc w:val="both"/></w:pPr>${words('Before the equation ')}${display(r('a=b'))}${words('after it.')}</w:p>`,
        `<w:p>${display(r('c=d'), 'left')}</w:p>`,
        `<w:p>${display(r('e=f'), 'right')}</w:p>`,
      ].join(''),
    );
    const doc = await layoutWithFallback(m);
    const all = texts(doc);
    const before = all.find((t) => t.text.startsWith('Before')) as TextItem;
    const after = all.find((t) => t.text.startsWith('after')) as TextItem;
    const a = only(doc, 'a');
    const bItem = only(doc, 'b');
    expect(a.y).toBeGreaterThan(before.y);
    expect(after.y).toBeGreaterThan(a.y);
    expect(after.x).toBeCloseTo(72, 0);
    // Centred on the text column (72 to 540 pt), whatever the paragraph's own justification.
    const right = bItem.x + 6;
    expect((a.x + right) / 2).toBeGreaterThan(306 - 8);
    expect((a.x + right) / 2).toBeLessThan(306 + 8);
    expect(only(doc, 'c').x).toBeCloseTo(72, 0);
    expect(only(doc, 'f').x).toBeGreaterThan(520);
  }, 60_000);

  it('long inline math breaks before operators and stays within the margins', async () => {
    const name = (i: number) => String.fromCharCode(97 + (i % 26)) + String.fromCharCode(97 + Math.floor(i / 26));
    const terms = Array.from(
      { length: 40 },
      (_, i) => `<m:sSup>${e(r(name(i)))}<m:sup>${r('2')}</m:sup></m:sSup>${r('+')}`,
    );
    const m = model(`<w:p>${words('Sum: ')}<m:oMath>${terms.join('')}${r('y')}</m:oMath>${words(' done.')}</w:p>`);
    const doc = await layoutWithFallback(m);
    const all = texts(doc);
    for (let i = 0; i < 40; i++)
      expect(
        all.filter((t) => t.text === name(i)),
        name(i),
      ).toHaveLength(1);
    const baselines = new Set(all.filter((t) => /^[a-z]{2}$/.test(t.text)).map((t) => Math.round(t.y)));
    expect(baselines.size).toBeGreaterThan(1);
    for (const item of items(doc)) {
      if (item.kind === 'text') expect(item.x).toBeLessThan(540);
      if (item.kind === 'line') expect(Math.max(item.x1, item.x2)).toBeLessThanOrEqual(541);
    }
    // A line that starts inside the equation starts with an operator (Word's m:brkBin before).
    const firsts = new Map<number, TextItem>();
    for (const t of all) {
      const y = Math.round(t.y);
      const first = firsts.get(y);
      if (!first || t.x < first.x) firsts.set(y, t);
    }
    const starts = [...firsts.values()].filter((t) => t.x < 80 && !t.text.startsWith('Sum'));
    expect(starts.length).toBeGreaterThan(0);
    for (const start of starts) expect(['+', ' done.', 'done.']).toContain(start.text);
  }, 60_000);

  it('run content in equations: w:t and symbols are drawn, a picture is not and is said so', async () => {
    const m = model(
      `<w:p><m:oMath><m:r><w:t>W</w:t></m:r><m:r><w:sym w:font="Symbol" w:char="F061"/></m:r><m:r><w:drawing/></m:r></m:oMath></w:p>`,
    );
    expect(m.warnings.join('\n')).toMatch(/picture or object inside an equation is not drawn/);
    const doc = await layoutWithFallback(m);
    const shown = texts(doc)
      .map((t) => t.text)
      .join('');
    expect(shown).toContain('W');
    expect(shown).toContain('α');
  }, 60_000);

  it('fences grow with what they hold; a tall parenthesis is drawn, not a glyph', async () => {
    const m = model(
      `<w:p>${display(`<m:d>${e(`<m:f><m:num><m:f><m:num>${r('1')}</m:num><m:den>${r('2')}</m:den></m:f></m:num><m:den>${r('3')}</m:den></m:f>`)}</m:d>`)}</w:p>`,
    );
    const doc = await layoutWithFallback(m);
    expect(texts(doc).map((t) => t.text)).not.toContain('(');
    const [one, three] = [only(doc, '1'), only(doc, '3')];
    const fences = paths(doc).filter((p) => p.fill !== undefined);
    expect(fences).toHaveLength(2);
    for (const fence of fences) {
      expect(Math.min(...pathYs(fence))).toBeLessThan(one.y - one.size * 0.5);
      expect(Math.max(...pathYs(fence))).toBeGreaterThan(three.y);
    }
  }, 60_000);
});
