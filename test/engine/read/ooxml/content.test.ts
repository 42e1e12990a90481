import { describe, expect, it } from 'vitest';
import type { ImageInline, Paragraph, Table } from '../../../../src/engine/model/document';
import { readDocx } from '../../../../src/engine/read/ooxml/docx-reader';
import { writeDocx } from '../../../../src/engine/write/docx/docx-writer';
import { DEFAULT_LIMITS } from '../../../../src/limits';
import { paragraph, tinyPng } from '../../../helpers/docx-fixture';
import { paragraphs, readParts, textInline, textOf } from './model-queries';

const r = (text: string, rPr = '') =>
  `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;

function inlinePicture(id: string, cx: number, cy: number, description = 'A red square'): string {
  return `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="1" name="Picture 1" descr="${description}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="square.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${id}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
}

describe('run content', () => {
  it('reads tabs, breaks, hyphens, carriage returns and xml:space', () => {
    const model = readParts({
      document: `<w:body><w:p><w:r><w:t>  trimmed  </w:t><w:tab/><w:t xml:space="preserve"> kept </w:t><w:br/><w:t>a</w:t><w:noBreakHyphen/><w:t>b</w:t><w:softHyphen/><w:t>c</w:t><w:cr/><w:t>d</w:t><w:br w:type="page"/><w:br w:type="column"/></w:r></w:p></w:body>`,
    });
    const [p] = paragraphs(model);
    expect(textOf(p as never)).toBe('trimmed\t kept \na\u2011b\u00adc\nd\n\n');
    expect(
      p?.inlines.filter((inline) => inline.kind === 'break').map((inline) => inline.kind === 'break' && inline.type),
    ).toEqual(['line', 'line', 'page', 'column']);
  });

  it('reads an absolute position tab (w:ptab, §17.3.3.23) with its alignment, base and leader', () => {
    const model = readParts({
      document: `<w:body><w:p><w:r><w:t>a</w:t><w:ptab w:relativeTo="margin" w:alignment="center" w:leader="none"/><w:t>b</w:t><w:ptab w:relativeTo="indent" w:alignment="right" w:leader="dot"/><w:t>c</w:t><w:tab/></w:r></w:p></w:body>`,
    });
    const tabs = paragraphs(model)[0]?.inlines.filter((inline) => inline.kind === 'tab');
    expect(tabs?.map((tab) => (tab.kind === 'tab' ? tab.absolute : undefined))).toEqual([
      { align: 'center', relativeTo: 'margin', leader: 'none' },
      { align: 'right', relativeTo: 'indent', leader: 'dot' },
      undefined,
    ]);
  });

  it('maps w:sym characters of symbol fonts to Unicode', () => {
    const model = readParts({
      document: `<w:body><w:p><w:r><w:sym w:font="Symbol" w:char="F062"/></w:r><w:r><w:sym w:font="Wingdings" w:char="F0FC"/></w:r><w:r><w:sym w:font="Symbol" w:char="F0B7"/></w:r><w:r><w:sym w:font="Unknown Dingbats" w:char="F041"/></w:r>${r('x', '<w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/>')}</w:p></w:body>`,
    });
    const [p] = paragraphs(model);
    expect(textOf(p as never)).toBe('β✓•\uf041ξ');
    expect(textInline(model, '\uf041').props.font).toBe('Unknown Dingbats');
  });

  it('drops hidden text', () => {
    const model = readParts({
      document: `<w:body><w:p>${r('seen ')}${r('unseen', '<w:vanish/>')}${r('too')}</w:p></w:body>`,
    });
    expect(textOf(paragraphs(model)[0] as never)).toBe('seen too');
  });

  it('merges runs that differ only in editing history', () => {
    const model = readParts({
      document: `<w:body><w:p>${r('one ')}${r('two ')}${r('three', '<w:b/>')}</w:p></w:body>`,
    });
    const [p] = paragraphs(model);
    expect(p?.inlines.map((inline) => inline.kind === 'text' && inline.text)).toEqual(['one two ', 'three']);
  });

  it('reads footnote and endnote references as note references numbered in document order', () => {
    const model = readParts({
      document: `<w:body><w:p>${r('Claim')}<w:r><w:footnoteReference w:id="2"/></w:r>${r(' and another')}<w:r><w:footnoteReference w:id="3"/></w:r><w:r><w:endnoteReference w:id="1"/></w:r></w:p></w:body>`,
    });
    expect(textOf(paragraphs(model)[0] as never)).toBe('Claim1 and another2i');
    expect(paragraphs(model)[0]?.inlines.filter((inline) => inline.kind === 'noteReference')).toMatchObject([
      { note: 'footnote', id: '2', mark: '1' },
      { note: 'footnote', id: '3', mark: '2' },
      { note: 'endnote', id: '1', mark: 'i' },
    ]);
  });

  it('reads equations as math (Office Math, §22.1) whose linear text is their runs in order', () => {
    const model = readParts({
      document:
        '<w:body><w:p><m:oMathPara><m:oMath><m:r><m:t>E=m</m:t></m:r><m:sSup><m:e><m:r><m:t>c</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath></m:oMathPara></w:p></w:body>',
    });
    const paragraph = paragraphs(model)[0] as Paragraph;
    expect(textOf(paragraph)).toBe('E=mc2');
    expect(paragraph.inlines[0]).toMatchObject({
      kind: 'math',
      display: true,
      nodes: [
        { kind: 'run', text: 'E=m' },
        { kind: 'scripts', base: [{ kind: 'run', text: 'c' }], sup: [{ kind: 'run', text: '2' }] },
      ],
    });
  });
});

