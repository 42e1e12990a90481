import { describe, expect, it } from 'vitest';
import type { PathItem, RectItem, TextItem } from '../../../src/engine/layout/page-items';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { readDocx } from '../../../src/engine/read/ooxml/docx-reader';
import { DEFAULT_LIMITS } from '../../../src/limits';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { buildDocx, type DocxParts, paragraph, tinyPng } from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';
import { paragraphs, readParts } from '../read/ooxml/model-queries';
import { bundledLayout } from './fallback-layout';

const layout = bundledLayout();

const texts = (doc: LaidOutDocument, page = 0) =>
  (doc.pages[page]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
const rects = (doc: LaidOutDocument, fill: string) =>
  (doc.pages[0]?.items ?? []).filter((i): i is RectItem => i.kind === 'rect' && i.fill === fill);

const CHART_NS =
  'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const CHART_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart';

const strCache = (values: string[]) =>
  `<c:strRef><c:f>S!A1</c:f><c:strCache><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:strCache></c:strRef>`;
const numCache = (values: number[]) =>
  `<c:numRef><c:f>S!B1</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="${values.length}"/>${values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join('')}</c:numCache></c:numRef>`;
const series = (index: number, name: string, categories: string[], values: number[], color?: string) =>
  `<c:ser><c:idx val="${index}"/><c:order val="${index}"/><c:tx>${strCache([name])}</c:tx>${color ? `<c:spPr><a:solidFill><a:srgbClr val="${color}"/></a:solidFill></c:spPr>` : ''}<c:cat>${strCache(categories)}</c:cat><c:val>${numCache(values)}</c:val></c:ser>`;
const title = (text: string) =>
  `<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></c:rich></c:tx></c:title>`;
const AXES =
  '<c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:crossAx val="1"/></c:valAx>';

function chartPart(chart: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><c:chartSpace ${CHART_NS}><c:chart>${chart}</c:chart></c:chartSpace>`;
}

/** A document with one inline chart (6 × 3 in) between two paragraphs. */
function chartDocument(chart: string | undefined, extra: Partial<DocxParts> = {}): DocxParts {
  return {
    document: `<w:body>${paragraph('Before the chart.')}<w:p><w:r><w:drawing><wp:inline><wp:extent cx="5486400" cy="2743200"/><wp:docPr id="1" name="Chart 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>${paragraph('After the chart.')}</w:body>`,
    relationships: [{ id: 'rIdChart', type: CHART_TYPE, target: 'charts/chart1.xml' }],
    ...(chart === undefined ? {} : { extraParts: { 'word/charts/chart1.xml': chart } }),
    ...extra,
  };
}

const COLUMN_CHART = chartPart(
  `${title('Quarterly Sales')}<c:plotArea><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>${series(0, 'North', ['Spring', 'Summer', 'Autumn'], [10, 20, 40], '4472C4')}${series(1, 'South', ['Spring', 'Summer', 'Autumn'], [5, 15, 30], 'ED7D31')}<c:gapWidth val="150"/><c:axId val="1"/><c:axId val="2"/></c:barChart>${AXES}</c:plotArea><c:legend><c:legendPos val="b"/></c:legend>`,
);

async function convert(bytes: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], 'chart.docx'));
  return call('/v1/convert?from=docx&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
}

