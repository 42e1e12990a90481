import { strToU8, zipSync, zlibSync } from 'fflate';

/**
 * Small DOCX packages built in memory for tests: pass the XML that matters, the helper adds the
 * namespaces, content types and relationships every package needs. Nothing is copied from the
 * corpus. Reusable by any test that needs a DOCX.
 */

/** The namespace declarations of Word's own document parts (so fragments can use any prefix). */
export const WORD_NAMESPACES = [
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"',
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"',
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"',
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"',
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"',
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"',
  'xmlns:v="urn:schemas-microsoft-com:vml"',
  'xmlns:o="urn:schemas-microsoft-com:office:office"',
  'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"',
  'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"',
  'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"',
  'xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"',
].join(' ');

const OFFICE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Relationship type URIs by their short name. */
export const RELATIONSHIP_TYPES = {
  officeDocument: `${OFFICE_RELATIONSHIPS}/officeDocument`,
  styles: `${OFFICE_RELATIONSHIPS}/styles`,
  numbering: `${OFFICE_RELATIONSHIPS}/numbering`,
  settings: `${OFFICE_RELATIONSHIPS}/settings`,
  theme: `${OFFICE_RELATIONSHIPS}/theme`,
  fontTable: `${OFFICE_RELATIONSHIPS}/fontTable`,
  footnotes: `${OFFICE_RELATIONSHIPS}/footnotes`,
  endnotes: `${OFFICE_RELATIONSHIPS}/endnotes`,
  header: `${OFFICE_RELATIONSHIPS}/header`,
  footer: `${OFFICE_RELATIONSHIPS}/footer`,
  image: `${OFFICE_RELATIONSHIPS}/image`,
  hyperlink: `${OFFICE_RELATIONSHIPS}/hyperlink`,
  font: `${OFFICE_RELATIONSHIPS}/font`,
  coreProperties: 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties',
} as const;

export interface Relationship {
  id: string;
  /** A full type URI, or a key of RELATIONSHIP_TYPES. */
  type: string;
  target: string;
  external?: boolean;
}

export interface DocxParts {
  /** The body ('<w:body>…</w:body>'), or a whole part starting with '<?xml' or '<w:document'. */
  document: string;
  /** The content of w:styles (w:docDefaults, w:style…), or a whole part starting with '<?xml'. */
  styles?: string;
  /** The content of w:numbering, or a whole part. */
  numbering?: string;
  /** The content of w:settings, or a whole part. */
  settings?: string;
  /** Theme font faces, or a whole theme part. */
  theme?: { majorFont?: string; minorFont?: string } | string;
  /** docProps/core.xml fields. */
  coreProperties?: {
    title?: string;
    creator?: string;
    subject?: string;
    keywords?: string;
    created?: string;
    modified?: string;
  };
  /** Headers by relationship id: the content of w:hdr (paragraphs and tables). Parts are word/headerN.xml. */
  headers?: Record<string, string>;
  /** Footers by relationship id: the content of w:ftr. */
  footers?: Record<string, string>;
  /** The content of w:footnotes (w:footnote elements; see noteSeparators), or a whole part. */
  footnotes?: string;
  /** The content of w:endnotes (w:endnote elements), or a whole part. */
  endnotes?: string;
  /** The content of w:fonts (word/fontTable.xml). */
  fontTable?: string;
  /** Extra relationships of word/document.xml (images, hyperlinks, …). */
  relationships?: Relationship[];
  /** Extra relationships of word/fontTable.xml (embedded fonts). */
  fontTableRelationships?: Relationship[];
  /** Any other parts by name ('word/media/image1.png' → bytes), added as they are. */
  extraParts?: Record<string, string | Uint8Array>;
  /** Part names to leave out of the package ('[Content_Types].xml', '_rels/.rels', …). */
  omit?: string[];
}