describe('Office Math structures (§22.1.2)', () => {
  const m = (text: string) => `<m:r><m:t>${text}</m:t></m:r>`;
  const math = (content: string, paraProperties = '') =>
    `<w:body><w:p><m:oMathPara>${paraProperties}<m:oMath>${content}</m:oMath></m:oMathPara></w:p></w:body>`;
  const nodesOf = (model: ReturnType<typeof readParts>) => {
    const inline = paragraphs(model)[0]?.inlines[0];
    return inline?.kind === 'math' ? inline.nodes : [];
  };

  it('reads bars, border boxes, phantoms by m:show, column alignment and m:oMathPara justification', () => {
    const model = readParts({
      document: math(
        `<m:bar>${'<m:e>'}${m('a')}</m:e></m:bar><m:bar><m:barPr><m:pos m:val="top"/></m:barPr><m:e>${m('b')}</m:e></m:bar>` +
          `<m:borderBox><m:borderBoxPr><m:hideLeft m:val="1"/><m:strikeH/></m:borderBoxPr><m:e>${m('c')}</m:e></m:borderBox>` +
          `<m:phant><m:phantPr><m:show m:val="0"/></m:phantPr><m:e>${m('d')}</m:e></m:phant><m:phant><m:phantPr><m:zeroAsc/></m:phantPr><m:e>${m('e')}</m:e></m:phant>` +
          `<m:m><m:mPr><m:mcs><m:mc><m:mcPr><m:count m:val="1"/><m:mcJc m:val="right"/></m:mcPr></m:mc><m:mc><m:mcPr><m:count m:val="1"/><m:mcJc m:val="left"/></m:mcPr></m:mc></m:mcs></m:mPr><m:mr><m:e>${m('f')}</m:e><m:e>${m('g')}</m:e></m:mr></m:m>`,
        '<m:oMathParaPr><m:jc m:val="right"/></m:oMathParaPr>',
      ),
    });
    const inline = paragraphs(model)[0]?.inlines[0];
    expect(inline).toMatchObject({ kind: 'math', display: true, justification: 'right' });
    expect(nodesOf(model)).toEqual([
      // §22.1.2.7: under the base unless m:pos says top.
      { kind: 'bar', position: 'bottom', base: [{ kind: 'run', text: 'a' }] },
      { kind: 'bar', position: 'top', base: [{ kind: 'run', text: 'b' }] },
      {
        kind: 'enclosed',
        content: [{ kind: 'run', text: 'c' }],
        sides: ['top', 'bottom', 'right'],
        strikes: ['horizontal'],
      },
      // A phantom hides its content only when m:show is off (§22.1.2.96).
      { kind: 'phantom', content: [{ kind: 'run', text: 'd' }] },
      { kind: 'group', content: [{ kind: 'run', text: 'e' }] },
      {
        kind: 'matrix',
        rows: [[[{ kind: 'run', text: 'f' }], [{ kind: 'run', text: 'g' }]]],
        columns: ['right', 'left'],
      },
    ]);
    expect(model.warnings.filter((warning) => /inside an equation/.test(warning))).toEqual([]);
  });

  it('reads the Word run content of m:r: w:t, w:sym, tabs and non-breaking hyphens', () => {
    const model = readParts({
      document: math(
        '<m:r><w:t>x</w:t><w:sym w:font="Symbol" w:char="F062"/><w:noBreakHyphen/><w:tab/></m:r><w:r><w:t>text</w:t></w:r>',
      ),
    });
    expect(nodesOf(model)).toEqual([
      { kind: 'run', text: 'xβ\u2011\t' },
      { kind: 'run', text: 'text', normal: true },
    ]);
  });

  it('what the DOCX writer writes of them reads back node for node', async () => {
    const model = readParts({
      document: math(
        `<m:bar><m:barPr><m:pos m:val="top"/></m:barPr><m:e>${m('b')}</m:e></m:bar><m:borderBox><m:borderBoxPr><m:hideTop/><m:strikeTLBR/></m:borderBoxPr><m:e>${m('c')}</m:e></m:borderBox><m:phant><m:phantPr><m:show m:val="off"/></m:phantPr><m:e>${m('d')}</m:e></m:phant><m:m><m:mPr><m:mcs><m:mc><m:mcPr><m:count m:val="2"/><m:mcJc m:val="left"/></m:mcPr></m:mc></m:mcs></m:mPr><m:mr><m:e>${m('f')}</m:e><m:e>${m('g')}</m:e></m:mr></m:m>`,
      ),
    });
    const back = readDocx(await writeDocx(model), { revisions: 'markup', limits: DEFAULT_LIMITS });
    expect(nodesOf(back)).toEqual(nodesOf(model));
  });
});

