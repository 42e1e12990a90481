import { strFromU8, unzipSync } from 'fflate';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { xmlChars } from '../../../src/engine/write/docx/xml-escape';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { buildDocx } from '../../helpers/docx-fixture';
import { toBase64 } from '../input/helpers';

/**
 * Issue 20: text from a request that XML 1.0 (§2.2 Char) cannot hold must never reach a part as
 * is. Every control but tab/LF/CR, U+FFFE, U+FFFF and lone surrogates, in every kind of field;
 * each part of the answer must then pass a strict XML parser.
 */

/** U+0000–U+001F other than tab, LF, CR; U+FFFE, U+FFFF. */
const DROPPED = [
  ...Array.from({ length: 0x20 }, (_, code) => code).filter((code) => code !== 0x09 && code !== 0x0a && code !== 0x0d),
  0xfffe,
  0xffff,
]
  .map((code) => String.fromCharCode(code))
  .join('');
const LONE = '\ud800x\udc00';

/** Throws on anything that is not well-formed namespace-aware XML 1.0 (saxes is strict). */
function expectWellFormed(xml: string, name: string): void {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let failure: string | undefined;
  parser.on('error', (error) => {
    failure ??= error.message;
  });
  parser.write(xml).close();
  expect(failure, name).toBeUndefined();
}

function xmlParts(bytes: Uint8Array): Record<string, string> {
  const parts = unzipSync(bytes);
  return Object.fromEntries(
    Object.entries(parts)
      .filter(([name]) => name.endsWith('.xml') || name.endsWith('.rels'))
      .map(([name, data]) => [name, strFromU8(data)]),
  );
}

/** The text of the w:t elements of a part, tabs and breaks as \t and \n. */
function visibleText(xml: string): string {
  return [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>|<w:(tab|br)\/>|<\/w:p>/g)]
    .map((match) => (match[2] === 'tab' ? '\t' : match[2] === 'br' ? '\n' : match[0] === '</w:p>' ? '¶' : match[1]))
    .join('')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

