// What of a table cannot be placed as the document asks reaches the caller in X-Quire-Warnings,
// naming the table (its first words) and the row: nothing is cut or broken without a word.
import { describe, expect, it } from 'vitest';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { buildDocx, paragraph, tinyPng } from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';

const SECTION =
  '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>';

function tbl(rows: string[]): string {
  return `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="8000"/></w:tblGrid>${rows.join('')}</w:tbl>`;
}

function tr(content: string, trPr = ''): string {
  return `<w:tr>${trPr ? `<w:trPr>${trPr}</w:trPr>` : ''}<w:tc>${content}</w:tc></w:tr>`;
}

const lines = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => paragraph(`${prefix}${i}x`)).join('');

async function convert(body: string, extra: Parameters<typeof buildDocx>[0] = { document: '' }) {
  const docx = buildDocx({ ...extra, document: `<w:body>${body}<w:p/>${SECTION}</w:body>` });
  const form = new FormData();
  form.append('file', new File([docx as Uint8Array<ArrayBuffer>], 'warn.docx'));
  const res = await call('/v1/convert?from=docx&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
  expect(res.status).toBe(200);
  const warnings = decodeURIComponent(res.headers.get('X-Quire-Warnings') ?? '');
  return { warnings, pages: await pdfText(new Uint8Array(await res.arrayBuffer())) };
}

describe('table content that cannot be placed as asked is said in X-Quire-Warnings', () => {
  it('a cantSplit row taller than the page: split, every line kept, and said', async () => {
    const { warnings, pages } = await convert(
      tbl([tr(paragraph('Quarterly results')), tr(lines(90, 'tall'), '<w:cantSplit/>')]),
    );
    const text = pages.join(' ');
    for (let i = 0; i < 90; i++) expect(text).toContain(`tall${i}x`);
    expect(warnings).toContain(
      'The table beginning "Quarterly results", row 2: a row that may not break across pages (w:cantSplit)',
    );
  });

  it('a picture in a cell taller than the page: placed, cut at the foot, and said', async () => {
    const picture = `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="3048000" cy="12700000"/><wp:docPr id="1" name="tall"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="tall.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3048000" cy="12700000"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
    const { warnings, pages } = await convert(
      tbl([tr(paragraph('Site photos')), tr(picture)]) + paragraph('After the table.'),
      {
        document: '',
        relationships: [{ id: 'rIdImg', type: 'image', target: 'media/tall.png' }],
        extraParts: { 'word/media/tall.png': tinyPng(2, 8) },
      },
    );
    expect(pages.join(' ')).toContain('After the table.');
    expect(warnings).toContain('The table beginning "Site photos", row 2: content taller than the page');
  });

  it('an exact row height that cuts its content: drawn cut, as Word does, and said', async () => {
    const { warnings } = await convert(
      tbl([tr(paragraph('Invoice lines')), tr(lines(6, 'cut'), '<w:trHeight w:val="400" w:hRule="exact"/>')]),
    );
    expect(warnings).toContain(
      'The table beginning "Invoice lines", row 2: the row\'s exact height (w:hRule="exact") cuts off part of its content',
    );
  });

  it('an exact row height in a nested table: said of the outer row', async () => {
    const inner = `${tbl([tr(lines(6, 'deep'), '<w:trHeight w:val="400" w:hRule="exact"/>')])}<w:p/>`;
    const { warnings } = await convert(tbl([tr(paragraph('Outer first')), tr(inner)]));
    expect(warnings).toContain(
      'The table beginning "Outer first", row 2: a table nested in the row has a row whose exact height',
    );
  });

  it('says nothing of a long table whose rows split where they may', async () => {
    const { warnings } = await convert(tbl([tr(lines(120, 'plain'))]));
    expect(warnings).not.toContain('The table beginning');
  });
});
