// Numbers no writer would put in a document (2^31 twips, w:sz of a million, 9,999 columns) are
// read within the bounds Word itself accepts, and such documents convert: never a 500, quickly.
import { describe, expect, it } from 'vitest';
import { formatNoteNumber } from '../../../../src/engine/read/ooxml/note-numbering';
import { formatNumber } from '../../../../src/engine/text/number-format';
import { mintKey, withKey } from '../../../helpers/accounts';
import { call } from '../../../helpers/api';
import { buildDocx, type DocxParts } from '../../../helpers/docx-fixture';
import { pdfText } from '../../../helpers/pdf-text';
import { paragraphs, readParts, textInline } from './model-queries';

const HUGE = '2147483647';
const LEAST = '-2147483648';

const sectPr = (page: string, extra = '') =>
  `<w:sectPr><w:pgSz ${page}/><w:pgMar w:top="${HUGE}" w:right="${LEAST}" w:bottom="1440" w:left="1e400in" w:header="720" w:footer="720" w:gutter="0"/>${extra}</w:sectPr>`;

const EXTREME_PARAGRAPH = `<w:p><w:pPr><w:ind w:left="${LEAST}" w:right="${HUGE}" w:hanging="${HUGE}"/><w:spacing w:before="${HUGE}" w:after="${LEAST}" w:line="${HUGE}" w:lineRule="auto"/><w:tabs><w:tab w:val="right" w:leader="dot" w:pos="${HUGE}"/><w:tab w:val="left" w:pos="${LEAST}"/></w:tabs><w:pBdr><w:top w:val="single" w:sz="${HUGE}" w:space="${HUGE}"/></w:pBdr></w:pPr><w:r><w:rPr><w:sz w:val="999999"/><w:szCs w:val="1"/><w:spacing w:val="${HUGE}"/><w:position w:val="${LEAST}"/></w:rPr><w:t>Huge</w:t></w:r><w:r><w:tab/><w:t>1</w:t></w:r></w:p>`;

describe('numbers read within the bounds Word accepts', () => {
  it('clamps page sides to 22 in, margins to 0–22 in and caps columns at 45', () => {
    const columns = Array.from({ length: 9999 }, () => `<w:col w:w="${HUGE}" w:space="${LEAST}"/>`).join('');
    const model = readParts({
      document: `<w:body><w:p/>${sectPr(`w:w="${HUGE}" w:h="1"`, `<w:cols w:num="9999" w:space="${HUGE}" w:equalWidth="0">${columns}</w:cols>`)}</w:body>`,
    });
    const [section] = model.sections;
    // ECMA-376 Part 1 §17.6.13: Word's largest page side is 22 in (31,680 twips), its smallest 0.1 in.
    expect(section?.page.width).toBe(1584);
    expect(section?.page.height).toBe(7.2);
    expect(section?.page.margins.top).toBe(1584);
    expect(section?.page.margins.right).toBe(1584);
    // "1e400in" is no length at all: the default margin.
    expect(section?.page.margins.left).toBe(72);
    expect(section?.columns.count).toBe(45);
    expect(section?.columns.widths?.length).toBe(45);
    expect(section?.columns.widths?.[0]).toEqual({ width: 1584, space: 0 });
  });

  it('clamps indents and tab stops to ±22 in, spacing to 0–22 in and 132 lines, borders to 12 pt and 31 pt', () => {
    const model = readParts({ document: `<w:body>${EXTREME_PARAGRAPH}</w:body>` });
    const [p] = paragraphs(model);
    expect(p?.props.indent).toEqual({ left: -1584, right: 1584, firstLine: -1584 });
    expect(p?.props.spacing).toMatchObject({ before: 1584, after: 0, line: 132, lineRule: 'auto' });
    expect(p?.props.tabs.map((tab) => tab.position)).toEqual([-1584, 1584]);
    expect(p?.props.borders.top).toMatchObject({ width: 12, space: 31 });
  });

  it('keeps at most 64 tab stops in a paragraph, the leftmost, as Word does', () => {
    const stops = Array.from({ length: 1000 }, (_, i) => `<w:tab w:val="left" w:pos="${(1000 - i) * 20}"/>`).join('');
    const model = readParts({ document: `<w:body><w:p><w:pPr><w:tabs>${stops}</w:tabs></w:pPr></w:p></w:body>` });
    const tabs = paragraphs(model)[0]?.props.tabs ?? [];
    expect(tabs.length).toBe(64);
    expect(tabs[0]?.position).toBe(1);
    expect(tabs[63]?.position).toBe(64);
  });

  it('clamps font sizes to 1–3,276 half-points, character spacing and position to ±1,584 pt', () => {
    const model = readParts({ document: `<w:body>${EXTREME_PARAGRAPH}</w:body>` });
    const run = textInline(model, 'Huge');
    expect(run.props.size).toBe(1638);
    expect(run.props.sizeComplex).toBe(0.5);
    expect(run.props.characterSpacing).toBe(1584);
    expect(run.props.position).toBe(-1584);
  });

  it('clamps exact line heights, table widths, indents, row heights and the default tab stop', () => {
    const model = readParts({
      settings: `<w:defaultTabStop w:val="${HUGE}"/>`,
      document: `<w:body><w:p><w:pPr><w:spacing w:line="${LEAST}" w:lineRule="exact"/></w:pPr></w:p><w:tbl><w:tblPr><w:tblW w:w="${HUGE}" w:type="dxa"/><w:tblInd w:w="${LEAST}" w:type="dxa"/><w:tblCellSpacing w:w="${HUGE}" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="${HUGE}"/><w:gridCol w:w="${LEAST}"/></w:tblGrid><w:tr><w:trPr><w:trHeight w:val="${HUGE}"/></w:trPr><w:tc><w:p/></w:tc><w:tc><w:p/></w:tc></w:tr></w:tbl></w:body>`,
    });
    expect(model.settings.defaultTabStop).toBe(1584);
    expect(paragraphs(model)[0]?.props.spacing).toMatchObject({ line: 1584, lineRule: 'exact' });
    const table = model.sections[0]?.blocks.find((block) => block.kind === 'table');
    expect(table?.kind === 'table' && table.grid).toEqual([1584, 0]);
    expect(table?.kind === 'table' && table.indent).toBe(-1584);
    expect(table?.kind === 'table' && table.cellSpacing).toBe(1584);
    expect(table?.kind === 'table' && table.width).toEqual({ type: 'dxa', value: 1584 });
    expect(table?.kind === 'table' && table.rows[0]?.height?.value).toBe(1584);
  });
});