describe('charts', () => {
  it('draws a column chart: title, categories, legend and value ticks as text; bars in proportion', async () => {
    const doc = await layout(readParts(chartDocument(COLUMN_CHART)));
    const words = texts(doc).map((t) => t.text);
    for (const word of ['Quarterly Sales', 'Spring', 'Summer', 'Autumn', 'North', 'South', '0', '40'])
      expect(words).toContain(word);
    // Bars: the legend swatch is a small square; the three data bars of North are the tall ones.
    const north = rects(doc, '4472C4').filter((r) => r.height > 10);
    expect(north).toHaveLength(3);
    const [spring, summer, autumn] = north.sort((a, b) => a.x - b.x) as [RectItem, RectItem, RectItem];
    expect(summer.height / spring.height).toBeCloseTo(2, 2);
    expect(autumn.height / spring.height).toBeCloseTo(4, 2);
    // Bars stand on one baseline; South's are beside North's, lower.
    expect(spring.y + spring.height).toBeCloseTo(autumn.y + autumn.height, 3);
    const south = rects(doc, 'ED7D31').filter((r) => r.height > 10);
    expect(south).toHaveLength(3);
    expect(Math.min(...south.map((r) => r.x))).toBeGreaterThan(spring.x);
    // The paragraph after the chart is below it.
    const after = texts(doc).find((t) => t.text.startsWith('After'));
    expect(after?.y).toBeGreaterThan(spring.y + spring.height);
  });

  it('puts the chart text into the PDF as extractable text', async () => {
    const res = await convert(buildDocx(chartDocument(COLUMN_CHART)));
    expect(res.status).toBe(200);
    const [page] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(page).toContain('Quarterly Sales');
    expect(page).toContain('Summer');
    expect(page).toContain('South');
  });

  it('draws a pie chart as one slice per point, in the accent colours, with percent labels', async () => {
    const pie = chartPart(
      `<c:plotArea><c:pieChart><c:varyColors val="1"/>${series(0, 'Share', ['Alpha', 'Beta', 'Gamma'], [50, 25, 25])}<c:dLbls><c:showPercent val="1"/></c:dLbls><c:firstSliceAngle val="0"/></c:pieChart></c:plotArea><c:legend><c:legendPos val="r"/></c:legend>`,
    );
    const doc = await layout(readParts(chartDocument(pie)));
    const slices = (doc.pages[0]?.items ?? []).filter((i): i is PathItem => i.kind === 'path' && i.fill !== undefined);
    expect(slices.map((s) => s.fill)).toEqual(['4472C4', 'ED7D31', 'A5A5A5']);
    const words = texts(doc).map((t) => t.text);
    expect(words).toEqual(expect.arrayContaining(['Share', 'Alpha', 'Beta', 'Gamma', '50%', '25%']));
  });

  it('reads Strict charts and the secondary axis of a combo chart', async () => {
    const strict = chartPart(
      `<c:plotArea><c:barChart><c:barDir val="col"/>${series(0, 'Units', ['A', 'B'], [1, 2])}<c:axId val="1"/><c:axId val="2"/></c:barChart><c:lineChart>${series(1, 'Price', ['A', 'B'], [100, 300])}<c:axId val="3"/><c:axId val="4"/></c:lineChart>${AXES}<c:catAx><c:axId val="3"/><c:delete val="1"/><c:axPos val="b"/></c:catAx><c:valAx><c:axId val="4"/><c:scaling/><c:delete val="0"/><c:axPos val="r"/></c:valAx></c:plotArea>`,
    ).replace('http://schemas.openxmlformats.org/drawingml/2006/chart', 'http://purl.oclc.org/ooxml/drawingml/chart');
    const model = readParts(chartDocument(strict));
    const drawing = model.sections[0]?.blocks
      .flatMap((b) => (b.kind === 'paragraph' ? b.inlines : []))
      .find((i) => i.kind === 'drawing');
    expect(drawing?.kind === 'drawing' && drawing.drawing.kind === 'chart').toBe(true);
    if (drawing?.kind !== 'drawing' || drawing.drawing.kind !== 'chart') return;
    expect(drawing.drawing.chart.plots.map((p) => [p.type, p.secondary])).toEqual([
      ['bar', false],
      ['line', true],
    ]);
    const words = texts(await layout(model)).map((t) => t.text);
    // The secondary axis has ticks up to 300 and beyond; the primary up to 2.
    expect(words).toContain('300');
    expect(words).toContain('2');
  });

  it('leaves out a missing or malformed chart part with a warning, never failing', async () => {
    const missing = readParts(chartDocument(undefined));
    expect(missing.warnings.join(' ')).toMatch(/chart part word\/charts\/chart1.xml is missing/);
    const malformed = readParts(chartDocument('<c:chartSpace><c:chart>'));
    expect(malformed.warnings.join(' ')).toMatch(/chart/);
    const wrongRoot = readParts(chartDocument(`<?xml version="1.0"?><c:chartSpace ${CHART_NS}/>`));
    expect(wrongRoot.warnings.join(' ')).toMatch(/chart part cannot be read/);
    const res = await convert(buildDocx(chartDocument('<c:chartSpace><c:chart>')));
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('X-Quire-Warning-Count'))).toBeGreaterThan(0);
    const [page] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(page).toContain('After the chart.');
  });
});