describe('containers', () => {
  it('reads the content of content controls (w:sdt) at block, run and cell level', () => {
    const model = readParts({
      document: `<w:body><w:sdt><w:sdtPr><w:alias w:val="Block"/></w:sdtPr><w:sdtContent>${paragraph('block control')}</w:sdtContent></w:sdt><w:p><w:sdt><w:sdtPr/><w:sdtContent>${r('inline control')}</w:sdtContent></w:sdt></w:p><w:tbl><w:tblGrid><w:gridCol w:w="1000"/></w:tblGrid><w:tr><w:sdt><w:sdtContent><w:tc><w:p>${r('cell control')}</w:p></w:tc></w:sdtContent></w:sdt></w:tr></w:tbl></w:body>`,
    });
    expect(paragraphs(model).map(textOf)).toEqual(['block control', 'inline control', 'cell control']);
  });

  it('takes the supported mc:Choice, else the mc:Fallback', () => {
    const model = readParts({
      document: `<w:body><w:p><mc:AlternateContent><mc:Choice Requires="w14">${r('choice')}</mc:Choice><mc:Fallback>${r('fallback')}</mc:Fallback></mc:AlternateContent>${r(' / ')}<mc:AlternateContent><mc:Choice Requires="cx1">${r('chartex')}</mc:Choice><mc:Fallback>${r('picture instead')}</mc:Fallback></mc:AlternateContent></w:p></w:body>`,
    });
    expect(textOf(paragraphs(model)[0] as never)).toBe('choice / picture instead');
  });

  it('reads a floating text box as a shape drawing holding its paragraphs', () => {
    const textBox = `<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="914400" cy="457200"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="2" name="Text Box 2"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx><w:txbxContent>${paragraph('Box line one')}${paragraph('Box line two')}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>${paragraph('VML copy')}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>`;
    const model = readParts({ document: `<w:body><w:p>${r('Anchor ')}${textBox}</w:p></w:body>` });
    const [anchor] = paragraphs(model);
    expect(textOf(anchor as never)).toBe('Anchor ');
    const drawing = anchor?.inlines.find((inline) => inline.kind === 'drawing');
    expect(drawing?.kind === 'drawing' && drawing.drawing.kind === 'shapes').toBe(true);
    if (drawing?.kind !== 'drawing' || drawing.drawing.kind !== 'shapes') return;
    expect(drawing.width).toBeCloseTo(72);
    const text = drawing.drawing.shapes[0]?.text;
    expect(text?.blocks.map((block) => (block.kind === 'paragraph' ? textOf(block) : ''))).toEqual([
      'Box line one',
      'Box line two',
    ]);
  });
});