export function buildDocx(parts: DocxParts): Uint8Array {
  const files: Record<string, string | Uint8Array> = {};
  const documentRelationships: Relationship[] = [...(parts.relationships ?? [])];
  const overrides: [string, string][] = [
    ['/word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'],
  ];

  files['word/document.xml'] = wrap(parts.document, 'w:document', (body) =>
    body.trimStart().startsWith('<w:document') ? xmlDeclaration(body) : undefined,
  );

  const addPart = (name: string, kind: keyof typeof RELATIONSHIP_TYPES, content: string, contentType: string) => {
    files[`word/${name}`] = content;
    documentRelationships.push({ id: `rId${kind}`, type: kind, target: name });
    overrides.push([`/word/${name}`, contentType]);
  };
  const wordml = 'application/vnd.openxmlformats-officedocument.wordprocessingml';
  if (parts.styles !== undefined)
    addPart('styles.xml', 'styles', wrap(parts.styles, 'w:styles'), `${wordml}.styles+xml`);
  if (parts.numbering !== undefined) {
    addPart('numbering.xml', 'numbering', wrap(parts.numbering, 'w:numbering'), `${wordml}.numbering+xml`);
  }
  if (parts.settings !== undefined) {
    addPart('settings.xml', 'settings', wrap(parts.settings, 'w:settings'), `${wordml}.settings+xml`);
  }
  if (parts.theme !== undefined) {
    const theme = typeof parts.theme === 'string' ? parts.theme : themeXml(parts.theme);
    addPart('theme/theme1.xml', 'theme', theme, 'application/vnd.openxmlformats-officedocument.theme+xml');
  }
  if (parts.footnotes !== undefined) {
    addPart('footnotes.xml', 'footnotes', wrap(parts.footnotes, 'w:footnotes'), `${wordml}.footnotes+xml`);
  }
  if (parts.endnotes !== undefined) {
    addPart('endnotes.xml', 'endnotes', wrap(parts.endnotes, 'w:endnotes'), `${wordml}.endnotes+xml`);
  }
  if (parts.fontTable !== undefined) {
    addPart('fontTable.xml', 'fontTable', wrap(parts.fontTable, 'w:fonts'), `${wordml}.fontTable+xml`);
    if (parts.fontTableRelationships) {
      files['word/_rels/fontTable.xml.rels'] = relationshipsXml(parts.fontTableRelationships);
    }
  }
  let headerNumber = 0;
  for (const [id, content] of Object.entries(parts.headers ?? {})) {
    const name = `header${++headerNumber}.xml`;
    files[`word/${name}`] = wrap(content, 'w:hdr');
    documentRelationships.push({ id, type: 'header', target: name });
    overrides.push([`/word/${name}`, `${wordml}.header+xml`]);
  }
  let footerNumber = 0;
  for (const [id, content] of Object.entries(parts.footers ?? {})) {
    const name = `footer${++footerNumber}.xml`;
    files[`word/${name}`] = wrap(content, 'w:ftr');
    documentRelationships.push({ id, type: 'footer', target: name });
    overrides.push([`/word/${name}`, `${wordml}.footer+xml`]);
  }

  const packageRelationships: Relationship[] = [{ id: 'rId1', type: 'officeDocument', target: 'word/document.xml' }];
  if (parts.coreProperties !== undefined) {
    files['docProps/core.xml'] = corePropertiesXml(parts.coreProperties);
    packageRelationships.push({ id: 'rId2', type: 'coreProperties', target: 'docProps/core.xml' });
    overrides.push(['/docProps/core.xml', 'application/vnd.openxmlformats-package.core-properties+xml']);
  }
  files['_rels/.rels'] = relationshipsXml(packageRelationships);
  files['word/_rels/document.xml.rels'] = relationshipsXml(documentRelationships);
  files['[Content_Types].xml'] = contentTypesXml(overrides);
  Object.assign(files, parts.extraParts ?? {});
  for (const name of parts.omit ?? []) delete files[name];
  return zipParts(files);
}

/** Zips parts as given (strings as UTF-8): for packages the builder would not make. */
export function zipParts(parts: Record<string, string | Uint8Array>): Uint8Array {
  return zipSync(
    Object.fromEntries(
      Object.entries(parts).map(([name, content]) => [name, typeof content === 'string' ? strToU8(content) : content]),
    ),
  );
}

