import { env } from 'cloudflare:test';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../../src/engine/fonts/font-cache';
import type {
  Block,
  DocumentModel,
  ImageInline,
  Inline,
  Paragraph,
  Section,
  Table,
} from '../../../../src/engine/model/document';
import { MARKUP_STYLES_XML } from '../../../../src/engine/read/markup/markup-styles';
import { readDocx } from '../../../../src/engine/read/ooxml/docx-reader';
import { parseXml, type XmlElement } from '../../../../src/engine/read/ooxml/xml-tree';
import { writeDocx } from '../../../../src/engine/write/docx/docx-writer';
import { DEFAULT_LIMITS } from '../../../../src/limits';
import { convertDocxToPdf } from '../../../../src/services/convert/docx-to-pdf';
import { pdfText } from '../../../helpers/pdf-text';
import { collect, paragraphs, textOf } from '../../read/ooxml/model-queries';
import { para, richModel, sampleTable, text } from './markup-model';

const READ = { revisions: 'markup' as const, limits: DEFAULT_LIMITS };

function parts(bytes: Uint8Array): Record<string, string> {
  const files = unzipSync(bytes);
  const out: Record<string, string> = {};
  for (const [name, data] of Object.entries(files)) out[name] = name.startsWith('word/media/') ? '' : strFromU8(data);
  return out;
}

function elements(root: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const item of root.children) {
    if (item.name === name) out.push(item);
    elements(item, name, out);
  }
  return out;
}

/** The inlines as the reader gives them back: text split at line feeds into text and breaks. */
function expectedInlines(inlines: Inline[]): unknown[] {
  const out: unknown[] = [];
  for (const inline of inlines) {
    if (inline.kind === 'text') {
      inline.text.split('\n').forEach((piece, index) => {
        if (index > 0) out.push({ kind: 'break', type: 'line' });
        if (piece !== '') out.push(comparable({ ...inline, text: piece }));
      });
    } else out.push(comparable(inline));
  }
  return out;
}

/** What must survive the round trip of one inline (ids are renumbered, styleId is not read back). */
function comparable(inline: Inline): unknown {
  switch (inline.kind) {
    case 'text':
      return { kind: 'text', text: inline.text, props: inline.props, link: inline.link };
    case 'tab':
      return { kind: 'tab', props: inline.props, link: inline.link };
    case 'break':
      return { kind: 'break', type: inline.type };
    case 'image':
      return { kind: 'image', width: inline.width, height: inline.height, description: inline.description };
    case 'field':
      return { kind: 'field', field: inline.field, cached: inline.cached };
    case 'bookmark':
      return { kind: 'bookmark', name: inline.name };
    case 'noteReference':
      return { kind: 'noteReference', note: inline.note, mark: inline.mark, props: inline.props };
    default:
      return { kind: inline.kind };
  }
}

function tables(blocks: Block[]): Table[] {
  return blocks.filter((block): block is Table => block.kind === 'table');
}