describe('pictures', () => {
  it('reads an inline PNG with its placed size and pixel size', () => {
    const png = tinyPng(4, 3);
    const model = readParts({
      document: `<w:body><w:p>${inlinePicture('rIdImg', 1270000, 952500)}</w:p></w:body>`,
      relationships: [{ id: 'rIdImg', type: 'image', target: 'media/image1.png' }],
      extraParts: { 'word/media/image1.png': png },
    });
    const image = paragraphs(model)[0]?.inlines[0] as ImageInline;
    expect(image).toMatchObject({
      kind: 'image',
      imageId: 'word/media/image1.png',
      width: 100,
      height: 75,
      description: 'A red square',
    });
    expect(model.images['word/media/image1.png']).toEqual({ format: 'png', bytes: png, pixelWidth: 4, pixelHeight: 3 });
    expect(model.warnings.filter((warning) => /picture/i.test(warning))).toEqual([]);
  });

  it('reads a picture whose fill Word for Mac wrapped in mc:AlternateContent, from the branch it can use', () => {
    // Word 2011 kept a PDF for itself (Requires="ma") and a PNG for everyone else; the prefix is
    // the old "ve", bound to the markup-compatibility namespace.
    const png = tinyPng(4, 3);
    const fill = (id: string) =>
      `<pic:blipFill><a:blip r:embed="${id}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>`;
    const picture = inlinePicture('rIdPng', 1270000, 952500).replace(
      /<pic:blipFill>.*<\/pic:blipFill>/,
      `<ve:AlternateContent xmlns:ve="http://schemas.openxmlformats.org/markup-compatibility/2006"><ve:Choice xmlns:ma="http://schemas.microsoft.com/office/mac/drawingml/2008/main" Requires="ma">${fill('rIdPdf')}</ve:Choice><ve:Fallback>${fill('rIdPng')}</ve:Fallback></ve:AlternateContent>`,
    );
    const model = readParts({
      document: `<w:body><w:p>${picture}</w:p></w:body>`,
      relationships: [
        { id: 'rIdPng', type: 'image', target: 'media/image2.png' },
        { id: 'rIdPdf', type: 'image', target: 'media/image1.pdf' },
      ],
      extraParts: { 'word/media/image2.png': png, 'word/media/image1.pdf': '%PDF-1.3' },
    });
    expect(paragraphs(model)[0]?.inlines[0]).toMatchObject({ kind: 'image', imageId: 'word/media/image2.png' });
  });

  it('reads a VML picture sized by its style', () => {
    const model = readParts({
      document: `<w:body><w:p><w:r><w:pict><v:shape style="width:72pt;height:0.5in"><v:imagedata r:id="rIdImg" o:title="vml"/></v:shape></w:pict></w:r></w:p></w:body>`,
      relationships: [{ id: 'rIdImg', type: 'image', target: 'media/image1.png' }],
      extraParts: { 'word/media/image1.png': tinyPng(2, 2) },
    });
    expect(paragraphs(model)[0]?.inlines[0]).toMatchObject({
      kind: 'image',
      width: 72,
      height: 36,
      description: 'vml',
    });
  });

  it('skips, with a warning, pictures that are damaged, that lie about their size, or that are missing', () => {
    const hugePng = tinyPng(2, 2);
    new DataView(hugePng.buffer).setUint32(16, 50000); // IHDR width
    const model = readParts({
      document: `<w:body><w:p>${inlinePicture('rIdGif', 100, 100)}${inlinePicture('rIdHuge', 100, 100)}${inlinePicture('rIdGone', 100, 100)}${inlinePicture('rIdNone', 100, 100)}${r('text stays')}</w:p></w:body>`,
      relationships: [
        { id: 'rIdGif', type: 'image', target: 'media/image1.gif' },
        { id: 'rIdHuge', type: 'image', target: 'media/image2.png' },
        { id: 'rIdGone', type: 'image', target: 'media/image3.png' },
      ],
      extraParts: {
        'word/media/image1.gif': new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]),
        'word/media/image2.png': hugePng,
      },
    });
    expect(paragraphs(model)[0]?.inlines.map((inline) => inline.kind)).toEqual(['text']);
    expect(model.images).toEqual({});
    const warnings = model.warnings.join('\n');
    expect(warnings).toMatch(/image1\.gif is left out: the GIF image is damaged/);
    expect(warnings).toMatch(/image2\.png is left out: the PNG image is damaged, or larger than 16 megapixels/);
    expect(warnings).toMatch(/image3\.png is missing/);
    expect(warnings).toMatch(/rIdNone/);
  });
});

