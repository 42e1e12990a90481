/**
 * The DOCX writer: a document model as a WordprocessingML package (ECMA-376 Part 1, in an Open
 * Packaging Conventions ZIP, Part 2), written directly as OOXML: the model already speaks its
 * vocabulary. Styles are the markup styles part (src/engine/read/markup/markup-styles.ts) verbatim; every
 * paragraph and run names its style and writes only the direct formatting that makes the
 * model's resolved properties out of it, so reading the package back gives the same model.
 * See docs/engine.md "One pipeline".
 */

import type { DocumentModel } from '../../model';
import { type DeflatedEntry, deflateEntry, MARKUP_STYLES_XML, type ZipOutputEntry, zipEntries } from '../../read';
import { blocksXml } from './block-writer';
import { appPropertiesXml, corePropertiesXml } from './core-properties-xml';
import { headerFooterReferencesXml, type StoryParts } from './header-footer-writer';
import { PART_NAMESPACES } from './namespaces';
import { notesXml } from './notes-writer';
import { numberingXml } from './numbering-writer';
import {
  addRelationship,
  CONTENT_TYPES,
  contentTypesXml,
  RELATIONSHIP_TYPES,
  type Relationship,
  relationshipsPartName,
  relationshipsXml,
} from './package-parts';
import { sectionPropertiesXml } from './section-writer';
import { settingsXml } from './settings-xml';
import { newDocumentContext, type PartWriteContext } from './write-context';
import { XML_DECLARATION } from './xml-escape';

const utf8 = new TextEncoder();
const strToU8 = (text: string): Uint8Array => utf8.encode(text);

const DOCUMENT_PART = 'word/document.xml';
const STYLES_PART = 'word/styles.xml';

/**
 * The styles part is the same constant in every package (MARKUP_STYLES_XML): deflated once per
 * isolate, on first use, and its bytes shared read-only by every package written after. One
 * entry, never replaced; a failed attempt is forgotten, so the next call tries again.
 */
let stylesPartDeflated: Promise<DeflatedEntry> | undefined;
function deflatedStylesPart(): Promise<DeflatedEntry> {
  if (stylesPartDeflated === undefined) {
    const attempt = deflateEntry(strToU8(MARKUP_STYLES_XML));
    stylesPartDeflated = attempt;
    attempt.catch(() => {
      if (stylesPartDeflated === attempt) stylesPartDeflated = undefined;
    });
  }
  return stylesPartDeflated;
}

export async function writeDocx(model: DocumentModel): Promise<Uint8Array> {
  const doc = newDocumentContext(model);
  // Parts in the order they are written; [Content_Types].xml goes before them all (below).
  const parts: ZipOutputEntry[] = [];
  const overrides: { partName: string; contentType: string }[] = [];
  const addPart = (name: string, xml: string, contentType?: string, relationships?: Relationship[]) => {
    parts.push({ name, bytes: strToU8(xml) });
    if (contentType) overrides.push({ partName: `/${name}`, contentType });
    if (relationships && relationships.length > 0) {
      parts.push({ name: relationshipsPartName(name), bytes: strToU8(relationshipsXml(relationships)) });
    }
  };

  // The body first: writing it registers the media, links and header parts it refers to.
  const body: PartWriteContext = { doc, relationships: [] };
  const stories: StoryParts = { parts: [], byBlocks: new Map() };
  addRelationship(body.relationships, RELATIONSHIP_TYPES.styles, 'styles.xml');
  addRelationship(body.relationships, RELATIONSHIP_TYPES.settings, 'settings.xml');
  let content = '';
  model.sections.forEach((section, index) => {
    const sectPr = sectionPropertiesXml(section, headerFooterReferencesXml(section, body, stories));
    const isLast = index === model.sections.length - 1;
    // Earlier sections end in their last paragraph's pPr; the last one closes the body (§17.6.17).
    content += blocksXml(section.blocks, body, isLast ? {} : { sectionProperties: sectPr });
    if (isLast) content += sectPr;
  });
  if (model.sections.length === 0) content = '<w:p/><w:sectPr/>';

  const lists = model.lists ?? {};
  if (doc.numIds.size > 0) {
    addRelationship(body.relationships, RELATIONSHIP_TYPES.numbering, 'numbering.xml');
    addPart('word/numbering.xml', numberingXml(lists, doc.numIds, doc.continuationNumIds), CONTENT_TYPES.numbering);
  }
  const hasFootnotes = doc.noteIds.footnote.size > 0;
  const hasEndnotes = doc.noteIds.endnote.size > 0;
  if (hasFootnotes) {
    const part: PartWriteContext = { doc, relationships: [] };
    addRelationship(body.relationships, RELATIONSHIP_TYPES.footnotes, 'footnotes.xml');
    const xml = notesXml('footnote', model.notes.footnotes, part);
    addPart('word/footnotes.xml', xml, CONTENT_TYPES.footnotes, part.relationships);
  }
  if (hasEndnotes) {
    const part: PartWriteContext = { doc, relationships: [] };
    addRelationship(body.relationships, RELATIONSHIP_TYPES.endnotes, 'endnotes.xml');
    const xml = notesXml('endnote', model.notes.endnotes, part);
    addPart('word/endnotes.xml', xml, CONTENT_TYPES.endnotes, part.relationships);
  }
  for (const story of stories.parts) addPart(story.name, story.xml, CONTENT_TYPES[story.kind], story.relationships);

  addPart(
    DOCUMENT_PART,
    // w:background comes before w:body (CT_Document, ECMA-376 Part 1 §17.2.1).
    `${XML_DECLARATION}<w:document ${PART_NAMESPACES}>${model.background ? `<w:background w:color="${model.background}"/>` : ''}<w:body>${content}</w:body></w:document>`,
    CONTENT_TYPES.document,
    body.relationships,
  );
  parts.push({ name: STYLES_PART, deflated: await deflatedStylesPart() });
  overrides.push({ partName: `/${STYLES_PART}`, contentType: CONTENT_TYPES.styles });
  addPart(
    'word/settings.xml',
    settingsXml(model.settings, { footnotes: hasFootnotes, endnotes: hasEndnotes }, model.background !== undefined),
    CONTENT_TYPES.settings,
  );
  for (const media of doc.media.parts) parts.push({ name: media.name, bytes: media.bytes, store: true });
  addPart('docProps/core.xml', corePropertiesXml(model.properties), CONTENT_TYPES.core);
  addPart('docProps/app.xml', appPropertiesXml(), CONTENT_TYPES.app);
  const packageRelationships: Relationship[] = [];
  addRelationship(packageRelationships, RELATIONSHIP_TYPES.officeDocument, DOCUMENT_PART);
  addRelationship(packageRelationships, RELATIONSHIP_TYPES.coreProperties, 'docProps/core.xml');
  addRelationship(packageRelationships, RELATIONSHIP_TYPES.extendedProperties, 'docProps/app.xml');
  parts.push({ name: '_rels/.rels', bytes: strToU8(relationshipsXml(packageRelationships)) });

  // [Content_Types].xml first, as readers that stream the archive expect (Part 2 §10.1.2).
  // The XML parts are deflated by the runtime's zlib (zip-writer.ts); media are already
  // compressed: stored, not deflated again.
  return zipEntries([{ name: '[Content_Types].xml', bytes: strToU8(contentTypesXml(overrides)) }, ...parts]);
}