describe('writeDocx: the package', async () => {
  const model = richModel();
  const files = parts(await writeDocx(model));

  it('declares a content type for every part and resolves every relationship target', () => {
    const types = parseXml(files['[Content_Types].xml'] as string, '[Content_Types].xml');
    const overrides = new Set(elements(types, 'Override').map((o) => o.attributes.PartName));
    const defaults = new Set(elements(types, 'Default').map((d) => d.attributes.Extension));
    for (const name of Object.keys(files)) {
      if (name === '[Content_Types].xml') continue;
      const extension = name.slice(name.lastIndexOf('.') + 1);
      expect(overrides.has(`/${name}`) || defaults.has(extension), name).toBe(true);
    }
    for (const relsName of Object.keys(files).filter((name) => name.endsWith('.rels'))) {
      const source = relsName.replace(/_rels\/([^/]*)\.rels$/, '$1');
      const folder = source.includes('/') ? source.slice(0, source.lastIndexOf('/') + 1) : '';
      const rels = parseXml(files[relsName] as string, relsName);
      for (const rel of elements(rels, 'Relationship')) {
        if (rel.attributes.TargetMode === 'External') continue;
        const target = `${relsName === '_rels/.rels' ? '' : folder}${rel.attributes.Target}`;
        expect(files[target], `${relsName} → ${target}`).toBeDefined();
      }
    }
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        'word/numbering.xml',
        'word/footnotes.xml',
        'word/settings.xml',
        'docProps/core.xml',
        'docProps/app.xml',
      ]),
    );
    expect(
      Object.keys(files)
        .filter((name) => name.startsWith('word/media/'))
        .sort(),
    ).toEqual(['word/media/image1.png', 'word/media/image2.png']);
  });

  it('writes the markup styles part verbatim, the settings, the core properties and the separator notes', () => {
    expect(files['word/styles.xml']).toBe(MARKUP_STYLES_XML);
    expect(files['word/settings.xml']).toContain('<w:defaultTabStop w:val="720"/>');
    expect(files['word/settings.xml']).toContain(
      'w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"',
    );
    expect(files['docProps/core.xml']).toContain('<dc:title>Rich &amp; &lt;sample&gt;</dc:title>');
    expect(files['docProps/core.xml']).toContain(
      '<dcterms:created xsi:type="dcterms:W3CDTF">2026-01-02T03:04:05Z</dcterms:created>',
    );
    expect(files['docProps/app.xml']).toContain('<Application>Quire</Application>');
    expect(files['word/footnotes.xml']).toContain('<w:footnote w:type="separator" w:id="-1">');
    expect(files['word/footnotes.xml']).toContain('<w:footnote w:type="continuationSeparator" w:id="0">');
    expect(files['word/footnotes.xml']).toContain('<w:footnoteRef/>');
    expect(files['word/document.xml']).toContain('<w:footnoteReference w:id="1"/>');
    expect(files['word/_rels/document.xml.rels']).toContain(
      'Target="https://example.com/?a=1&amp;b=&lt;2&gt;" TargetMode="External"',
    );
  });

  it('writes pPr and rPr children in the schema order, and only what differs from the style', () => {
    const document = parseXml(files['word/document.xml'] as string, 'word/document.xml');
    const heavy = elements(document, 'w:p').find((p) => JSON.stringify(p).includes('Heavily formatted')) as XmlElement;
    const pPr = heavy.children.find((c) => c.name === 'w:pPr') as XmlElement;
    expect(pPr.children.map((c) => c.name)).toEqual([
      'w:pStyle',
      'w:keepNext',
      'w:keepLines',
      'w:widowControl',
      'w:pBdr',
      'w:shd',
      'w:tabs',
      'w:spacing',
      'w:ind',
      'w:contextualSpacing',
      'w:jc',
      'w:outlineLvl',
    ]);
    const runs = elements(document, 'w:rPr').map((rPr) => rPr.children.map((c) => c.name));
    const order = [
      'w:rStyle',
      'w:rFonts',
      'w:b',
      'w:bCs',
      'w:i',
      'w:iCs',
      'w:caps',
      'w:smallCaps',
      'w:strike',
      'w:dstrike',
      'w:vanish',
      'w:color',
      'w:spacing',
      'w:position',
      'w:sz',
      'w:szCs',
      'w:highlight',
      'w:u',
      'w:shd',
      'w:vertAlign',
      'w:rtl',
      'w:cs',
    ];
    for (const names of runs) {
      const indices = names.map((name) => order.indexOf(name));
      expect(
        indices.every((index) => index >= 0),
        names.join(),
      ).toBe(true);
      expect([...indices].sort((a, b) => a - b)).toEqual(indices);
    }
    // A heading's bold turned off is an explicit off; a plain Normal run writes no rPr at all.
    expect(files['word/document.xml']).toContain('<w:b w:val="0"/>');
    expect(files['word/document.xml']).toContain('<w:r><w:t xml:space="preserve">Plain </w:t></w:r>');
    // The Quote style's left border is removed.
    expect(files['word/document.xml']).toContain('<w:pBdr><w:left w:val="nil"/></w:pBdr>');
  });

  it('ends every table cell with a paragraph and earlier sections in a paragraph', () => {
    const document = parseXml(files['word/document.xml'] as string, 'word/document.xml');
    for (const tc of elements(document, 'w:tc')) expect(tc.children.at(-1)?.name).toBe('w:p');
    const body = elements(document, 'w:body')[0] as XmlElement;
    expect(body.children.at(-1)?.name).toBe('w:sectPr');
    expect(elements(document, 'w:sectPr')).toHaveLength(2);
  });

  it('escapes text and drops or replaces characters XML cannot hold', async () => {
    const tricky = {
      ...richModel(),
      sections: [
        {
          ...(richModel().sections[1] as Section),
          blocks: [para('Normal', [text('a\u0001b\uD800c <&> "q"', 'Normal')])],
        },
      ],
    };
    const xml = parts(await writeDocx(tricky))['word/document.xml'] as string;
    // The control is dropped, the lone surrogate becomes U+FFFD (xml-escape.ts says why).
    expect(xml).toContain('<w:t xml:space="preserve">ab\uFFFDc &lt;&amp;&gt; "q"</w:t>');
  });
});