describe('tables', () => {
  it('reads the grid, spans, vertical merges, widths, shading, header rows and heights', () => {
    const model = readParts({
      document: `<w:body><w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblInd w:w="144" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="3000"/><w:gridCol w:w="1000"/></w:tblGrid>
        <w:tr><w:trPr><w:tblHeader/><w:cantSplit/><w:trHeight w:val="400" w:hRule="exact"/></w:trPr>
          <w:tc><w:tcPr><w:tcW w:w="5000" w:type="dxa"/><w:gridSpan w:val="2"/><w:shd w:val="clear" w:color="auto" w:fill="D9E2F3"/></w:tcPr>${paragraph('header')}</w:tc>
          <w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr>${paragraph('merged')}</w:tc></w:tr>
        <w:tr><w:trPr><w:trHeight w:val="300"/></w:trPr>
          <w:tc><w:tcPr><w:tcW w:w="2500" w:type="pct"/></w:tcPr>${paragraph('a')}</w:tc>
          <w:tc>${paragraph('b')}<w:tbl><w:tblGrid><w:gridCol w:w="1000"/></w:tblGrid><w:tr><w:tc>${paragraph('nested')}</w:tc></w:tr></w:tbl><w:p/></w:tc>
          <w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc></w:tr>
      </w:tbl></w:body>`,
    });
    const table = model.sections[0]?.blocks[0] as Table;
    expect(table.kind).toBe('table');
    expect(table.grid).toEqual([100, 150, 50]);
    expect(table.indent).toBe(7.2);
    const [header, body] = table.rows;
    expect(header).toMatchObject({ isHeader: true, cantSplit: true, height: { value: 20, rule: 'exact' } });
    expect(header?.cells[0]).toMatchObject({ span: 2, width: 250, shading: 'D9E2F3' });
    expect(header?.cells[1]?.verticalMerge).toBe('restart');
    expect(body).toMatchObject({ isHeader: false, cantSplit: false, height: { value: 15, rule: 'atLeast' } });
    expect(body?.cells[0]?.width).toBe(150);
    expect(body?.cells[2]?.verticalMerge).toBe('continue');
    const nested = body?.cells[1]?.blocks[1] as Table;
    expect(nested.kind).toBe('table');
    expect(paragraphs(model).map(textOf)).toEqual(['header', 'merged', 'a', 'b', 'nested', '', '']);
  });

  it('applies the table style’s paragraph and run properties inside the table', () => {
    const model = readParts({
      document: `<w:body><w:tbl><w:tblPr><w:tblStyle w:val="Grid"/></w:tblPr><w:tblGrid><w:gridCol w:w="1000"/></w:tblGrid><w:tr><w:tc>${paragraph('in table')}</w:tc></w:tr></w:tbl>${paragraph('outside')}</w:body>`,
      styles:
        '<w:docDefaults><w:pPrDefault><w:pPr><w:spacing w:after="160"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="table" w:styleId="Grid"><w:pPr><w:spacing w:after="0"/></w:pPr><w:rPr><w:color w:val="404040"/></w:rPr><w:tblPr><w:tblInd w:w="108" w:type="dxa"/></w:tblPr></w:style>',
    });
    const [inside, outside] = paragraphs(model);
    expect(inside?.props.spacing.after).toBe(0);
    expect(outside?.props.spacing.after).toBe(8);
    expect(textInline(model, 'in table').props.color).toBe('404040');
    expect(textInline(model, 'outside').props.color).toBeUndefined();
    const table = model.sections[0]?.blocks[0] as Table;
    expect(table.indent).toBe(5.4);
  });
});