const TEXT_BOX = (
  wrap: string,
  position = '<wp:positionH relativeFrom="column"><wp:posOffset>914400</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>',
) =>
  `<w:r><w:drawing><wp:anchor simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>${position}<wp:extent cx="1828800" cy="914400"/>${wrap}<wp:docPr id="2" name="Text Box 2"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="914400"/></a:xfrm><a:prstGeom prst="rect"/><a:solidFill><a:srgbClr val="FFFF00"/></a:solidFill><a:ln w="12700"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:ln></wps:spPr><wps:txbx><w:txbxContent>${paragraph('Inside the frame')}</w:txbxContent></wps:txbx><wps:bodyPr lIns="91440" tIns="45720" rIns="91440" bIns="45720" anchor="t"/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;

describe('shapes and text boxes', () => {
  it('draws a floating text box (wrapNone) at its position with its text inside the frame', async () => {
    const model = readParts({
      document: `<w:body><w:p><w:r><w:t>Anchor paragraph.</w:t></w:r>${TEXT_BOX('<wp:wrapNone/>')}</w:p>${paragraph('Next paragraph.')}</w:body>`,
    });
    const doc = await layout(model);
    const frame = (doc.pages[0]?.items ?? []).find((i): i is PathItem => i.kind === 'path' && i.fill === 'FFFF00');
    expect(frame?.stroke).toBe('FF0000');
    const corners = (frame?.commands ?? []).flatMap((c) => (c.op === 'Z' ? [] : [[c.x, c.y] as const]));
    const left = Math.min(...corners.map(([x]) => x));
    const top = Math.min(...corners.map(([, y]) => y));
    // 1 in from the column (72 pt margin + 72 pt), 2 × 1 in.
    expect(left).toBeCloseTo(144, 1);
    expect(Math.max(...corners.map(([x]) => x)) - left).toBeCloseTo(144, 1);
    const inside = texts(doc).find((t) => t.text.includes('Inside'));
    expect(inside).toBeDefined();
    if (!inside) return;
    expect(inside.x).toBeCloseTo(left + 7.2, 1);
    expect(inside.y).toBeGreaterThan(top);
    expect(inside.y).toBeLessThan(top + 72);
    // Floating without wrapping: the next paragraph is not pushed down by the box.
    const anchor = texts(doc).find((t) => t.text.startsWith('Anchor'));
    const next = texts(doc).find((t) => t.text.startsWith('Next'));
    expect((next?.y ?? 0) - (anchor?.y ?? 0)).toBeLessThan(30);
  });

  it('draws SmartArt from its pre-drawn diagramDrawing part', async () => {
    const dataType = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData';
    const drawingType = 'http://schemas.microsoft.com/office/2007/relationships/diagramDrawing';
    const data = `<?xml version="1.0"?><dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst/><dgm:extLst><a:ext uri="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:dataModelExt xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" relId="rIdDsp" minVer="http://schemas.openxmlformats.org/drawingml/2006/diagram"/></a:ext></dgm:extLst></dgm:dataModel>`;
    const box = (x: number, word: string) =>
      `<dsp:sp><dsp:spPr><a:xfrm><a:off x="${x}" y="0"/><a:ext cx="1270000" cy="635000"/></a:xfrm><a:prstGeom prst="roundRect"/><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill></dsp:spPr><dsp:txBody><a:bodyPr anchor="ctr"/><a:p><a:pPr algn="ctr"/><a:r><a:rPr sz="1800"/><a:t>${word}</a:t></a:r></a:p></dsp:txBody></dsp:sp>`;
    const drawing = `<?xml version="1.0"?><dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dsp:spTree><dsp:nvGrpSpPr/><dsp:grpSpPr/>${box(0, 'Plan')}${box(1905000, 'Build')}</dsp:spTree></dsp:drawing>`;
    const model = readParts({
      document: `<w:body><w:p><w:r><w:drawing><wp:inline><wp:extent cx="3175000" cy="635000"/><wp:docPr id="3" name="Diagram 3"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rIdData" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p></w:body>`,
      relationships: [
        { id: 'rIdData', type: dataType, target: 'diagrams/data1.xml' },
        { id: 'rIdDsp', type: drawingType, target: 'diagrams/drawing1.xml' },
      ],
      extraParts: { 'word/diagrams/data1.xml': data, 'word/diagrams/drawing1.xml': drawing },
    });
    const doc = await layout(model);
    const words = texts(doc).map((t) => t.text);
    expect(words).toEqual(['Plan', 'Build']);
    const boxes = (doc.pages[0]?.items ?? []).filter((i) => i.kind === 'path' && i.fill === '4472C4');
    expect(boxes).toHaveLength(2);
    // Centred in its 100 pt box.
    const plan = texts(doc)[0] as TextItem;
    expect(plan.x).toBeGreaterThan(72 + 10);
    expect(plan.x).toBeLessThan(72 + 50);
  });
});