describe('numbers written out', () => {
  it('writes letters up to 780 ("zzz…", 30 of them, as Word) and digits past it', () => {
    expect(formatNumber(28, 'lowerLetter')).toBe('bb');
    expect(formatNumber(780, 'upperLetter')).toBe('Z'.repeat(30));
    expect(formatNumber(781, 'upperLetter')).toBe('781');
    // A page number field with \* ALPHABETIC of 2,000,000,000 was a 77-million-letter string.
    expect(formatNumber(2_000_000_000, 'upperLetter')).toBe('2000000000');
    expect(formatNumber(0, 'lowerLetter')).toBe('0');
    expect(formatNumber(5000, 'upperRoman')).toBe('5000');
  });

  it('writes footnote symbols the same way', () => {
    expect(formatNoteNumber(5, 'chicago')).toBe('**');
    expect(formatNoteNumber(120, 'chicago')).toBe('§'.repeat(30));
    expect(formatNoteNumber(2_000_000_000, 'chicago')).toBe('2000000000');
  });
});

async function convert(parts: DocxParts): Promise<Response> {
  const form = new FormData();
  form.append('file', new File([buildDocx(parts) as Uint8Array<ArrayBuffer>], 'extreme.docx'));
  return call('/v1/convert?from=docx&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
}

const field = (instruction: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instruction} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;

describe('POST /v1/convert with extreme numbers', () => {
  it.each([
    // The audit's reproducer: a page 2^31 twips wide with a dot leader (a 500 from String.repeat).
    ['a page 2^31 twips wide with a dot-leader tab', `${EXTREME_PARAGRAPH}${sectPr(`w:w="${HUGE}" w:h="${HUGE}"`)}`],
    ['a tab stop at 10^14 twips', EXTREME_PARAGRAPH.replace(`w:pos="${HUGE}"`, 'w:pos="99999999999999"')],
    ['a font of w:sz 999999 on a tiny page', `${EXTREME_PARAGRAPH}${sectPr('w:w="1" w:h="1"')}`],
    [
      '9,999 columns',
      `${EXTREME_PARAGRAPH}<w:sectPr><w:cols w:num="9999" w:space="${HUGE}"/><w:docGrid w:type="lines" w:linePitch="${HUGE}"/></w:sectPr>`,
    ],
  ])('answers 200 quickly for %s', async (_name, body) => {
    const started = Date.now();
    const res = await convert({ document: `<w:body>${body}</w:body>` });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('prints a page number of 2,000,000,000 in \\* ALPHABETIC as digits', async () => {
    const res = await convert({
      footers: { rIdF: `<w:p>${field('PAGE \\* ALPHABETIC')}</w:p>` },
      document: `<w:body><w:p><w:r><w:t>Body</w:t></w:r></w:p><w:sectPr><w:footerReference w:type="default" r:id="rIdF"/><w:pgNumType w:start="2000000000"/></w:sectPr></w:body>`,
    });
    expect(res.status).toBe(200);
    const [text] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('2000000000');
  });
});