describe('xmlChars (XML 1.0 §2.2 Char)', () => {
  it('drops C0 controls and U+FFFE/U+FFFF, makes lone surrogates U+FFFD, keeps everything else', () => {
    expect(xmlChars(`a${DROPPED}b`)).toBe('ab');
    expect(xmlChars(LONE)).toBe('\ufffdx\ufffd');
    expect(xmlChars('\udc00\ud800')).toBe('\ufffd\ufffd');
    const clean = 'tab\t lf\n cr\r é \u0080 \ud7ff \ue000 \ufffd 😀 \u{10fffd} \ufdd0';
    expect(xmlChars(clean)).toBe(clean);
    expect(xmlChars(`😀${DROPPED}😀`)).toBe('😀😀');
  });

  it('is linear: 4 MB of text with a control every other character', () => {
    const text = 'a\u0001'.repeat(2_000_000);
    const started = Date.now();
    expect(xmlChars(text)).toBe('a'.repeat(2_000_000));
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('POST /v1/annotate with characters XML cannot hold', () => {
  const control = (tag: string, content: string, properties = '') =>
    `<w:sdt><w:sdtPr><w:tag w:val="${tag}"/>${properties}</w:sdtPr><w:sdtContent>${content}</w:sdtContent></w:sdt>`;
  const cell = (text: string) =>
    `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;

  function template(): Uint8Array {
    return buildDocx({
      document: `<w:body>
        <w:p><w:r><w:t xml:space="preserve">Dear {{name}}.</w:t></w:r></w:p>
        <w:tbl><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid><w:tr>${cell('{{rows}}')}${cell('')}</w:tr></w:tbl>
        <w:p><w:r><w:t>{{signer}}</w:t></w:r></w:p>
        <w:p>${control('bound', '<w:r><w:t>old</w:t></w:r>', `<w:dataBinding w:prefixMappings="xmlns:ns0='urn:x'" w:xpath="/ns0:root[1]/ns0:name[1]" w:storeItemID="{ABC-1}"/>`)}</w:p>
        <w:p>${control('attr', '<w:r><w:t>old</w:t></w:r>', `<w:dataBinding w:prefixMappings="xmlns:ns0='urn:x'" w:xpath="/ns0:root[1]/@code" w:storeItemID="{ABC-1}"/>`)}</w:p>
        <w:p>${control('agree', '<w:r><w:t>☐</w:t></w:r>', '<w14:checkbox><w14:checked w14:val="0"/><w14:checkedState w14:val="1" w14:font="MS Gothic"/><w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/></w14:checkbox>')}</w:p>
      </w:body>`,
      relationships: [
        {
          id: 'rIdC',
          type: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml',
          target: '../customXml/item1.xml',
        },
      ],
      extraParts: {
        'customXml/item1.xml': '<?xml version="1.0"?><root xmlns="urn:x" code="c"><name>old</name></root>',
        'customXml/itemProps1.xml':
          '<?xml version="1.0"?><ds:datastoreItem ds:itemID="{abc-1}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"/>',
        'customXml/_rels/item1.xml.rels':
          '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps" Target="itemProps1.xml"/></Relationships>',
      },
    });
  }

  it('text, table cells, a signature name, a data-bound control and its attribute: every part well-formed, the rest of the text kept', async () => {
    const dirty = (text: string) => `${text.slice(0, 1)}${DROPPED}${text.slice(1)}`;
    const res = await call(
      '/v1/annotate',
      withKey(await mintKey(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          document: { base64: toBase64(template()) },
          fields: [
            { id: 'name', type: 'text', value: `${dirty('Ada & <Lovelace>')} 😀${LONE}` },
            {
              id: 'rows',
              type: 'table',
              value: [
                [dirty('one'), dirty('two')],
                [DROPPED, dirty('four\tfive')],
              ],
            },
            { id: 'signer', type: 'signature', value: dirty('Grace Hopper') },
            { id: 'bound', type: 'text', value: dirty('Bound value') },
            { id: 'attr', type: 'text', value: dirty('Attribute value') },
            { id: 'agree', type: 'checkbox', value: true },
          ],
        }),
      }),
    );
    expect(res.status).toBe(200);
    const { document } = (await res.json()) as { document: { base64: string } };
    const bytes = Uint8Array.from(atob(document.base64), (c) => c.charCodeAt(0));
    const parts = xmlParts(bytes);
    for (const [name, xml] of Object.entries(parts)) expectWellFormed(xml, name);

    const body = visibleText(parts['word/document.xml'] as string);
    expect(body).toContain('Dear Ada & <Lovelace> 😀\ufffdx\ufffd.¶');
    expect(body).toContain('one¶two¶¶four\tfive¶');
    expect(body.match(/Grace Hopper/g)).toHaveLength(2);
    expect(body).toContain('Bound value');
    expect(body).toContain('Attribute value');
    // The checked state names U+0001: Word's default ☒ is shown instead of nothing.
    expect(body).toContain('☒');
    const item = parts['customXml/item1.xml'] as string;
    expect(item).toContain('<name>Bound value</name>');
    expect(item).toContain('code="Attribute value"');
  });
});

describe('POST /v1/convert md/html → docx with characters XML cannot hold', () => {
  // Not NUL (the sniffer takes a NUL byte for binary data), nor form feed (whitespace in HTML and
  // CommonMark: it becomes a space, rightly).
  const controls = DROPPED.replace('\u0000', '').replace('\f', '');

  it.each([
    [
      'md',
      `---\ntitle: T${controls}itle\n---\n\n# Hea${controls}ding\n\nSome t${controls}ext and [a li${controls}nk](https://example.com/x).\n\n| A${controls} | B |\n|---|---|\n| c${controls}ell | d |\n`,
    ],
    [
      'html',
      `<!doctype html><title>T${controls}itle</title><h1>Hea${controls}ding</h1><p>Some t${controls}ext and <a href="https://example.com/${controls}x" title="a${controls}b">a li${controls}nk</a>.</p><img alt="al${controls}t" src="data:,"><table><tr><td>c${controls}ell</td></tr></table>`,
    ],
  ])('%s: every part well-formed, the text kept', async (from, source) => {
    const form = new FormData();
    form.append('file', new File([new TextEncoder().encode(source)], `doc.${from}`));
    const res = await call(
      `/v1/convert?from=${from}&to=docx`,
      withKey(await mintKey(), { method: 'POST', body: form }),
    );
    expect(res.status).toBe(200);
    const parts = xmlParts(new Uint8Array(await res.arrayBuffer()));
    for (const [name, xml] of Object.entries(parts)) expectWellFormed(xml, name);
    const body = visibleText(parts['word/document.xml'] as string);
    for (const word of ['Heading', 'Some text', 'a link', 'cell']) expect(body).toContain(word);
    // (The HTML reader collapses the title's JavaScript \s, vertical tab included, to a space.)
    expect(parts['docProps/core.xml']).toMatch(/<dc:title>T ?itle<\/dc:title>/);
  });
});
