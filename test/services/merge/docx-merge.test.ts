import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { type Block, readDocx } from '../../../src/engine';
import { ApiError } from '../../../src/errors';
import { DEFAULT_LIMITS } from '../../../src/limits';
import { mergeDocx } from '../../../src/services/merge';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import {
  buildDocx,
  NOTE_STYLES,
  note,
  noteReference,
  noteSeparators,
  paragraph,
  RELATIONSHIP_TYPES,
  tinyPng,
  WORD_NAMESPACES,
} from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';

const options = { limits: DEFAULT_LIMITS };

const NORMAL = '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>';
const heading1 = (size: number, extra = '') =>
  `<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:pPr><w:keepNext/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/>${extra}<w:sz w:val="${size}"/></w:rPr></w:style>`;
const LIST_PARAGRAPH =
  '<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="720"/></w:pPr></w:style>';
const decimalList = (nsid: string) =>
  `<w:abstractNum w:abstractNumId="0"><w:nsid w:val="${nsid}"/><w:multiLevelType w:val="hybridMultilevel"/><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`;
const item = (text: string) =>
  paragraph(text, {
    pPr: '<w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>',
  });
const heading = (text: string) => paragraph(text, { pPr: '<w:pStyle w:val="Heading1"/>' });
const picture = `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="685800"/><wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
const withNote = (text: string, id: string) =>
  `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r>${noteReference('footnote', id)}</w:p>`;

/** Letter portrait, header rIdHdr. */
const first = () =>
  buildDocx({
    styles: NORMAL + heading1(32) + LIST_PARAGRAPH + NOTE_STYLES,
    numbering: decimalList('11111111'),
    headers: { rIdHdr: paragraph('Alpha header') },
    footnotes: noteSeparators('footnote') + note('footnote', '1', 'Alpha note'),
    document: `<w:body>${heading('Alpha heading')}${item('Alpha one')}${item('Alpha two')}${withNote('Alpha body', '1')}<w:bookmarkStart w:id="0" w:name="Intro"/><w:bookmarkEnd w:id="0"/><w:sectPr><w:headerReference w:type="default" r:id="rIdHdr"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body>`,
  });

/** A4 landscape, its own Heading1 (larger, italic), a picture, a header, two footnotes. */
const second = () =>
  buildDocx({
    styles: NORMAL + heading1(48, '<w:i/>') + LIST_PARAGRAPH + NOTE_STYLES,
    numbering: decimalList('11111111'),
    headers: { rIdHdrB: paragraph('Beta header') },
    footnotes:
      noteSeparators('footnote') + note('footnote', '1', 'Beta note one') + note('footnote', '2', 'Beta note two'),
    relationships: [{ id: 'rIdImg', type: 'image', target: 'media/image1.png' }],
    extraParts: { 'word/media/image1.png': tinyPng(4, 3) },
    document: `<w:body>${heading('Beta heading')}${item('Beta one')}${item('Beta two')}${picture}${withNote('Beta body', '1')}${withNote('Beta more', '2')}<w:bookmarkStart w:id="0" w:name="Intro"/><w:bookmarkEnd w:id="0"/><w:sectPr><w:headerReference w:type="default" r:id="rIdHdrB"/><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:pgMar w:top="720" w:right="720" w:bottom="720" w:left="720" w:header="360" w:footer="360" w:gutter="0"/></w:sectPr></w:body>`,
  });

function parts(docx: Uint8Array): Record<string, string> {
  const files = unzipSync(docx);
  return Object.fromEntries(
    Object.entries(files).map(([name, bytes]) => [
      name,
      name.endsWith('.png') ? `binary:${bytes.length}` : strFromU8(bytes),
    ]),
  );
}

function blockText(blocks: Block[]): string[] {
  return blocks.flatMap((block) =>
    'inlines' in block ? [block.inlines.map((inline) => ('text' in inline ? inline.text : '')).join('')] : [],
  );
}

describe('mergeDocx', () => {
  it('appends the second body after a section break carrying the first document’s sectPr', async () => {
    const { docx } = await mergeDocx([{ bytes: first() }, { bytes: second() }], options);
    const files = parts(docx);
    const document = files['word/document.xml'] as string;
    expect(document.indexOf('Alpha body')).toBeLessThan(document.indexOf('Beta heading'));
    // The first document's sectPr now sits in a paragraph mark before the second body.
    const breakAt = document.indexOf('<w:pPr><w:sectPr>');
    const paragraphSectPr = document.slice(breakAt, document.indexOf('</w:sectPr>', breakAt));
    expect(breakAt).toBeGreaterThan(document.indexOf('Alpha body'));
    expect(breakAt).toBeLessThan(document.indexOf('Beta heading'));
    expect(paragraphSectPr).toContain('w:w="12240"');
    // The body's last sectPr is the second document's, starting on a new page from page 1.
    const last = document.slice(document.lastIndexOf('<w:sectPr'));
    expect(last).toContain('w:orient="landscape"');
    expect(last).toContain('<w:type w:val="nextPage"/>');
    expect(last).toContain('<w:pgNumType w:start="1"/>');
    // Bookmark ids and names stay unique.
    expect(document).toMatch(/w:name="Intro"/);
    expect(document).toMatch(/w:name="Intro_2"/);
    const ids = [...document.matchAll(/<w:bookmarkStart w:id="(\d+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('renames a clashing Heading1 and points document 2’s paragraphs at it; shares identical styles', async () => {
    const { docx } = await mergeDocx([{ bytes: first() }, { bytes: second() }], options);
    const files = parts(docx);
    const styles = files['word/styles.xml'] as string;
    expect(styles).toContain('w:styleId="Heading1-2"');
    expect(styles).toContain('<w:name w:val="heading 1 (2)"/>');
    expect(styles.match(/w:styleId="ListParagraph"/g)).toHaveLength(1);
    const document = files['word/document.xml'] as string;
    const beta = document.slice(document.indexOf('Beta heading') - 200, document.indexOf('Beta heading'));
    expect(beta).toContain('<w:pStyle w:val="Heading1-2"/>');
    const alpha = document.slice(document.indexOf('Alpha heading') - 200, document.indexOf('Alpha heading'));
    expect(alpha).toContain('<w:pStyle w:val="Heading1"/>');

    const model = readDocx(docx, { revisions: 'final', limits: DEFAULT_LIMITS });
    const headings = model.sections.flatMap((section) =>
      section.blocks.filter((block) => 'inlines' in block && blockText([block])[0]?.endsWith('heading')),
    );
    const sizes = headings.map((block) =>
      'inlines' in block ? (block.inlines[0] as { props?: { size?: number } }).props?.size : 0,
    );
    expect(sizes).toEqual([16, 24]);
  });

  it('keeps each document’s lists apart: both restart at 1 under different numIds and abstractNums', async () => {
    const { docx } = await mergeDocx([{ bytes: first() }, { bytes: second() }], options);
    const files = parts(docx);
    const numbering = files['word/numbering.xml'] as string;
    expect(numbering).toContain('<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>');
    expect(numbering.match(/<w:nsid w:val="11111111"\/>/g)).toHaveLength(1);
    // abstractNums before nums (CT_Numbering sequence).
    expect(numbering.lastIndexOf('<w:abstractNum ')).toBeLessThan(numbering.indexOf('<w:num '));
    const document = files['word/document.xml'] as string;
    const beta = document.slice(document.indexOf('Beta one') - 200, document.indexOf('Beta one'));
    expect(beta).toContain('<w:numId w:val="2"/>');

    const model = readDocx(docx, { revisions: 'final', limits: DEFAULT_LIMITS });
    const labels = model.sections.flatMap((section) =>
      section.blocks.flatMap((block) => ('label' in block && block.label ? [block.label.text] : [])),
    );
    expect(labels).toEqual(['1.', '2.', '1.', '2.']);
  });

  it('carries the picture, the header and the footnotes of document 2', async () => {
    const { docx, warnings } = await mergeDocx([{ bytes: first() }, { bytes: second(), name: 'b.docx' }], options);
    const files = parts(docx);
    const rels = files['word/_rels/document.xml.rels'] as string;
    const document = files['word/document.xml'] as string;
    // The picture: a new rel to a media part with a content type.
    const embed = /r:embed="([^"]+)"/.exec(document)?.[1] as string;
    const imageRel = new RegExp(`Id="${embed}"[^>]*Target="([^"]+)"`).exec(rels)?.[1] as string;
    expect(files[`word/${imageRel}`]).toMatch(/^binary:/);
    expect(files['[Content_Types].xml']).toContain('Extension="png"');
    // The header: copied under a new name, referenced by the second document's section.
    const last = document.slice(document.lastIndexOf('<w:sectPr'));
    const headerId = /<w:headerReference w:type="default" r:id="([^"]+)"/.exec(last)?.[1] as string;
    const headerTarget = new RegExp(`Id="${headerId}"[^>]*Target="([^"]+)"`).exec(rels)?.[1] as string;
    expect(headerTarget).not.toBe('header1.xml');
    expect(files[`word/${headerTarget}`]).toContain('Beta header');
    expect(files['[Content_Types].xml']).toContain(`PartName="/word/${headerTarget}"`);
    // Footnotes: separators once, ids unique, references renumbered.
    const footnotes = files['word/footnotes.xml'] as string;
    expect(footnotes.match(/w:type="separator"/g)).toHaveLength(1);
    const noteIds = [...footnotes.matchAll(/<w:footnote (?:w:type="[^"]+" )?w:id="(-?\d+)"/g)].map((match) => match[1]);
    expect(noteIds).toEqual(['-1', '0', '1', '2', '3']);
    expect(document).toContain('<w:footnoteReference w:id="3"/>');
    expect(warnings).toEqual([]);

    const model = readDocx(docx, { revisions: 'final', limits: DEFAULT_LIMITS });
    expect(model.sections).toHaveLength(2);
    expect(model.sections[1]?.page.width).toBeCloseTo(841.9, 0);
    expect(blockText(model.sections[0]?.headers.default ?? [])).toEqual(['Alpha header']);
    expect(blockText(model.sections[1]?.headers.default ?? [])).toEqual(['Beta header']);
    expect(Object.keys(model.images)).toHaveLength(1);
    const noteText = Object.values(model.notes.footnotes).flatMap((blocks) => blockText(blocks).join(' '));
    expect(noteText.join('|')).toContain('Alpha note');
    expect(noteText.join('|')).toContain('Beta note two');
    expect(model.warnings).toEqual([]);
  });

  it('gives a document with no header an empty one instead of the previous document’s', async () => {
    const bare = buildDocx({ document: `<w:body>${paragraph('Gamma body')}<w:sectPr/></w:body>` });
    const { docx } = await mergeDocx([{ bytes: first() }, { bytes: bare }], options);
    const model = readDocx(docx, { revisions: 'final', limits: DEFAULT_LIMITS });
    expect(blockText(model.sections[1]?.headers.default ?? []).join('')).toBe('');
  });

  it('converts to PDF through the engine with both texts in order', async () => {
    const { docx } = await mergeDocx([{ bytes: first() }, { bytes: second() }, { bytes: first() }], options);
    const form = new FormData();
    form.append('file', new File([docx as Uint8Array<ArrayBuffer>], 'merged.docx'));
    const res = await call('/v1/convert?from=docx&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
    expect(res.status).toBe(200);
    const pages = await pdfText(new Uint8Array(await res.arrayBuffer()));
    const text = pages.join('\n');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(text.indexOf('Alpha heading')).toBeLessThan(text.indexOf('Beta heading'));
    expect(text.indexOf('Beta more')).toBeLessThan(text.lastIndexOf('Alpha heading'));
    expect(text).toContain('Beta header');
  });

  it('merges comments under new ids and carries an embedded font with its relationship', async () => {
    const commented = (text: string) =>
      buildDocx({
        document: `<w:body><w:p><w:commentRangeStart w:id="0"/><w:r><w:rPr><w:rFonts w:ascii="Quire Sans"/></w:rPr><w:t>${text}</w:t></w:r><w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p><w:sectPr/></w:body>`,
        relationships: [
          {
            id: 'rIdComments',
            type: `${RELATIONSHIP_TYPES.styles.slice(0, -'styles'.length)}comments`,
            target: 'comments.xml',
          },
        ],
        extraParts: {
          'word/comments.xml': `<?xml version="1.0" encoding="UTF-8"?><w:comments ${WORD_NAMESPACES}><w:comment w:id="0" w:author="A"><w:p><w:r><w:t>Note on ${text}</w:t></w:r></w:p></w:comment></w:comments>`,
          'word/fonts/font1.odttf': new Uint8Array(64),
        },
        fontTable: `<w:font w:name="Quire ${text}"><w:embedRegular r:id="rIdFont" w:fontKey="{00000000-0000-0000-0000-000000000000}"/></w:font>`,
        fontTableRelationships: [{ id: 'rIdFont', type: 'font', target: 'fonts/font1.odttf' }],
      });
    const { docx } = await mergeDocx([{ bytes: commented('One') }, { bytes: commented('Two') }], options);
    const files = parts(docx);
    const comments = files['word/comments.xml'] as string;
    expect(comments).toContain('w:id="0"');
    expect(comments).toContain('<w:comment w:id="1" w:author="A">');
    expect(comments.indexOf('Note on Two')).toBeGreaterThan(comments.indexOf('w:id="1"'));
    const document = files['word/document.xml'] as string;
    expect(document).toContain('<w:commentReference w:id="1"/>');
    const fonts = files['word/fontTable.xml'] as string;
    expect(fonts).toContain('w:name="Quire Two"');
    const fontRels = files['word/_rels/fontTable.xml.rels'] as string;
    const id = /w:name="Quire Two"><w:embedRegular r:id="([^"]+)"/.exec(fonts)?.[1] as string;
    const target = new RegExp(`Id="${id}"[^>]*Target="([^"]+)"`).exec(fontRels)?.[1] as string;
    expect(target).toMatch(/^fonts\/font1-1\.odttf$/);
    expect(Object.keys(files)).toContain(`word/${target}`);
  });

  it('merges a DOCX the project converted from Markdown', async () => {
    const form = new FormData();
    form.append('file', new File(['# Markdown title\n\n1. first\n2. second\n'], 'notes.md'));
    const res = await call('/v1/convert?from=md&to=docx', withKey(await mintKey(), { method: 'POST', body: form }));
    expect(res.status).toBe(200);
    const markdown = new Uint8Array(await res.arrayBuffer());
    const { docx } = await mergeDocx([{ bytes: first() }, { bytes: markdown, name: 'notes.md' }], options);
    const model = readDocx(docx, { revisions: 'final', limits: DEFAULT_LIMITS });
    const texts = model.sections.flatMap((section) => blockText(section.blocks));
    expect(texts.indexOf('Markdown title')).toBeGreaterThan(texts.indexOf('Alpha body'));
    const labels = model.sections.flatMap((section) =>
      section.blocks.flatMap((block) => ('label' in block && block.label ? [block.label.text] : [])),
    );
    expect(labels).toEqual(['1.', '2.', '1.', '2.']);
  });

  it('keeps an input’s document defaults by writing them into its root paragraph styles', async () => {
    const withDefaults = (size: number, text: string) =>
      buildDocx({
        styles: `<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="${size}"/></w:rPr></w:rPrDefault></w:docDefaults>${NORMAL}`,
        document: `<w:body>${paragraph(text)}<w:sectPr/></w:body>`,
      });
    const { docx, warnings } = await mergeDocx(
      [{ bytes: withDefaults(20, 'Small') }, { bytes: withDefaults(36, 'Large') }],
      options,
    );
    expect(warnings).toEqual([]);
    const styles = parts(docx)['word/styles.xml'] as string;
    expect(styles).toMatch(/w:styleId="Normal-2"><w:name w:val="Normal \(2\)"\/><w:rPr><w:sz w:val="36"\/><\/w:rPr>/);
    const model = readDocx(docx, { revisions: 'final', limits: DEFAULT_LIMITS });
    const sizes = model.sections.flatMap((section) =>
      section.blocks.flatMap((block) =>
        'inlines' in block ? [(block.inlines[0] as { props?: { size?: number } }).props?.size] : [],
      ),
    );
    expect(sizes).toEqual([10, 18]);
  });

  it('refuses fewer than 2 inputs and names a damaged input', async () => {
    await expect(mergeDocx([{ bytes: first() }], options)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    const damaged = new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]);
    const error = await mergeDocx([{ bytes: first() }, { bytes: damaged, name: 'broken.docx' }], options).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'INVALID_DOCUMENT', details: [{ field: 'inputs[1]' }] });
    expect((error as Error).message).toContain('Document 2 (broken.docx)');
  });
});