describe('floating objects', () => {
  const picture = (wrap: string) =>
    `<w:r><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="1828800" cy="914400"/>${wrap}<wp:docPr id="4" name="Picture 4"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="4" name="p.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="914400"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;
  const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
  const parts = (wrap: string): DocxParts => ({
    document: `<w:body><w:p>${picture(wrap)}<w:r><w:t>${words}</w:t></w:r></w:p></w:body>`,
    relationships: [{ id: 'rIdImg', type: 'image', target: 'media/image1.png' }],
    extraParts: { 'word/media/image1.png': tinyPng(4, 2) },
  });

  it('shortens the lines beside a square-wrapped picture, and only those', async () => {
    const doc = await layout(readParts(parts('<wp:wrapSquare wrapText="bothSides"/>')));
    const image = (doc.pages[0]?.items ?? []).find((i) => i.kind === 'image');
    expect(image).toMatchObject({ x: 72, y: 72, width: 144, height: 72 });
    const lines = texts(doc).filter((t) => t.text.startsWith('word'));
    const beside = lines.filter((t) => t.y < 72 + 72);
    const below = lines.filter((t) => t.y > 72 + 72 + 12);
    expect(beside.length).toBeGreaterThan(2);
    expect(below.length).toBeGreaterThan(0);
    // Beside the picture, text starts right of it; below it, back at the margin.
    for (const line of beside) expect(line.x).toBeGreaterThanOrEqual(72 + 144 - 0.01);
    expect(Math.min(...below.map((t) => t.x))).toBeCloseTo(72, 1);
  });

  it('lets text come up to a tight wrap polygon rather than the bounding box', async () => {
    // A triangle whose wide side is at the bottom: at the top, text reaches past the box's right edge.
    const polygon =
      '<wp:wrapTight wrapText="right"><wp:wrapPolygon edited="0"><wp:start x="0" y="0"/><wp:lineTo x="2160" y="0"/><wp:lineTo x="21600" y="21600"/><wp:lineTo x="0" y="21600"/><wp:lineTo x="0" y="0"/></wp:wrapPolygon></wp:wrapTight>';
    const tight = await layout(readParts(parts(polygon)));
    const square = await layout(readParts(parts('<wp:wrapSquare wrapText="right"/>')));
    const firstX = (doc: LaidOutDocument) => texts(doc).find((t) => t.text.startsWith('word0'))?.x ?? 0;
    expect(firstX(square)).toBeGreaterThanOrEqual(72 + 144 - 0.01);
    expect(firstX(tight)).toBeLessThan(72 + 72);
  });

  it('moves a line that fits beside no object down to where the first of them ends', async () => {
    // A short picture in the middle of the column leaves more room on its left, which a tall one
    // fills: the first line goes under the short one, beside the tall one, not under both.
    const placed = (x: number, width: number, height: number) =>
      picture('<wp:wrapSquare wrapText="bothSides"/>')
        .replace(
          '<wp:posOffset>0</wp:posOffset></wp:positionH>',
          `<wp:posOffset>${x * 12700}</wp:posOffset></wp:positionH>`,
        )
        .replaceAll('cx="1828800" cy="914400"', `cx="${width * 12700}" cy="${height * 12700}"`);
    const doc = await layout(
      readParts({
        ...parts(''),
        document: `<w:body><w:p>${placed(160, 150, 36)}${placed(0, 150, 144)}<w:r><w:t>${words}</w:t></w:r></w:p></w:body>`,
      }),
    );
    const first = texts(doc).find((t) => t.text.startsWith('word0'));
    expect(first?.y).toBeGreaterThan(72 + 36);
    expect(first?.y).toBeLessThan(72 + 144);
    expect(first?.x).toBeGreaterThanOrEqual(72 + 150 - 0.01);
  });

  it('moves text below a top-and-bottom picture and lets wrapNone pictures float over it', async () => {
    const topAndBottom = await layout(readParts(parts('<wp:wrapTopAndBottom/>')));
    const first = texts(topAndBottom).find((t) => t.text.startsWith('word0'));
    expect(first?.y).toBeGreaterThan(72 + 72);
    expect(first?.x).toBeCloseTo(72, 1);
    const none = await layout(readParts(parts('<wp:wrapNone/>')));
    const over = texts(none).find((t) => t.text.startsWith('word0'));
    expect(over?.y).toBeLessThan(72 + 20);
    expect(over?.x).toBeCloseTo(72, 1);
  });
});

describe('absolutely positioned VML pictures', () => {
  // A page-sized watermark in a header, as Word writes it (w:pict, v:shape position:absolute):
  // read as an inline picture, it made the header taller than the page and the body never had room.
  const watermark = `<w:r><w:pict><v:shape id="WordPictureWatermark1" type="#_x0000_t75" style="position:absolute;left:0;text-align:left;margin-left:-28.35pt;margin-top:-71.1pt;width:595.35pt;height:845.35pt;z-index:-251658238;mso-position-horizontal-relative:margin;mso-position-vertical-relative:margin" o:allowincell="f"><v:imagedata r:id="rIdMark" o:title="Watermark"/><w10:wrap anchorx="margin" anchory="margin"/></v:shape></w:pict></w:r>`;
  const body = Array.from({ length: 20 }, (_, i) => paragraph(`Clause ${i} of the body text.`)).join('');
  const docx = (): DocxParts => ({
    document: `<w:body>${body}<w:sectPr><w:headerReference w:type="default" r:id="rIdH"/><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1418" w:right="567" w:bottom="1418" w:left="567" w:header="227" w:footer="680" w:gutter="0"/></w:sectPr></w:body>`,
    headers: { rIdH: `<w:p><w:r><w:t>Header</w:t></w:r>${watermark}</w:p>` },
    extraParts: {
      'word/media/mark.png': tinyPng(4, 4),
      'word/_rels/header1.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdMark" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/mark.png"/></Relationships>`,
    },
  });

  it('floats behind the text and takes no room in its line, so the body keeps its page', async () => {
    const doc = await layout(readParts(docx()));
    expect(doc.pages).toHaveLength(1);
    const clause = texts(doc).find((t) => t.text.startsWith('Clause'));
    // The body starts at the top margin (70.9 pt), not below an 845 pt tall header line.
    expect(clause?.y).toBeLessThan(100);
    const image = (doc.pages[0]?.items ?? []).find((i) => i.kind === 'image');
    // margin-left/top from the margins (28.35 pt left, 70.9 pt top), page-sized.
    expect(image).toMatchObject({ width: 595.35, height: 845.35 });
    expect(image?.x).toBeCloseTo(28.35 - 28.35, 1);
    expect(image?.y).toBeCloseTo(70.9 - 71.1, 1);
  });
});

