import { strFromU8, strToU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { entryData, readZipDirectory } from '../../../src/engine/read/zip/zip-directory';
import { type AnnotateDeps, annotateDocx, discoverFields } from '../../../src/services/annotate/annotate-docx';
import type { AnnotateField } from '../../../src/services/annotate/annotate-types';
import { rejection } from '../../helpers/api';
import { buildDocx, zipParts } from '../../helpers/docx-fixture';

// A 1×1 PNG: the picture helper's loader is stubbed with it.
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

const deps: AnnotateDeps = {
  loadPicture: async () => ({ media: { bytes: PNG, extension: 'png', contentType: 'image/png' }, width: 1, height: 1 }),
  pictureXml: (p) =>
    `<w:drawing><wp:inline><wp:extent cx="${p.widthEmu}" cy="${p.heightEmu}"/><wp:docPr id="${p.docPrId}" name="${p.name}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="${p.relId}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>`,
  pictureExtentEmu: (_picture, _dimensions, placeholder) => placeholder ?? { widthEmu: 9525, heightEmu: 9525 },
  signatureTextRunsXml: (name, properties) => `<w:r>${properties ?? ''}<w:t>SIG:${name}</w:t></w:r>`,
  isImageValue: (value) => value.startsWith('data:image/') || value.startsWith('https://'),
};

const text = (id: string, value: string, keepTextNodeStyles = true): AnnotateField => ({
  id,
  type: 'text',
  value,
  options: { keepTextNodeStyles },
});

function part(bytes: Uint8Array, name: string): string {
  const file = unzipSync(bytes)[name];
  if (!file) throw new Error(`no ${name}`);
  return strFromU8(file);
}

/** The text of the w:t elements of each paragraph of a part. */
function paragraphs(xml: string): string[] {
  return [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((match) =>
    [...match[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => unescapeXml(t[1] ?? '')).join(''),
  );
}

function unescapeXml(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

async function fill(
  document: string,
  fields: AnnotateField[],
  extra: Parameters<typeof buildDocx>[0] = { document: '' },
) {
  return annotateDocx(buildDocx({ ...extra, document }), fields, deps);
}

describe('annotateDocx: placeholders', () => {
  it('fills {{name}} split over runs, proofing marks and bookmarks, every occurrence, keeping the first run formatting', async () => {
    const body = `<w:body>
      <w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Dear {</w:t></w:r><w:proofErr w:type="spellStart"/><w:r><w:t>{ na</w:t></w:r><w:bookmarkStart w:id="0" w:name="x"/><w:r><w:rPr><w:i/></w:rPr><w:t>me }</w:t></w:r><w:bookmarkEnd w:id="0"/><w:r><w:t>}, hi</w:t></w:r></w:p>
      <w:p><w:r><w:t>{{name}} and {{name}}</w:t></w:r></w:p>
    </w:body>`;
    const out = await fill(body, [text('name', 'Ada & <Bob>')]);
    const xml = part(out, 'word/document.xml');
    expect(paragraphs(xml)).toEqual(['Dear Ada & <Bob>, hi', 'Ada & <Bob> and Ada & <Bob>']);
    expect(xml).toContain('Ada &amp; &lt;Bob&gt;');
    // The value's run has the bold of the run that held the "{{".
    expect(xml).toMatch(/<w:r><w:rPr><w:b\/><\/w:rPr><w:t xml:space="preserve">Ada &amp;/);
    expect(xml).toContain('<w:bookmarkStart');
  });

  it('turns a line feed into a break and drops the formatting when keepTextNodeStyles is false', async () => {
    const out = await fill('<w:body><w:p><w:r><w:rPr><w:b/></w:rPr><w:t>{{a}}</w:t></w:r></w:p></w:body>', [
      text('a', 'one\ntwo', false),
    ]);
    const xml = part(out, 'word/document.xml');
    expect(xml).toContain('<w:r><w:t xml:space="preserve">one</w:t><w:br/><w:t xml:space="preserve">two</w:t></w:r>');
    expect(xml).not.toContain('<w:b/>');
  });

  it('fills placeholders in text boxes, both the mc:Choice and the mc:Fallback copies', async () => {
    const box = '<w:txbxContent><w:p><w:r><w:t>{{box}}</w:t></w:r></w:p></w:txbxContent>';
    const body = `<w:body><w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx>${box}</wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox>${box}</v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p></w:body>`;
    const xml = part(await fill(body, [text('box', 'BOXED')]), 'word/document.xml');
    expect(xml.match(/BOXED/g)).toHaveLength(2);
    expect(xml).not.toContain('{{');
  });
});

describe('annotateDocx: content controls', () => {
  let controlCount = 40;
  const control = (tag: string, content: string, properties = '') =>
    `<w:sdt><w:sdtPr><w:alias w:val="Alias"/><w:tag w:val='${tag}'/><w:id w:val="${++controlCount}"/>${properties}</w:sdtPr><w:sdtContent>${content}</w:sdtContent></w:sdt>`;

  it('replaces a control content, keeps its properties and drops showingPlcHdr', async () => {
    const body = `<w:body>${control('client', '<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:rPr><w:rStyle w:val="PlaceholderText"/><w:u w:val="single"/></w:rPr><w:t>Click here</w:t></w:r></w:p><w:p><w:r><w:t>more</w:t></w:r></w:p>', '<w:showingPlcHdr/><w:text/>')}</w:body>`;
    const xml = part(await fill(body, [text('client', 'ACME')]), 'word/document.xml');
    expect(xml).toContain('<w:alias w:val="Alias"/>');
    expect(xml).toContain('<w:text/>');
    expect(xml).not.toContain('showingPlcHdr');
    expect(xml).not.toContain('PlaceholderText');
    expect(xml).toContain('<w:jc w:val="center"/>');
    expect(xml).toContain('<w:u w:val="single"/>');
    expect(paragraphs(xml)).toEqual(['ACME']);
  });

  it('matches tag JSON (fieldId, id), w:id, and a group filling several controls', async () => {
    const body = `<w:body><w:p>${control('{"fieldId":"f1","fieldType":"TEXTINPUT","group":"g"}', '<w:r><w:t>a</w:t></w:r>')}</w:p>
      <w:p>${control('{"id":"f2","groupId":"g"}', '<w:r><w:t>b</w:t></w:r>')}</w:p>
      <w:p><w:sdt><w:sdtPr><w:tag w:val="plain"/><w:id w:val="plain-id"/></w:sdtPr><w:sdtContent><w:r><w:t>c</w:t></w:r></w:sdtContent></w:sdt></w:p></w:body>`;
    const out = await fill(body, [
      { group: 'g', type: 'text', value: 'G', options: { keepTextNodeStyles: true } },
      text('plain-id', 'by id'),
    ]);
    expect(paragraphs(part(out, 'word/document.xml'))).toEqual(['G', 'G', 'by id']);
    const found = discoverFields(buildDocx({ document: body }));
    expect(found.controls.map((c) => c.id)).toEqual(['f1', 'f2', 'plain']);
    expect(found.controls[0]?.groups).toEqual(['g']);
  });

  it('fills a control in a header and a placeholder in a footer', async () => {
    const out = await fill('<w:body><w:p/></w:body>', [text('head', 'HEAD'), text('foot', 'FOOT')], {
      document: '',
      headers: { rIdH1: `<w:p>${control('head', '<w:r><w:t>x</w:t></w:r>')}</w:p>` },
      footers: { rIdF1: '<w:p><w:r><w:t>Page {{ foot }}</w:t></w:r></w:p>' },
    });
    expect(paragraphs(part(out, 'word/header1.xml'))).toEqual(['HEAD']);
    expect(paragraphs(part(out, 'word/footer1.xml'))).toEqual(['Page FOOT']);
  });

  it('sets a checkbox: w14:checked and the checked glyph in its font', async () => {
    const box = `<w:body><w:p>${control('agree', '<w:r><w:rPr><w:rFonts w:ascii="MS Gothic" w:hAnsi="MS Gothic"/></w:rPr><w:t>☐</w:t></w:r>', '<w14:checkbox><w14:checked w14:val="0"/><w14:checkedState w14:val="2611" w14:font="Segoe UI Symbol"/><w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/></w14:checkbox>')}</w:p></w:body>`;
    const xml = part(await fill(box, [{ id: 'agree', type: 'checkbox', value: true }]), 'word/document.xml');
    expect(xml).toContain('<w14:checked w14:val="1"/>');
    expect(paragraphs(xml)).toEqual(['☑']);
    expect(xml).toContain('w:ascii="Segoe UI Symbol"');
  });

  it('places an image in a picture control at the size of its placeholder picture, with media, relationship and content type', async () => {
    const picture =
      '<w:r><w:drawing><wp:inline><wp:extent cx="1000000" cy="500000"/><wp:docPr id="7" name="old"/></wp:inline></w:drawing></w:r>';
    const body = `<w:body><w:p>${control('logo', picture, '<w:picture/>')}</w:p></w:body>`;
    const out = await fill(body, [{ id: 'logo', type: 'image', value: 'data:image/png;base64,x', options: {} }]);
    const files = unzipSync(out);
    const xml = part(out, 'word/document.xml');
    expect(xml).toContain('<wp:extent cx="1000000" cy="500000"/>');
    expect(xml).toContain('<wp:docPr id="8"');
    const relId = /r:embed="([^"]+)"/.exec(xml)?.[1];
    const rels = part(out, 'word/_rels/document.xml.rels');
    expect(rels).toContain(`Id="${relId}"`);
    expect(rels).toContain('Target="media/quire-image.png"');
    expect(files['word/media/quire-image.png']).toEqual(PNG);
    expect(part(out, '[Content_Types].xml')).toMatch(/Extension="png"/);
  });

  it('writes a text signature with the helper runs, and an image signature as a picture', async () => {
    const body = '<w:body><w:p><w:r><w:t>{{sig}}</w:t></w:r></w:p><w:p><w:r><w:t>{{pic}}</w:t></w:r></w:p></w:body>';
    const out = await fill(body, [
      { id: 'sig', type: 'signature', value: 'Ada Lovelace', options: {} },
      { id: 'pic', type: 'signature', value: 'data:image/png;base64,x', options: {} },
    ]);
    const xml = part(out, 'word/document.xml');
    expect(paragraphs(xml)[0]).toBe('SIG:Ada Lovelace');
    expect(xml).toContain('<w:drawing>');
  });
});

describe('annotateDocx: tables', () => {
  const row = (cells: string[], props = '<w:trPr><w:cantSplit/></w:trPr>') =>
    `<w:tr>${props}${cells.map((cell) => `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr><w:p><w:r><w:rPr><w:i/></w:rPr><w:t>${cell}</w:t></w:r></w:p></w:tc>`).join('')}</w:tr>`;

  it('replaces a placeholder row with 50 data rows copying its formatting', async () => {
    const body = `<w:body><w:tbl>${row(['Item', 'Price'], '')}${row(['{{items}}', ''])}</w:tbl><w:p/></w:body>`;
    const data = Array.from({ length: 50 }, (_, index) => [`item ${index}`, `${index}.00`]);
    const xml = part(
      await fill(body, [{ id: 'items', type: 'table', value: data, options: { copyRowStyle: true } }]),
      'word/document.xml',
    );
    expect(xml.match(/<w:tr>/g)).toHaveLength(51);
    expect(xml.match(/<w:cantSplit\/>/g)).toHaveLength(50);
    expect(xml.match(/<w:tcW w:w="2000" w:type="dxa"\/>/g)).toHaveLength(102);
    expect(xml).toContain('<w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">item 49</w:t></w:r>');
    expect(xml).not.toContain('{{');
  });

  it('fills the table inside a control, after its header row, without row style when asked', async () => {
    const body = `<w:body><w:sdt><w:sdtPr><w:tag w:val="lines"/></w:sdtPr><w:sdtContent><w:tbl>${row(['Item', 'Price'], '')}${row(['', ''])}</w:tbl></w:sdtContent></w:sdt></w:body>`;
    const xml = part(
      await fill(body, [
        {
          id: 'lines',
          type: 'table',
          value: [
            ['a', '1'],
            ['b', '2'],
          ],
          options: { copyRowStyle: false },
        },
      ]),
      'word/document.xml',
    );
    expect(paragraphs(xml)).toEqual(['Item', 'Price', 'a', '1', 'b', '2']);
    expect(xml).not.toContain('<w:cantSplit/>');
  });
});

describe('annotateDocx: row and cell controls', () => {
  const cell = (value: string) =>
    `<w:tc><w:tcPr><w:tcW w:w="1000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>${value}</w:t></w:r></w:p></w:tc>`;

  it('repeats a row-level control row inside the control, and fills a cell-level control', async () => {
    const body = `<w:body><w:tbl><w:tr>${cell('Head')}<w:sdt><w:sdtPr><w:tag w:val="who"/></w:sdtPr><w:sdtContent>${cell('x')}</w:sdtContent></w:sdt></w:tr>
      <w:sdt><w:sdtPr><w:tag w:val="rows"/></w:sdtPr><w:sdtContent><w:tr>${cell('template')}${cell('row')}</w:tr></w:sdtContent></w:sdt></w:tbl><w:p/></w:body>`;
    const xml = part(
      await fill(body, [
        {
          id: 'rows',
          type: 'table',
          value: [
            ['1', 'one'],
            ['2', 'two'],
          ],
          options: { copyRowStyle: true },
        },
        text('who', 'Cell'),
      ]),
      'word/document.xml',
    );
    expect(paragraphs(xml)).toEqual(['Head', 'Cell', '1', 'one', '2', 'two']);
    expect(xml).toMatch(/<w:tag w:val="rows"\/><\/w:sdtPr><w:sdtContent><w:tr>/);
    expect(xml.match(/<w:tcW w:w="1000" w:type="dxa"\/>/g)).toHaveLength(6);
  });
});

describe('annotateDocx: data binding', () => {
  it('writes the value into the bound custom XML node', async () => {
    const body = `<w:body><w:p><w:sdt><w:sdtPr><w:tag w:val="name"/><w:dataBinding w:prefixMappings="xmlns:ns0='urn:x'" w:xpath="/ns0:root[1]/ns0:name[1]" w:storeItemID="{ABC-1}"/></w:sdtPr><w:sdtContent><w:r><w:t>old</w:t></w:r></w:sdtContent></w:sdt></w:p></w:body>`;
    const out = await fill(body, [text('name', 'New Name')], {
      document: '',
      relationships: [
        {
          id: 'rIdC',
          type: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml',
          target: '../customXml/item1.xml',
        },
      ],
      extraParts: {
        'customXml/item1.xml': '<?xml version="1.0"?><root xmlns="urn:x"><name>old</name><other>keep</other></root>',
        'customXml/itemProps1.xml':
          '<?xml version="1.0"?><ds:datastoreItem ds:itemID="{abc-1}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"/>',
        'customXml/_rels/item1.xml.rels':
          '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps" Target="itemProps1.xml"/></Relationships>',
      },
    });
    expect(part(out, 'customXml/item1.xml')).toContain('<name>New Name</name><other>keep</other>');
    expect(paragraphs(part(out, 'word/document.xml'))).toEqual(['New Name']);
  });
});

describe('annotateDocx: the package and failures', () => {
  it('copies every entry the request does not touch byte for byte', async () => {
    const input = buildDocx({
      document: '<w:body><w:p><w:r><w:t>{{a}}</w:t></w:r></w:p></w:body>',
      styles: '<w:style w:type="paragraph" w:styleId="Normal"/>',
      headers: { rIdH: '<w:p><w:r><w:t>header</w:t></w:r></w:p>' },
      extraParts: { 'word/media/image9.png': PNG },
    });
    const out = await annotateDocx(input, [text('a', 'A')], deps);
    const before = new Map(readZipDirectory(input).map((entry) => [entry.name, entry]));
    const after = readZipDirectory(out);
    expect(after.map((entry) => entry.name).sort()).toEqual([...before.keys()].sort());
    for (const entry of after) {
      const original = before.get(entry.name);
      if (!original || entry.name === 'word/document.xml') continue;
      expect(entryData(out, entry), entry.name).toEqual(entryData(input, original));
      expect(entry.crc32).toBe(original.crc32);
    }
    expect(paragraphs(part(out, 'word/document.xml'))).toEqual(['A']);
  });

  it('lists every unmatched id and group in one FIELD_NOT_FOUND and fills nothing', async () => {
    const error = await rejection(
      fill('<w:body><w:p><w:r><w:t>{{a}}</w:t></w:r></w:p></w:body>', [
        text('a', 'A'),
        text('missing', 'x'),
        { group: 'nogroup', type: 'text', value: 'y', options: { keepTextNodeStyles: true } },
      ]),
    );
    expect(error.code).toBe('FIELD_NOT_FOUND');
    expect(error.details?.map((detail) => detail.field)).toEqual(['fields[1].id', 'fields[2].group']);
    expect(error.message).toContain('id "missing"');
    expect(error.message).toContain('group "nogroup"');
  });

  it('refuses a corrupt ZIP and a DOCTYPE with INVALID_DOCUMENT, a 10,000-deep part with DOCUMENT_TOO_COMPLEX', async () => {
    const good = buildDocx({ document: '<w:body><w:p/></w:body>' });
    const corrupt = good.slice(0, good.length - 30);
    expect((await rejection(annotateDocx(corrupt, [text('a', 'A')], deps))).code).toBe('INVALID_DOCUMENT');

    const doctype = buildDocx({
      document:
        '<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "aaaa">]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>{{a}}&a;</w:t></w:r></w:p></w:body></w:document>',
    });
    const refused = await rejection(annotateDocx(doctype, [text('a', 'A')], deps));
    expect(refused.code).toBe('INVALID_DOCUMENT');
    expect(refused.message).toMatch(/DOCTYPE|DTD/i);

    const deep = buildDocx({
      document: `<w:body><w:p><w:r><w:t>{{a}}</w:t></w:r></w:p>${'<w:sdt><w:sdtContent>'.repeat(10_000)}${'</w:sdtContent></w:sdt>'.repeat(10_000)}</w:body>`,
    });
    const tooDeep = await rejection(annotateDocx(deep, [text('a', 'A')], deps));
    expect(tooDeep.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(tooDeep.message).toContain('word/document.xml');
  });

  it('refuses a package that inflates past the budget (a ZIP bomb) before parsing it', async () => {
    const body = `<w:body><w:p><w:r><w:t>{{a}}</w:t></w:r></w:p>${'<w:p/>'.repeat(200_000)}</w:body>`;
    const error = await rejection(
      annotateDocx(buildDocx({ document: body }), [text('a', 'A')], deps, {
        limits: { inflatedBytes: 512 * 1024, inflatedXmlBytes: 512 * 1024 },
      }),
    );
    expect(error.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toMatch(/ZIP bomb/);
  });

  it('refuses a package without a main document', async () => {
    const error = await rejection(annotateDocx(zipParts({ 'a.txt': strToU8('x') }), [text('a', 'A')], deps));
    expect(error.code).toBe('INVALID_DOCUMENT');
  });
});