/**
 * The archive with the uncompressed size its central directory declares (APPNOTE §4.3.12) set to
 * `size` for the entry `name`, or for every entry when `name` is undefined: a directory that lies.
 */
export function declareZipSize(zip: Uint8Array, name: string | undefined, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const encoded = name === undefined ? undefined : new TextEncoder().encode(name);
  for (let at = 0; at + 46 <= out.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const length = view.getUint16(at + 28, true);
    if (encoded && (length !== encoded.length || !encoded.every((byte, i) => out[at + 46 + i] === byte))) continue;
    view.setUint32(at + 24, size, true);
  }
  return out;
}

function xmlDeclaration(xml: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${xml}`;
}

/** Wraps a fragment in its root element with Word's namespaces, unless it is a whole part already. */
function wrap(content: string, root: string, whole?: (content: string) => string | undefined): string {
  if (content.trimStart().startsWith('<?xml')) return content;
  const custom = whole?.(content);
  if (custom !== undefined) return custom;
  return xmlDeclaration(`<${root} ${WORD_NAMESPACES}>${content}</${root}>`);
}

function relationshipsXml(relationships: Relationship[]): string {
  const items = relationships.map((relationship) => {
    const type = RELATIONSHIP_TYPES[relationship.type as keyof typeof RELATIONSHIP_TYPES] ?? relationship.type;
    const mode = relationship.external ? ' TargetMode="External"' : '';
    return `<Relationship Id="${relationship.id}" Type="${type}" Target="${escapeXml(relationship.target)}"${mode}/>`;
  });
  return xmlDeclaration(
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.join('')}</Relationships>`,
  );
}