describe('picture bullets', () => {
  it('draws a w:numPicBullet picture as the list label, sized to the text', async () => {
    const numbering = `<w:numPicBullet w:numPicBulletId="0"><w:pict><v:shape style="width:9pt;height:9pt" o:bullet="t"><v:imagedata r:id="rIdBullet" o:title=""/></v:shape></w:pict></w:numPicBullet><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val=""/><w:lvlPicBulletId w:val="0"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`;
    const docx = buildDocx({
      numbering,
      document: `<w:body>${paragraph('First item', { pPr: '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>' })}</w:body>`,
      extraParts: {
        'word/_rels/numbering.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdBullet" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/bullet.png"/></Relationships>`,
        'word/media/bullet.png': tinyPng(4, 4),
      },
    });
    const model = readDocx(docx, { revisions: 'markup', limits: DEFAULT_LIMITS });
    const [item] = paragraphs(model);
    expect(item?.label?.image).toMatchObject({ imageId: 'word/media/bullet.png', width: 9, height: 9 });
    const doc = await layout(model);
    const bullet = (doc.pages[0]?.items ?? []).find((i) => i.kind === 'image');
    const text = texts(doc).find((t) => t.text.startsWith('First'));
    expect(bullet).toBeDefined();
    if (bullet?.kind !== 'image' || !text) return;
    expect(bullet.x).toBeCloseTo(72 + 18, 1);
    expect(bullet.height).toBeLessThan(11);
    expect(bullet.width).toBeCloseTo(bullet.height, 3);
    expect(bullet.y + bullet.height).toBeCloseTo(text.y, 1);
  });
});

