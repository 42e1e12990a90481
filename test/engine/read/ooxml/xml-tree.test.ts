import { describe, expect, it } from 'vitest';
import { PartError } from '../../../../src/engine/read/ooxml/part-error';
import { DEFAULT_XML_LIMITS, parseXml, type XmlElement } from '../../../../src/engine/read/ooxml/xml-tree';

function plain(element: XmlElement): unknown {
  return {
    name: element.name,
    attributes: { ...element.attributes },
    text: element.text,
    children: element.children.map(plain),
  };
}

describe('the XML tree', () => {
  it('renames prefixes to the conventional ones by namespace URI (default namespaces and odd prefixes)', () => {
    const tree = parseXml(
      '<document xmlns="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:ns1="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><body><p><hyperlink ns1:id="rId1"><r><t>x</t></r></hyperlink></p></body></document>',
      'test.xml',
    );
    expect(tree.name).toBe('w:document');
    const hyperlink = tree.children[0]?.children[0]?.children[0];
    expect(hyperlink?.name).toBe('w:hyperlink');
    expect(hyperlink?.attributes).toEqual({ 'r:id': 'rId1' });
  });

  it('maps Strict namespaces to the same prefixes as Transitional', () => {
    const tree = parseXml(
      '<x:document xmlns:x="http://purl.oclc.org/ooxml/wordprocessingml/main"><x:body/></x:document>',
      'strict.xml',
    );
    expect(tree.name).toBe('w:document');
    expect(tree.children[0]?.name).toBe('w:body');
  });

  it('keeps text, decoding entities and CDATA, and drops whitespace-only text unless preserved', () => {
    const tree = parseXml(
      '<?xml version="1.0"?>\r\n<!-- comment --><a>\n  <b>&lt;x&gt; &amp; &#233;&#x4E2D;</b>\n  <c xml:space="preserve">  </c><d><![CDATA[<raw>]]></d><e attr="a&quot;b&#10;c\td"/></a>',
      'text.xml',
    );
    expect(plain(tree)).toEqual({
      name: 'a',
      attributes: {},
      text: '',
      children: [
        { name: 'b', attributes: {}, text: '<x> & é中', children: [] },
        { name: 'c', attributes: { 'xml:space': 'preserve' }, text: '  ', children: [] },
        { name: 'd', attributes: {}, text: '<raw>', children: [] },
        // A literal tab reads as a space (XML 1.0 §3.3.3); a character reference stays what it says.
        { name: 'e', attributes: { attr: 'a"b\nc d' }, text: '', children: [] },
      ],
    });
  });

  it('builds the same tree with the fast scanner as with saxes', () => {
    // Single quotes and spaces around "=" are legal; the scanner reads them, and a tab inside a tag.
    const xml = `<r:root xmlns:r="urn:x"><r:item a = 'one' b="two"\t/><r:item>t</r:item ></r:root>`;
    const tree = parseXml(xml, 'quotes.xml');
    expect(plain(tree)).toEqual({
      name: 'r:root',
      attributes: { 'xmlns:r': 'urn:x' },
      text: '',
      children: [
        { name: 'r:item', attributes: { a: 'one', b: 'two' }, text: '', children: [] },
        { name: 'r:item', attributes: {}, text: 't', children: [] },
      ],
    });
  });

  it('reads part bytes: a UTF-8 byte order mark, U+FEFF inside text, non-ASCII text and values, UTF-16', () => {
    const xml = '<a v="Ünïcödé wërt"><b>\uFEFFКомитет &amp; связи</b><c>x</c></a>';
    const utf8 = new TextEncoder().encode(`\uFEFF${xml}`);
    const expected = {
      name: 'a',
      attributes: { v: 'Ünïcödé wërt' },
      text: '',
      children: [
        { name: 'b', attributes: {}, text: '\uFEFFКомитет & связи', children: [] },
        { name: 'c', attributes: {}, text: 'x', children: [] },
      ],
    };
    expect(plain(parseXml(utf8, 'utf8.xml'))).toEqual(expected);
    const utf16 = new Uint8Array(2 + xml.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < xml.length; i++) {
      utf16[2 + 2 * i] = xml.charCodeAt(i) & 0xff;
      utf16[3 + 2 * i] = xml.charCodeAt(i) >> 8;
    }
    expect(plain(parseXml(utf16, 'utf16.xml'))).toEqual(expected);
  });

  it('reads non-ASCII names (through saxes) into the same tree', () => {
    const tree = parseXml(new TextEncoder().encode('<wurzel><größe wert="1">a</größe></wurzel>'), 'names.xml');
    expect(plain(tree)).toEqual({
      name: 'wurzel',
      attributes: {},
      text: '',
      children: [{ name: 'größe', attributes: { wert: '1' }, text: 'a', children: [] }],
    });
  });

  it('refuses a DOCTYPE as fatal, and malformed XML with its position', () => {
    const doctype = () => parseXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', 'dtd.xml');
    expect(doctype).toThrow(PartError);
    expect(doctype).toThrow(/DTDs are not allowed/);
    try {
      parseXml('<a><b></a>', 'broken.xml');
      throw new Error('not refused');
    } catch (error) {
      expect(error).toBeInstanceOf(PartError);
      expect((error as PartError).fatal).toBe(false);
      expect((error as PartError).message).toMatch(/broken\.xml is not well-formed XML \(.*1:\d+/);
    }
  });

  it('reads a repeated start tag the same each time: a ">" in a value, inside and outside an ignored element', () => {
    const xml =
      '<a><b v="x>y" w="1"/><b v="x>y" w="1"/><skip><c k="1"/><c k="1"/></skip><c k="1"/><c k="1"/>' +
      '<d xmlns:p="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><p:e/></d><p:e/></a>';
    const tree = parseXml(xml, 'repeat.xml', { ...DEFAULT_XML_LIMITS, ignoreElements: new Set(['skip']) });
    expect(tree.children.map((element) => [element.name, { ...element.attributes }])).toEqual([
      ['b', { v: 'x>y', w: '1' }],
      ['b', { v: 'x>y', w: '1' }],
      ['c', { k: '1' }],
      ['c', { k: '1' }],
      ['d', { 'xmlns:p': 'http://schemas.openxmlformats.org/wordprocessingml/2006/main' }],
      ['p:e', {}],
    ]);
    // The same tag bytes under another prefix binding read under that binding.
    expect(tree.children[4]?.children[0]?.name).toBe('w:e');
    // A repeated tag is still checked where its bytes differ: an unquoted value is refused.
    expect(() => parseXml('<a><c k="1"/><c k=1/></a>', 'broken.xml')).toThrow(PartError);
  });

  it('bounds the element count', () => {
    expect(() =>
      parseXml(`<a>${'<b/>'.repeat(20)}</a>`, 'many.xml', { ...DEFAULT_XML_LIMITS, maxElements: 10 }),
    ).toThrow(/more than 10 elements/);
  });

  it('leaves out ignored elements and attributes', () => {
    const tree = parseXml('<a w:rsidR="1" keep="2"><skip><inner/></skip><b/></a>', 'ignore.xml', {
      ...DEFAULT_XML_LIMITS,
      ignoreElements: new Set(['skip']),
      ignoreAttribute: (name) => name.startsWith('w:rsid'),
    });
    expect(plain(tree)).toEqual({
      name: 'a',
      attributes: { keep: '2' },
      text: '',
      children: [{ name: 'b', attributes: {}, text: '', children: [] }],
    });
  });

  it('leaves out ignored elements with attributes, nested ones too, and reads on after them', () => {
    const xml = '<a><skip x="1" y="2"><inner z="3"/><inner z="4"/></skip><b v="5"/><skip x="6"/><b v="7"/></a>';
    const tree = parseXml(xml, 'ignore.xml', { ...DEFAULT_XML_LIMITS, ignoreElements: new Set(['skip']) });
    expect(tree.children.map(plain)).toEqual([
      { name: 'b', attributes: { v: '5' }, text: '', children: [] },
      { name: 'b', attributes: { v: '7' }, text: '', children: [] },
    ]);
    // Still well-formed XML only: a broken tag inside an ignored element is refused.
    expect(() =>
      parseXml('<a><skip><inner z=3/></skip></a>', 'broken.xml', {
        ...DEFAULT_XML_LIMITS,
        ignoreElements: new Set(['skip']),
      }),
    ).toThrow();
  });

  it('hands over the children of a streamed element as they close, and lets go of them', () => {
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const xml = `<w:document xmlns:w="${W}"><w:body><w:p><w:r/></w:p><w:tbl/><w:sectPr/></w:body><w:p/></w:document>`;
    const taken: string[] = [];
    const tree = parseXml(xml, 'document.xml', {
      ...DEFAULT_XML_LIMITS,
      stream: {
        path: ['w:document', 'w:body'],
        take: (element) => {
          taken.push(`${element.name}:${element.children.length}`);
          return element.name !== 'w:sectPr';
        },
        restart: () => taken.splice(0),
      },
    });
    // Whole subtrees, in order; only the body's children (not the w:p outside it).
    expect(taken).toEqual(['w:p:1', 'w:tbl:0', 'w:sectPr:0']);
    // What was taken is gone from the tree; what was declined stays.
    expect(plain(tree)).toMatchObject({
      children: [{ name: 'w:body', children: [{ name: 'w:sectPr' }] }, { name: 'w:p' }],
    });
  });

  it('restarts a stream when saxes reads the part again, and carries a take error out unchanged', () => {
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    // The fast scanner takes the first paragraph, then refuses the non-ASCII name; saxes reads it all.
    const xml = `<w:document xmlns:w="${W}"><w:body><w:p/><größe/><w:p/></w:body></w:document>`;
    let restarts = 0;
    const taken: string[] = [];
    parseXml(new TextEncoder().encode(xml), 'document.xml', {
      ...DEFAULT_XML_LIMITS,
      stream: {
        path: ['w:document', 'w:body'],
        take: (element) => {
          taken.push(element.name);
          return true;
        },
        restart: () => {
          restarts++;
          taken.splice(0);
        },
      },
    });
    expect(restarts).toBe(1);
    expect(taken).toEqual(['w:p', 'größe', 'w:p']);
    const failure = new Error('the reader refused this paragraph');
    expect(() =>
      parseXml(xml, 'document.xml', {
        ...DEFAULT_XML_LIMITS,
        stream: {
          path: ['w:document', 'w:body'],
          take: () => {
            throw failure;
          },
          restart: () => {},
        },
      }),
    ).toThrow(failure);
  });

  it('shares repeated subtrees of the elements named, only where their bytes read the same', () => {
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const rPr = '<w:rPr><w:b/><w:sz w:val="28"/></w:rPr>';
    const spaced = '<w:rPr><w:t> </w:t></w:rPr>';
    const xml =
      `<w:document xmlns:w="${W}"><w:r>${rPr}</w:r><w:r>${rPr}</w:r>` +
      // Different bytes; whitespace text read under xml:space="preserve" and outside it; another prefix binding.
      `<w:r><w:rPr><w:b/></w:rPr></w:r><w:r>${spaced}</w:r><w:r xml:space="preserve">${spaced}</w:r>` +
      `<w:r xmlns:w="http://schemas.openxmlformats.org/drawingml/2006/main">${rPr}</w:r></w:document>`;
    const options = { ...DEFAULT_XML_LIMITS, shareElements: new Set(['w:rPr']) };
    const tree = parseXml(new TextEncoder().encode(xml), 'document.xml', options);
    const rPrs = tree.children.map((run) => run.children[0] as XmlElement);
    expect(rPrs[1]).toBe(rPrs[0]);
    expect(rPrs[2]).not.toBe(rPrs[0]);
    expect(rPrs[4]).not.toBe(rPrs[3]);
    expect(rPrs[4]?.children[0]?.text).toBe(' ');
    expect(rPrs[3]?.children[0]?.text).toBe('');
    expect(rPrs[5]?.name).toBe('a:rPr');
    expect(rPrs[5]).not.toBe(rPrs[0]);
    const unshared = parseXml(new TextEncoder().encode(xml), 'document.xml', DEFAULT_XML_LIMITS);
    expect(plain(tree)).toEqual(plain(unshared));
    // Shared elements still count against the limit, each time they recur.
    expect(() => parseXml(new TextEncoder().encode(xml), 'document.xml', { ...options, maxElements: 21 })).toThrow(
      /more than 21 elements/,
    );
    expect(() =>
      parseXml(new TextEncoder().encode(xml), 'document.xml', { ...options, maxElements: 22 }),
    ).not.toThrow();
  });
});