function contentTypesXml(overrides: [string, string][]): string {
  const defaults = [
    ['rels', 'application/vnd.openxmlformats-package.relationships+xml'],
    ['xml', 'application/xml'],
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['odttf', 'application/vnd.openxmlformats-officedocument.obfuscatedFont'],
  ];
  return xmlDeclaration(
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${defaults
      .map(([extension, type]) => `<Default Extension="${extension}" ContentType="${type}"/>`)
      .join(
        '',
      )}${overrides.map(([name, type]) => `<Override PartName="${name}" ContentType="${type}"/>`).join('')}</Types>`,
  );
}

function corePropertiesXml(properties: NonNullable<DocxParts['coreProperties']>): string {
  const field = (name: string, value: string | undefined, attributes = '') =>
    value === undefined ? '' : `<${name}${attributes}>${escapeXml(value)}</${name}>`;
  const date = ' xsi:type="dcterms:W3CDTF"';
  return xmlDeclaration(
    `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${field('dc:title', properties.title)}${field('dc:subject', properties.subject)}${field('dc:creator', properties.creator)}${field('cp:keywords', properties.keywords)}${field('dcterms:created', properties.created, date)}${field('dcterms:modified', properties.modified, date)}</cp:coreProperties>`,
  );
}

/** A minimal theme whose font scheme names the given faces. */
export function themeXml(fonts: { majorFont?: string; minorFont?: string }): string {
  const set = (face: string) => `<a:latin typeface="${face}"/><a:ea typeface=""/><a:cs typeface=""/>`;
  return xmlDeclaration(
    `<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Test"><a:themeElements><a:clrScheme name="Test"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="44546A"/></a:dk2><a:lt2><a:srgbClr val="E7E6E6"/></a:lt2><a:accent1><a:srgbClr val="4472C4"/></a:accent1><a:accent2><a:srgbClr val="ED7D31"/></a:accent2><a:accent3><a:srgbClr val="A5A5A5"/></a:accent3><a:accent4><a:srgbClr val="FFC000"/></a:accent4><a:accent5><a:srgbClr val="5B9BD5"/></a:accent5><a:accent6><a:srgbClr val="70AD47"/></a:accent6><a:hlink><a:srgbClr val="0563C1"/></a:hlink><a:folHlink><a:srgbClr val="954F72"/></a:folHlink></a:clrScheme><a:fontScheme name="Test"><a:majorFont>${set(fonts.majorFont ?? 'Calibri Light')}</a:majorFont><a:minorFont>${set(fonts.minorFont ?? 'Calibri')}</a:minorFont></a:fontScheme></a:themeElements></a:theme>`,
  );
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The separator and continuation-separator notes Word writes first in its notes parts (ids -1 and 0). */
export function noteSeparators(kind: 'footnote' | 'endnote'): string {
  return `<w:${kind} w:type="separator" w:id="-1"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:separator/></w:r></w:p></w:${kind}><w:${kind} w:type="continuationSeparator" w:id="0"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:continuationSeparator/></w:r></w:p></w:${kind}>`;
}

/** One note as Word writes it: a FootnoteText/EndnoteText paragraph starting with the note's own mark. */
export function note(kind: 'footnote' | 'endnote', id: string, text: string): string {
  const style = kind === 'footnote' ? 'Footnote' : 'Endnote';
  return `<w:${kind} w:id="${id}"><w:p><w:pPr><w:pStyle w:val="${style}Text"/></w:pPr><w:r><w:rPr><w:rStyle w:val="${style}Reference"/></w:rPr><w:${kind}Ref/></w:r><w:r><w:t xml:space="preserve"> ${escapeXml(text)}</w:t></w:r></w:p></w:${kind}>`;
}

/** A run holding a footnote or endnote reference in the FootnoteReference/EndnoteReference style. */
export function noteReference(kind: 'footnote' | 'endnote', id: string): string {
  const style = kind === 'footnote' ? 'Footnote' : 'Endnote';
  return `<w:r><w:rPr><w:rStyle w:val="${style}Reference"/></w:rPr><w:${kind}Reference w:id="${id}"/></w:r>`;
}

/** Word's note styles: 10 pt single-spaced note text, superscript reference marks. */
export const NOTE_STYLES = ['Footnote', 'Endnote']
  .map(
    (kind) =>
      `<w:style w:type="paragraph" w:styleId="${kind}Text"><w:name w:val="${kind.toLowerCase()} text"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="20"/></w:rPr></w:style><w:style w:type="character" w:styleId="${kind}Reference"><w:name w:val="${kind.toLowerCase()} reference"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>`,
  )
  .join('');

/** A paragraph with one run of text, optionally with paragraph and run properties. */
export function paragraph(text: string, options: { pPr?: string; rPr?: string } = {}): string {
  const pPr = options.pPr ? `<w:pPr>${options.pPr}</w:pPr>` : '';
  const rPr = options.rPr ? `<w:rPr>${options.rPr}</w:rPr>` : '';
  return `<w:p>${pPr}<w:r>${rPr}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
}

/**
 * A run holding a VML WordArt shape (Word's "Plain Text" shape type 136, its shapetype beside it,
 * as Word writes them): "Hello world!" in Arial Black fitted to a 410.25 × 108 pt box unless told.
 */
export function vmlWordArt(options: { style?: string; attributes?: string; inner?: string; textPath?: string } = {}) {
  const style = options.style ?? 'width:410.25pt;height:108pt';
  const textPath =
    options.textPath ??
    '<v:textpath style="font-family:&quot;Arial Black&quot;;v-text-kern:t" trim="t" fitpath="t" string="Hello world!"/>';
  return `<w:r><w:pict><v:shapetype id="_x0000_t136" coordsize="21600,21600" o:spt="136" adj="10800" path="m@7,l@8,m@5,21600l@6,21600e"><v:path textpathok="t" o:connecttype="custom"/><v:textpath on="t" fitshape="t"/></v:shapetype><v:shape id="_x0000_i1025" type="#_x0000_t136" style="${style}" ${options.attributes ?? ''}>${options.inner ?? ''}${textPath}</v:shape></w:pict></w:r>`;
}

// ---- A real PNG, small --------------------------------------------------------------------------

/** A valid RGB PNG of the given size (one colour), made the way any encoder would. */
export function tinyPng(width: number, height: number, rgb: [number, number, number] = [200, 30, 30]): Uint8Array {
  const rows = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const start = y * (1 + width * 3);
    rows[start] = 0; // filter type None
    for (let x = 0; x < width; x++) rows.set(rgb, start + 1 + x * 3);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  return concat([
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlibSync(rows)),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(strToU8(type), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
