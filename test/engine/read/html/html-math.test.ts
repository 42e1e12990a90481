import { env } from 'cloudflare:test';
import { strFromU8, unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../../src/engine/fonts/font-cache';
import type { DocumentModel, MathInline, Paragraph } from '../../../../src/engine/model/document';
import { type MathNode, mathText } from '../../../../src/engine/model/math';
import { readDocx } from '../../../../src/engine/read/ooxml/docx-reader';
import { writeDocx } from '../../../../src/engine/write/docx/docx-writer';
import { Budget, DEFAULT_LIMITS } from '../../../../src/limits';
import { modelToPdf } from '../../../../src/services/convert/docx-to-pdf';
import { mintKey, withKey } from '../../../helpers/accounts';
import { call } from '../../../helpers/api';
import { pageText } from '../../../helpers/pdf-text';
import { paragraphs, read, textOf } from './html-fixtures';

const MATHML = 'xmlns="http://www.w3.org/1998/Math/MathML"';

function mathOf(paragraph: Paragraph | undefined): MathInline[] {
  return (paragraph?.inlines ?? []).filter((i): i is MathInline => i.kind === 'math');
}

function allMath(model: DocumentModel): MathInline[] {
  return paragraphs(model).flatMap(mathOf);
}

async function documentXml(html: string): Promise<string> {
  const model = await read(html);
  const files = unzipSync(await writeDocx(model));
  return strFromU8(files['word/document.xml'] as Uint8Array);
}

const QUADRATIC = `<math ${MATHML} display="block">
  <mi> x </mi><mo>=</mo>
  <mfrac>
    <mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow>
    <mrow><mn>2</mn><mi>a</mi></mrow>
  </mfrac>
  <mtext> . </mtext>
</math>`;

describe('readHtml: MathML', () => {
  it('reads structure, not text: fraction, radical, superscript; tokens trimmed (MathML 3 §2.1.7)', async () => {
    const model = await read(`<p>Roots:</p>${QUADRATIC}<p>after</p>`);
    const [before, display, after] = paragraphs(model);
    expect(textOf(before)).toBe('Roots:');
    expect(textOf(after)).toBe('after');
    const [math] = mathOf(display);
    expect(math?.display).toBe(true);
    expect(display?.inlines).toHaveLength(1);
    const nodes = math?.nodes ?? [];
    expect(nodes[0]).toEqual({ kind: 'run', text: 'x' });
    const fraction = nodes[2] as Extract<MathNode, { kind: 'fraction' }>;
    expect(fraction.kind).toBe('fraction');
    expect(fraction.denominator).toEqual([
      { kind: 'run', text: '2' },
      { kind: 'run', text: 'a' },
    ]);
    const radical = fraction.numerator[3] as Extract<MathNode, { kind: 'radical' }>;
    expect(radical.kind).toBe('radical');
    expect(radical.degree).toBeUndefined();
    expect(radical.base[0]).toEqual({
      kind: 'scripts',
      base: [{ kind: 'run', text: 'b' }],
      sup: [{ kind: 'run', text: '2' }],
    });
    expect(nodes[3]).toEqual({ kind: 'run', text: '.', normal: true });
    expect(mathText(nodes)).toBe('x=−b±b2−4ac2a.');
  });

  it('inline math stays in its paragraph; MathJax visual markup contributes nothing', async () => {
    const model = await read(
      `<p>When <mjx-container class="MathJax" jax="CHTML"><mjx-math><mjx-mi><mjx-c class="mjx-c1D44E"></mjx-c></mjx-mi></mjx-math><mjx-assistive-mml display="inline"><math ${MATHML}><mi>a</mi><mo>≠</mo><mn>0</mn></math></mjx-assistive-mml></mjx-container>, two roots.</p>`,
    );
    const [p] = paragraphs(model);
    expect(p?.inlines.map((i) => i.kind)).toEqual(['text', 'math', 'text']);
    expect(mathOf(p)[0]?.display).toBe(false);
    expect(mathText(mathOf(p)[0]?.nodes ?? [])).toBe('a≠0');
    const alt = await read(`<p>Area <math ${MATHML} alttext="pi r^2"><annotation>x</annotation></math>.</p>`);
    expect(textOf(paragraphs(alt)[0])).toBe('Area pi r^2.');
  });

  it('maps large operators, fences, matrices, accents, styles and spaces', async () => {
    const model = await read(`<math ${MATHML}>
      <mrow><mo>(</mo><munderover><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>a</mi><mi>k</mi></msub><mo>)</mo></mrow>
      <mo stretchy="false">(</mo><mi>sin</mi><mo stretchy="false">)</mo>
      <mrow><mo>|</mo><mtable><mtr><mtd><mi mathvariant="bold">i</mi></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mi>x</mi></mtd></mtr></mtable><mo>|</mo></mrow>
      <mover><mi>x</mi><mo>˙</mo></mover><mover><mi>y</mi><mi>n</mi></mover>
      <mspace width="1em"/><mspace width="negativethinmathspace"/>
      <semantics><mi>q</mi><annotation encoding="TeX">q</annotation></semantics>
    </math>`);
    const [math] = allMath(model);
    const nodes = math?.nodes ?? [];
    const fenced = nodes[0] as Extract<MathNode, { kind: 'delimited' }>;
    expect(fenced).toMatchObject({ kind: 'delimited', open: '(', close: ')' });
    expect(fenced.items[0]?.[0]).toEqual({
      kind: 'nary',
      operator: '∑',
      limits: 'underOver',
      sub: [
        { kind: 'run', text: 'k' },
        { kind: 'run', text: '=' },
        { kind: 'run', text: '1' },
      ],
      sup: [{ kind: 'run', text: 'n' }],
      base: [{ kind: 'scripts', base: [{ kind: 'run', text: 'a' }], sub: [{ kind: 'run', text: 'k' }] }],
    });
    // stretchy="false" fences are characters; a multi-letter identifier is upright.
    expect(nodes.slice(1, 4)).toEqual([
      { kind: 'run', text: '(' },
      { kind: 'run', text: 'sin', style: 'plain' },
      { kind: 'run', text: ')' },
    ]);
    const bars = nodes[4] as Extract<MathNode, { kind: 'delimited' }>;
    expect(bars).toMatchObject({ kind: 'delimited', open: '|', close: '|' });
    expect(bars.items[0]?.[0]).toEqual({
      kind: 'matrix',
      rows: [
        [[{ kind: 'run', text: 'i', style: 'bold' }], [{ kind: 'run', text: '0' }]],
        [[{ kind: 'run', text: 'x' }], []],
      ],
    });
    expect(nodes[5]).toEqual({ kind: 'accent', accent: '˙', base: [{ kind: 'run', text: 'x' }] });
    expect(nodes[6]).toMatchObject({ kind: 'limit', position: 'over', limit: [{ kind: 'run', text: 'n' }] });
    // 1em is an em space; a negative space takes no room; annotations are dropped.
    expect(nodes.slice(7)).toEqual([
      { kind: 'run', text: '\u2003' },
      { kind: 'run', text: 'q' },
    ]);
  });

  it('every Presentation Markup element shows its content: prescripts, further script pairs, labels, enclosures', async () => {
    const model = await read(`<math ${MATHML} display="block">
      <mmultiscripts><mi>X</mi><mi>a</mi><mi>b</mi><mi>c</mi><none/><mprescripts/><mi>d</mi><mi>e</mi></mmultiscripts>
      <mtable><mlabeledtr><mtd><mtext>(1.1)</mtext></mtd><mtd><mi>y</mi></mtd></mlabeledtr></mtable>
      <menclose notation="box"><mi>p</mi></menclose><menclose notation="updiagonalstrike bottom"><mi>q</mi></menclose>
      <menclose notation="radical"><mi>r</mi></menclose><menclose notation="circle"><mi>s</mi></menclose>
      <mo>lim</mo>
    </math>`);
    const nodes = allMath(model)[0]?.nodes ?? [];
    // Prescripts before the base (m:sPre's shape), the first pair after it on it, a further pair after that.
    expect(nodes.slice(0, 3)).toEqual([
      { kind: 'scripts', base: [], sub: [{ kind: 'run', text: 'd' }], sup: [{ kind: 'run', text: 'e' }] },
      {
        kind: 'scripts',
        base: [{ kind: 'run', text: 'X' }],
        sub: [{ kind: 'run', text: 'a' }],
        sup: [{ kind: 'run', text: 'b' }],
      },
      { kind: 'scripts', base: [], sub: [{ kind: 'run', text: 'c' }] },
    ]);
    // An equation label is kept, after the row's cells.
    expect(nodes[3]).toEqual({
      kind: 'matrix',
      rows: [[[{ kind: 'run', text: 'y' }], [{ kind: 'run', text: '(1.1)', normal: true }]]],
    });
    expect(nodes.slice(4, 9)).toEqual([
      { kind: 'enclosed', content: [{ kind: 'run', text: 'p' }], sides: ['top', 'bottom', 'left', 'right'] },
      { kind: 'enclosed', content: [{ kind: 'run', text: 'q' }], sides: ['bottom'], strikes: ['up'] },
      { kind: 'radical', base: [{ kind: 'run', text: 'r' }] },
      { kind: 'enclosed', content: [{ kind: 'run', text: 's' }], sides: ['top', 'bottom', 'left', 'right'] },
      // An operator is upright whatever it spells.
      { kind: 'run', text: 'lim', style: 'plain' },
    ]);
  });

  it('MathJax sized fences (an mrow around one mo) fence what is between them; columnalign aligns columns', async () => {
    const model = await read(`<math ${MATHML} display="block">
      <mrow><mrow><mo maxsize="2.047em" minsize="2.047em">(</mo></mrow><mfrac linethickness="0"><mi>n</mi><mi>k</mi></mfrac><mrow><mo maxsize="2.047em" minsize="2.047em">)</mo></mrow></mrow>
      <mtable columnalign="right left"><mtr><mtd><mi>x</mi></mtd><mtd><mo>=</mo><mn>1</mn></mtd></mtr></mtable>
    </math>`);
    const nodes = allMath(model)[0]?.nodes ?? [];
    expect(nodes[0]).toEqual({
      kind: 'delimited',
      open: '(',
      close: ')',
      items: [
        [
          {
            kind: 'fraction',
            numerator: [{ kind: 'run', text: 'n' }],
            denominator: [{ kind: 'run', text: 'k' }],
            noBar: true,
          },
        ],
      ],
    });
    expect(nodes[1]).toMatchObject({ kind: 'matrix', columns: ['right', 'left'] });
  });

  it('hostile: math nested 10,000 levels deep keeps its text and does not overflow the stack', async () => {
    const deep = `<p>before <math ${MATHML}>${'<mrow><msqrt>'.repeat(5_000)}<mi>z</mi>${'</msqrt></mrow>'.repeat(5_000)}</math> after</p>`;
    const model = await read(deep);
    const [math] = allMath(model);
    expect(mathText(math?.nodes ?? [])).toBe('z');
    const xml = strFromU8(unzipSync(await writeDocx(model))['word/document.xml'] as Uint8Array);
    expect(xml).toContain('<m:t xml:space="preserve">z</m:t>');
    const fractions = `<math ${MATHML}>${'<mfrac><mn>1</mn>'.repeat(10_000)}<mn>2</mn>${'</mfrac>'.repeat(10_000)}</math>`;
    const res = await call(
      '/v1/convert?from=html&to=docx',
      withKey(await mintKey(), { method: 'POST', body: formOf(fractions, 'deep.html') }),
    );
    expect(res.status).toBe(200);
    // A ragged table is padded to its widest row: rows and columns are capped first.
    const wide = `<math ${MATHML}><mtable><mtr>${'<mtd><mn>1</mn></mtd>'.repeat(10_000)}</mtr>${'<mtr><mtd><mn>2</mn></mtd></mtr>'.repeat(2_000)}</mtable></math>`;
    const matrix = allMath(await read(wide))[0]?.nodes[0] as Extract<MathNode, { kind: 'matrix' }>;
    expect(matrix.rows).toHaveLength(1000);
    expect(matrix.rows.every((row) => row.length === 64)).toBe(true);
  }, 60_000);
});

function formOf(html: string, name: string): FormData {
  const form = new FormData();
  form.append('file', new File([new TextEncoder().encode(html)], name));
  return form;
}

describe('writeDocx: MathML as Office Math (ECMA-376 Part 1 §22.1)', () => {
  it('writes fractions, radicals, scripts and display math as m:oMathPara', async () => {
    const xml = await documentXml(QUADRATIC);
    expect(xml).toContain('xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"');
    expect(xml).toMatch(/<w:p>(<w:pPr>.*?<\/w:pPr>)?<m:oMathPara><m:oMath>/);
    expect(xml).toContain('<m:f><m:num><m:r><m:t xml:space="preserve">−</m:t></m:r>');
    expect(xml).toContain('<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e><m:sSup><m:e>');
    expect(xml).toContain('<m:sup><m:r><m:t xml:space="preserve">2</m:t></m:r></m:sup></m:sSup>');
    expect(xml).toContain(
      '<m:den><m:r><m:t xml:space="preserve">2</m:t></m:r><m:r><m:t xml:space="preserve">a</m:t></m:r></m:den>',
    );
    expect(xml).toContain('<m:r><m:rPr><m:nor/></m:rPr><m:t xml:space="preserve">.</m:t></m:r>');
  });

  it('writes n-ary operators, delimiters, matrices, accents and inline m:oMath', async () => {
    const xml = await documentXml(`<p>Sum <math ${MATHML}>
      <mrow><mo>(</mo><munderover><mo>∑</mo><mi>k</mi><mi>n</mi></munderover><msub><mi>a</mi><mi>k</mi></msub><mo>)</mo></mrow>
      <mrow><mo>[</mo><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable><mo>]</mo></mrow>
      <mover><mi>x</mi><mo>˙</mo></mover><mroot><mi>y</mi><mn>3</mn></mroot><mi mathvariant="bold">V</mi>
    </math> done.</p>`);
    expect(xml).not.toContain('<m:oMathPara>');
    expect(xml).toMatch(/Sum <\/w:t><\/w:r><m:oMath>/);
    expect(xml).toContain(
      '<m:nary><m:naryPr><m:chr m:val="∑"/><m:limLoc m:val="undOvr"/></m:naryPr><m:sub><m:r><m:t xml:space="preserve">k</m:t></m:r></m:sub><m:sup><m:r><m:t xml:space="preserve">n</m:t></m:r></m:sup><m:e><m:sSub>',
    );
    expect(xml).toContain('<m:d><m:dPr><m:begChr m:val="("/><m:endChr m:val=")"/></m:dPr><m:e><m:nary>');
    expect(xml).toContain('<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr><m:e><m:m><m:mPr>');
    expect(xml).toContain('<m:count m:val="2"/>');
    expect(xml.match(/<m:mr>/g)).toHaveLength(2);
    expect(xml).toContain('<m:acc><m:accPr><m:chr m:val="˙"/></m:accPr><m:e><m:r><m:t xml:space="preserve">x</m:t>');
    expect(xml).toContain('<m:rad><m:deg><m:r><m:t xml:space="preserve">3</m:t></m:r></m:deg><m:e>');
    expect(xml).toContain('<m:r><m:rPr><m:sty m:val="b"/></m:rPr><m:t xml:space="preserve">V</m:t></m:r>');
  });

  it('the PDF path sets math in two dimensions and draws every token of it', async () => {
    const model = await read(
      `<p>Inline <math ${MATHML}><msup><mi>x</mi><mn>2</mn></msup></math> here.</p>${QUADRATIC}`,
    );
    const { pdf } = await modelToPdf(
      model,
      { assets: env.ASSETS, fontCache: createFontCache() },
      new Budget(DEFAULT_LIMITS),
    );
    const text = pageText(await PDFDocument.load(pdf), 0);
    expect(text).toMatch(/Inline\s*x\s*2\s*here\./);
    // Numerator, then denominator; the radical sign and the fraction bar are drawn, not text.
    expect(text).toMatch(/x\s*=\s*−\s*b\s*±\s*b\s*2\s*−\s*4\s*ac\s*2\s*a\s*\./);
  }, 60_000);
});

describe('readDocx: Office Math back into the model', () => {
  it('what the writer writes reads back node for node', async () => {
    const model =
      await read(`<p>See <math ${MATHML}><mi>a</mi><mo>≠</mo><mn>0</mn><mtext mathvariant="bold">bold text</mtext></math>.</p>${QUADRATIC}
      <math ${MATHML} display="block">
        <msup><mrow><mo>(</mo><munderover><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>a</mi><mi>k</mi></msub><mo>)</mo></mrow><mn>2</mn></msup>
        <munder><mo>∫</mo><mi>D</mi></munder><mi>f</mi>
        <mfenced open="[" close="]"><mi>x</mi><mi>y</mi></mfenced>
        <mrow><mo>|</mo><mtable><mtr><mtd><mi mathvariant="double-struck">R</mi></mtd><mtd><mn>0</mn></mtd></mtr></mtable><mo>|</mo></mrow>
        <mover accent="true"><mi>v</mi><mo>→</mo></mover><mroot><mi>y</mi><mn>3</mn></mroot><mphantom><mi>p</mi></mphantom>
        <mfrac linethickness="0"><mi>n</mi><mi>k</mi></mfrac><mi>x</mi><mrow><mi>y</mi><mo>+</mo><mi>z</mi></mrow>
        <menclose notation="top left updiagonalstrike"><mi>w</mi></menclose>
        <mtable columnalign="right left center"><mtr><mtd><mi>a</mi></mtd><mtd><mi>b</mi></mtd><mtd><mi>c</mi></mtd></mtr></mtable>
      </math>`);
    const back = readDocx(await writeDocx(model), { revisions: 'markup', limits: DEFAULT_LIMITS });
    const written = allMath(model);
    const readBack = allMath(back);
    expect(written).toHaveLength(3);
    expect(readBack.map((m) => [m.display, m.nodes])).toEqual(written.map((m) => [m.display, m.nodes]));
  });
});