describe('VML shapes', () => {
  it('draws a VML text box at its absolute position, filled, with its text inside', async () => {
    const vml = `<w:r><w:pict><v:roundrect style="position:absolute;margin-left:36pt;margin-top:0;width:180pt;height:72pt;mso-position-horizontal-relative:margin;mso-position-vertical-relative:paragraph" fillcolor="#a7cae2" stroked="f"><v:textbox inset="14.4pt,,14.4pt"><w:txbxContent>${paragraph('VML box text')}</w:txbxContent></v:textbox></v:roundrect></w:pict></w:r>`;
    const doc = await layout(
      readParts({ document: `<w:body><w:p><w:r><w:t>Anchor.</w:t></w:r>${vml}</w:p></w:body>` }),
    );
    const box = (doc.pages[0]?.items ?? []).find((i): i is PathItem => i.kind === 'path' && i.fill === 'A7CAE2');
    expect(box?.stroke).toBeUndefined();
    const xs = (box?.commands ?? []).flatMap((c) => (c.op === 'Z' ? [] : [c.x]));
    expect(Math.min(...xs)).toBeCloseTo(72 + 36, 1);
    const inside = texts(doc).find((t) => t.text.includes('VML'));
    expect(inside?.x).toBeCloseTo(72 + 36 + 14.4, 1);
  });
});
