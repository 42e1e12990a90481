#!/usr/bin/env node
// `node scripts/make-examples.mjs`: writes the sample files of examples/ (committed; this script
// is how they were made, so anyone can change and remake them). Small documents the project owns,
// for the README's curl examples (`npm run examples` runs them): a contract DOCX, a template with
// fields, a Markdown note, an HTML page and a logo.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { root } from './local-setup.mjs';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const W14 = 'http://schemas.microsoft.com/office/word/2010/wordml';
const escapeXml = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const run = (text, rPr = '') =>
  `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
const paragraph = (content, pPr = '') => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${content}</w:p>`;
const text = (words, pPr = '') => paragraph(run(words), pPr);
const heading = (words, level = 1) => text(words, `<w:pStyle w:val="Heading${level}"/>`);
const cell = (content, width) =>
  `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr>${content.startsWith('<w:p') ? content : text(content)}</w:tc>`;
const BORDERS = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV']
  .map((side) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="808080"/>`)
  .join('');
const table = (widths, rows) =>
  `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblBorders>${BORDERS}</w:tblBorders></w:tblPr><w:tblGrid>${widths
    .map((w) => `<w:gridCol w:w="${w}"/>`)
    .join(
      '',
    )}</w:tblGrid>${rows.map((cells) => `<w:tr>${cells.map((c, i) => cell(c, widths[i])).join('')}</w:tr>`).join('')}</w:tbl>`;
const SECTION =
  '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>';

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${W}">
<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:cs="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:rFonts w:ascii="Cambria" w:hAnsi="Cambria"/><w:sz w:val="48"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="80"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:color w:val="2F5496"/><w:sz w:val="28"/></w:rPr></w:style>
</w:styles>`;

function docx(body, title) {
  const files = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    'word/_rels/document.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    'word/styles.xml': STYLES,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${W}" xmlns:r="${R}" xmlns:w14="${W14}"><w:body>${body}${SECTION}</w:body></w:document>`,
    'docProps/core.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>${escapeXml(title)}</dc:title><dc:creator>Quire examples</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">2026-01-15T09:00:00Z</dcterms:created></cp:coreProperties>`,
  };
  // A fixed modification time keeps the bytes the same from one run of this script to the next.
  const mtime = new Date('2026-01-15T09:00:00Z');
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, xml]) => [name, [strToU8(xml), { mtime }]])));
}

/** A run-level content control (ECMA-376 §17.5.2) tagged `tag`, showing `shown`. */
const control = (tag, shown, extra = '') =>
  `<w:sdt><w:sdtPr><w:tag w:val="${tag}"/>${extra}</w:sdtPr><w:sdtContent>${run(shown)}</w:sdtContent></w:sdt>`;
const checkbox = (tag) =>
  `<w:sdt><w:sdtPr><w:tag w:val="${tag}"/><w14:checkbox><w14:checked w14:val="0"/><w14:checkedState w14:val="2612" w14:font="MS Gothic"/><w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/></w14:checkbox></w:sdtPr><w:sdtContent>${run('☐', '<w:rFonts w:ascii="MS Gothic" w:hAnsi="MS Gothic"/>')}</w:sdtContent></w:sdt>`;

const contract = docx(
  [
    text('Services Agreement', '<w:pStyle w:val="Title"/>'),
    text(
      'This agreement is made on 15 January 2026 between Example Analytical Engines Ltd ("the Supplier") and the Customer named below.',
    ),
    heading('1. Services'),
    text(
      'The Supplier provides the services listed in the schedule, with the care and skill of a competent provider, and keeps the Customer informed of their progress.',
    ),
    table(
      [4680, 2340, 2340],
      [
        [paragraph(run('Service', '<w:b/>')), paragraph(run('Quantity', '<w:b/>')), paragraph(run('Price', '<w:b/>'))],
        ['Difference engine maintenance', '12 months', '9,000.00'],
        ['Punched cards', '200', '250.00'],
      ],
    ),
    heading('2. Payment'),
    text(
      'The Customer pays each invoice within thirty days of receiving it. Late payments bear interest at the statutory rate.',
    ),
    heading('3. Term'),
    text(
      'The agreement runs for twelve months from its date and renews for a further twelve months unless either party ends it by notice in writing.',
    ),
    text('Signed for the Supplier: Charles Babbage'),
  ].join(''),
  'Services Agreement',
);

const template = docx(
  [
    text('Offer', '<w:pStyle w:val="Title"/>'),
    paragraph(`${run('Dear ')}${control('customer_name', 'Customer name')}${run(',')}`),
    text('Thank you for your enquiry. We are pleased to offer the following:'),
    `<w:sdt><w:sdtPr><w:tag w:val="items"/></w:sdtPr><w:sdtContent>${table(
      [6240, 3120],
      [
        [paragraph(run('Item', '<w:b/>')), paragraph(run('Quantity', '<w:b/>'))],
        ['{{item}}', '{{quantity}}'],
      ],
    )}</w:sdtContent></w:sdt>`,
    paragraph(`${run('Total: {{total}} EUR')}`),
    paragraph(`${checkbox('accepted')}${run(' Offer accepted')}`),
    paragraph(`${run('Signature: ')}${control('signature', 'sign here')}`),
    paragraph(`${control('logo', '[logo]')}`),
  ].join(''),
  'Offer template',
);

const markdown = `# Release notes

Quire converts **Markdown** to DOCX and PDF, with tables, lists and footnotes[^1].

| Format | From | To |
|---|---|---|
| DOCX | yes | yes |
| Markdown | yes | no |

- [x] Tables sized from their content
- [ ] Merge

[^1]: Footnotes are set at the foot of the page.
`;

const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Quarterly report</title>
<style>h1 { color: #2f5496 } td, th { border: 1px solid #999; padding: 4px }</style></head>
<body><h1>Quarterly report</h1>
<p>Revenue grew by <strong>12%</strong> over the quarter, driven by conversions at the edge.</p>
<table><tr><th>Quarter</th><th>Documents</th><th>Pages</th></tr>
<tr><td>Q1</td><td>1,204,331</td><td>9,870,112</td></tr>
<tr><td>Q2</td><td>1,512,908</td><td>12,006,450</td></tr></table>
<ol><li>Faster layout</li><li>More fonts</li></ol></body></html>
`;

// A 16×16 PNG of one blue: IHDR, one IDAT (zlib of the filtered rows), IEND.
const LOGO_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR42mPQD5lGEmIY1TCqYfhqAAD9MxkQhv1MRwAAAABJRU5ErkJggg==';

const out = join(root, 'examples');
writeFileSync(join(out, 'contract.docx'), contract);
writeFileSync(join(out, 'offer-template.docx'), template);
writeFileSync(join(out, 'release-notes.md'), markdown);
writeFileSync(join(out, 'report.html'), html);
writeFileSync(join(out, 'logo.png'), Buffer.from(LOGO_BASE64, 'base64'));
console.log(`examples written to ${out}`);
