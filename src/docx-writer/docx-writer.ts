/**
 * The DOCX writer: a document model as a WordprocessingML package (ECMA-376 Part 1, in an Open
 * Packaging Conventions ZIP, Part 2), written directly as OOXML: the model already speaks its
 * vocabulary. Styles are the markup styles part (src/markup/markup-styles.ts) verbatim; every
 * paragraph and run names its style and writes only the direct formatting that makes the
 * model's resolved properties out of it, so reading the package back gives the same model.
 * See ../shared/docs/ENGINE.md "One pipeline".
 */

import { type ZipOptions, type Zippable, zipSync } from 'fflate';
import { MARKUP_STYLES_XML } from '../markup/markup-styles';
import type { DocumentModel } from '../model/document';
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
const XML_ZIP: ZipOptions = { level: 1 };
const STORED_ZIP: ZipOptions = { level: 0 };

const DOCUMENT_PART = 'word/document.xml';

export function writeDocx(model: DocumentModel): Uint8Array {
  const doc = newDocumentContext(model);
  const files: Record<string, Uint8Array> = {};
  const overrides: { partName: string; contentType: string }[] = [];
  const addPart = (name: string, xml: string, contentType?: string, relationships?: Relationship[]) => {
    files[name] = strToU8(xml);
    if (contentType) overrides.push({ partName: `/${name}`, contentType });
    if (relationships && relationships.length > 0) {
      files[relationshipsPartName(name)] = strToU8(relationshipsXml(relationships));
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
    `${XML_DECLARATION}<w:document ${PART_NAMESPACES}><w:body>${content}</w:body></w:document>`,
    CONTENT_TYPES.document,
    body.relationships,
  );
  addPart('word/styles.xml', MARKUP_STYLES_XML, CONTENT_TYPES.styles);
  addPart(
    'word/settings.xml',
    settingsXml(model.settings, { footnotes: hasFootnotes, endnotes: hasEndnotes }),
    CONTENT_TYPES.settings,
  );
  for (const media of doc.media.parts) files[media.name] = media.bytes;
  addPart('docProps/core.xml', corePropertiesXml(model.properties), CONTENT_TYPES.core);
  addPart('docProps/app.xml', appPropertiesXml(), CONTENT_TYPES.app);
  const packageRelationships: Relationship[] = [];
  addRelationship(packageRelationships, RELATIONSHIP_TYPES.officeDocument, DOCUMENT_PART);
  addRelationship(packageRelationships, RELATIONSHIP_TYPES.coreProperties, 'docProps/core.xml');
  addRelationship(packageRelationships, RELATIONSHIP_TYPES.extendedProperties, 'docProps/app.xml');
  files['_rels/.rels'] = strToU8(relationshipsXml(packageRelationships));

  // [Content_Types].xml first, as readers that stream the archive expect (Part 2 §10.1.2).
  // fflate at level 1: its fastest deflate. Level 6 spent half of writeDocx hashing and chaining
  // matches for packages about 16 % smaller; the XML parts still shrink several times over.
  // Media are already compressed: stored, not deflated again.
  const entries: Zippable = { '[Content_Types].xml': [strToU8(contentTypesXml(overrides)), XML_ZIP] };
  for (const [name, bytes] of Object.entries(files)) {
    entries[name] = [bytes, name.startsWith('word/media/') ? STORED_ZIP : XML_ZIP];
  }
  return zipSync(entries);
}