describe('writeDocx: read back with readDocx', async () => {
  const model = richModel();
  const back = readDocx(await writeDocx(model), READ);

  it('gives back the paragraphs: text, styles, resolved properties, inlines and list labels', () => {
    const expected = paragraphs(model);
    const actual = paragraphs(back);
    expect(actual.map(textOf)).toEqual(expected.map(textOf));
    expect(actual).toHaveLength(expected.length);
    actual.forEach((paragraph, index) => {
      const want = expected[index] as Paragraph;
      expect(paragraph.props, textOf(want)).toEqual(want.props);
      expect(paragraph.markProps, textOf(want)).toEqual(want.markProps);
      expect(paragraph.inlines.map(comparable), textOf(want)).toEqual(expectedInlines(want.inlines));
    });
    const labels = actual.filter((p) => p.label !== undefined).map((p) => [textOf(p), p.label?.text]);
    expect(labels).toEqual([
      ['First', '1.'],
      ['Second', '2.'],
      ['Nested bullet', 'a)'],
      ['Bullet item', '•'],
    ]);
    expect(actual.map((p) => p.props.styleId)).toEqual(expected.map((p) => p.props.styleId));
  });

  it('gives back the table: grid, spans, merges, widths, borders, shading, header rows', () => {
    const [want] = tables((model.sections[0] as Section).blocks);
    const [got] = tables((back.sections[0] as Section).blocks);
    expect(got).toBeDefined();
    // The reader does not name the table style back (Table.styleId is for the markup readers).
    const strip = ({ styleId: _style, ...table }: Table) => ({
      ...table,
      rows: table.rows.map((row) => ({
        ...row,
        cells: row.cells.map((cell) => ({ ...cell, blocks: collect(cell.blocks).map(textOf) })),
      })),
    });
    expect(strip(got as Table)).toEqual(strip(want as Table));
  });

  it('gives back images, sections, core properties and footnotes', () => {
    const images = paragraphs(back)
      .flatMap((p) => p.inlines)
      .filter((i) => i.kind === 'image');
    expect(images).toHaveLength(3);
    const [first, second, third] = images as Extract<Inline, { kind: 'image' }>[];
    expect(first?.imageId).toBe(third?.imageId);
    const png = back.images[(first as ImageInline).imageId];
    expect(png?.format === 'png' && png.bytes).toEqual((model.images.png as { bytes: Uint8Array }).bytes);
    expect(back.images[(second as ImageInline).imageId]).toMatchObject({ pixelWidth: 2, pixelHeight: 2 });
    expect(back.sections.map(({ blocks: _b, headers: _h, footers: _f, ...rest }) => rest)).toEqual(
      model.sections.map(({ blocks: _b, headers: _h, footers: _f, ...rest }) => rest),
    );
    expect(back.properties).toMatchObject({ title: 'Rich & <sample>', author: 'Ada' });
    const notes = Object.values(back.notes.footnotes);
    expect(notes).toHaveLength(1);
    expect(collect(notes[0] as Block[]).map(textOf)).toEqual(['1 The note text.']);
    expect(collect(notes[0] as Block[])[0]?.props.styleId).toBe('FootnoteText');
    expect(back.warnings).toEqual([]);
  });

  it('writes headers and footers as parts the reader finds', async () => {
    const withHeader: DocumentModel = richModel();
    const header = [para('Normal', [text('Running head', 'Normal')])];
    withHeader.sections = withHeader.sections.map((section) => ({ ...section, headers: { default: header } }));
    const bytes = await writeDocx(withHeader);
    expect(Object.keys(unzipSync(bytes)).filter((name) => name.startsWith('word/header'))).toEqual([
      'word/header1.xml',
    ]);
    const read = readDocx(bytes, READ);
    for (const section of read.sections)
      expect(collect(section.headers.default ?? []).map(textOf)).toEqual(['Running head']);
  });
});

describe('writeDocx: converted to PDF', () => {
  it('prints the text of the written document', async () => {
    const bytes = await writeDocx(richModel());
    const { pdf, pages } = await convertDocxToPdf(bytes, READ, { assets: env.ASSETS, fontCache: createFontCache() });
    expect(pages).toBeGreaterThanOrEqual(2);
    const text = (await pdfText(pdf)).join(' ');
    for (const phrase of [
      'Quire & <Writer>',
      'Introduction',
      'Heavily formatted paragraph',
      'Merged across and down',
      'The note text.',
      'Second section',
    ]) {
      expect(text).toContain(phrase);
    }
  });
});

describe('writeDocx: table edge cases', () => {
  it('writes placeholder cells as gridBefore/gridAfter and ends a cell holding a table with a paragraph', async () => {
    const model = richModel();
    const inner = sampleTable();
    const outer: Table = {
      ...sampleTable(),
      rows: [
        {
          isHeader: false,
          cantSplit: false,
          cells: [
            { blocks: [], span: 1, placeholder: true },
            { blocks: [inner], span: 1, width: 100 },
            { blocks: [], span: 1, placeholder: true },
          ],
        },
      ],
    };
    model.sections = [{ ...(model.sections[0] as Section), blocks: [outer] }];
    const xml = parts(await writeDocx(model))['word/document.xml'] as string;
    expect(xml).toContain('<w:trPr><w:gridBefore w:val="1"/><w:gridAfter w:val="1"/></w:trPr>');
    const document = parseXml(xml, 'word/document.xml');
    for (const tc of elements(document, 'w:tc')) expect(tc.children.at(-1)?.name).toBe('w:p');
    const [table] = tables((readDocx(await writeDocx(model), READ).sections[0] as Section).blocks);
    expect(table?.rows[0]?.cells.map((cell) => [cell.placeholder ?? false, cell.span])).toEqual([
      [true, 1],
      [false, 1],
      [true, 1],
    ]);
    expect(tables(table?.rows[0]?.cells[1]?.blocks ?? [])).toHaveLength(1);
  });
});
