import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readDocx } from '../../../../src/engine/read/ooxml/docx-reader';
import { ApiError } from '../../../../src/errors';
import { buildDocx, paragraph, zipParts } from '../../../helpers/docx-fixture';

const OPTIONS = {
  revisions: 'markup',
  limits: { inflatedBytes: 8 * 1024 * 1024, inflatedXmlBytes: 8 * 1024 * 1024 },
} as const;

function errorOf(bytes: Uint8Array, options: Parameters<typeof readDocx>[1] = OPTIONS): ApiError {
  try {
    readDocx(bytes, options);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError, but the document was read');
}

const good = () => buildDocx({ document: `<w:body>${paragraph('hello')}</w:body>` });

describe('bad input', () => {
  it('refuses bytes that are not a ZIP as not a DOCX (415)', () => {
    const error = errorOf(strToU8('%PDF-1.7 definitely not a zip'));
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(error.message).toMatch(/not a DOCX/);
  });

  it('refuses a truncated ZIP as a damaged document', () => {
    const bytes = good();
    const error = errorOf(bytes.subarray(0, bytes.length - 30));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toMatch(/archive is damaged/);
  });

  it('refuses a ZIP whose central directory is zeroed', () => {
    const bytes = good().slice();
    const view = new DataView(bytes.buffer);
    let end = bytes.length - 22;
    while (view.getUint32(end, true) !== 0x06054b50) end--;
    bytes.fill(0, view.getUint32(end + 16, true), end);
    expect(errorOf(bytes).code).toBe('INVALID_DOCUMENT');
  });

  it('refuses a ZIP without word/document.xml as not a Word document (415)', () => {
    const error = errorOf(zipParts({ 'readme.txt': 'hello', 'data/table.csv': 'a,b' }));
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(error.message).toMatch(/not a Word document/);
    const xlsx = errorOf(
      zipParts({
        '[Content_Types].xml':
          '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
        '_rels/.rels':
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        'xl/workbook.xml': '<workbook/>',
      }),
    );
    expect(xlsx.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(xlsx.message).toMatch(/Excel workbook/);
  });

  it('refuses word/document.xml without [Content_Types].xml as an invalid document', () => {
    const error = errorOf(buildDocx({ document: `<w:body>${paragraph('x')}</w:body>`, omit: ['[Content_Types].xml'] }));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toMatch(/\[Content_Types\]\.xml/);
  });

  it('reads word/document.xml when the package relationships do not name it', () => {
    const model = readDocx(
      buildDocx({ document: `<w:body>${paragraph('found')}</w:body>`, omit: ['_rels/.rels'] }),
      OPTIONS,
    );
    expect(model.sections[0]?.blocks).toHaveLength(1);
  });

  it('refuses a DOCTYPE (an entity bomb) in the main document', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&lol3;</w:t></w:r></w:p></w:body></w:document>`;
    const error = errorOf(buildDocx({ document: bomb }));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toMatch(/DTDs are not allowed/);
    expect(error.message).toMatch(/word\/document\.xml/);
  });

  it('refuses a DOCTYPE in an optional part too', () => {
    const error = errorOf(
      buildDocx({
        document: `<w:body>${paragraph('x')}</w:body>`,
        styles: '<?xml version="1.0"?><!DOCTYPE x []><w:styles/>',
      }),
    );
    expect(error.message).toMatch(/styles\.xml contains a DOCTYPE/);
  });

  it('refuses a part that inflates beyond the cap (a ZIP bomb), whatever its directory claims', () => {
    const big = `<w:body><w:p><w:r><w:t>${'A'.repeat(3_000_000)}</w:t></w:r></w:p></w:body>`;
    const bytes = buildDocx({ document: big });
    const small = {
      revisions: 'markup',
      limits: { inflatedBytes: 1024 * 1024, inflatedXmlBytes: 1024 * 1024 },
    } as const;
    const error = errorOf(bytes, small);
    expect(error.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toMatch(/expand to more than 1 MiB/);
    expect(error.message).toMatch(/ZIP bomb/);

    // The same part with its declared size forged small: caught while inflating.
    const forged = bytes.slice();
    const view = new DataView(forged.buffer);
    for (let at = 0; at < forged.length - 46; at++) {
      if (view.getUint32(at, true) !== 0x02014b50) continue;
      const nameLength = view.getUint16(at + 28, true);
      const name = new TextDecoder().decode(forged.subarray(at + 46, at + 46 + nameLength));
      if (name === 'word/document.xml') view.setUint32(at + 24, 1000, true);
    }
    const forgedError = errorOf(forged, small);
    expect(forgedError.code).toMatch(/^(INVALID_DOCUMENT|DOCUMENT_TOO_COMPLEX)$/);
    expect(forgedError.message).toMatch(/ZIP bomb|more bytes than the ZIP directory declares/);
  });

  it('names the part and the problem for malformed XML in the main document', () => {
    const error = errorOf(buildDocx({ document: '<w:body><w:p><w:r><w:t>unclosed</w:r></w:p></w:body>' }));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toMatch(/word\/document\.xml is not well-formed XML/);
    expect(error.message).toMatch(/\d+:\d+/);
  });

  it('refuses an undefined entity as malformed XML', () => {
    const error = errorOf(buildDocx({ document: '<w:body><w:p><w:r><w:t>&nbsp;</w:t></w:r></w:p></w:body>' }));
    expect(error.message).toMatch(/not well-formed XML/);
  });

  it('refuses a main document that is not WordprocessingML', () => {
    const error = errorOf(buildDocx({ document: '<?xml version="1.0"?><html><body/></html>' }));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toMatch(/not a WordprocessingML document/);
  });

  it('falls back to defaults, with warnings, when optional parts are malformed', () => {
    const model = readDocx(
      buildDocx({
        document: `<w:body>${paragraph('still read')}</w:body>`,
        styles: '<w:style><unclosed>',
        numbering: '<?xml version="1.0"?><w:numbering><w:num',
        settings: '<?xml version="1.0"?>not xml at all',
      }),
      OPTIONS,
    );
    expect(model.sections[0]?.blocks).toHaveLength(1);
    const warnings = model.warnings.join('\n');
    expect(warnings).toMatch(/styles\.xml is not well-formed XML/);
    expect(warnings).toMatch(/numbering\.xml is not well-formed XML/);
    expect(warnings).toMatch(/settings\.xml is not well-formed XML/);
  });

  it('refuses elements nested without bound', () => {
    const deep = `${'<w:sdt><w:sdtContent>'.repeat(400)}${'</w:sdtContent></w:sdt>'.repeat(400)}`;
    const error = errorOf(buildDocx({ document: `<w:body>${deep}</w:body>` }));
    expect(error.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toMatch(/nests elements more than/);
  });

  it('never throws anything but ApiError on garbage inside a ZIP', () => {
    const seeds = [
      zipSync({ 'word/document.xml': new Uint8Array([0xff, 0xfe, 0, 0, 1, 2, 3]) }),
      zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': strToU8('') }),
      zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': strToU8('<w:document/>') }),
    ];
    for (const bytes of seeds) expect(errorOf(bytes)).toBeInstanceOf(ApiError);
  });
});
