/**
 * DOCX → model (front door of src/engine/read/ooxml): the OPC package, the style cascade, units,
 * revisions, and the reader of every WordprocessingML story (ECMA-376 Part 1).
 */
export { readDocx } from './docx-reader';
export { checkImage, checkPngsAhead } from './image-resource';
export {
  type OpcPackage,
  openPackage,
  type PackageLimits,
  type Relationship,
  readPartsAhead,
  relationshipKind,
  relationshipsPartName,
} from './package-reader';
export type { ParagraphDelta } from './paragraph-properties';
export { PartError } from './part-error';
export { REVISION_MODES, type RevisionMode } from './read-context';
export type { RunDelta } from './run-properties';
export { type ParagraphContext, readStyleSheet, StyleCascade, type StyleSheet } from './style-cascade';
export { DEFAULT_THEME_FONTS } from './theme-fonts';
export {
  type Bounds,
  clamp,
  EIGHTHS_PER_POINT,
  EMU_PER_POINT,
  FONT_SIZE,
  HALF_POINTS_PER_POINT,
  OFFSET,
  TWIPS_PER_POINT,
} from './units';
export { DEFAULT_XML_LIMITS, decodeXmlBytes, parseXml, type XmlParseOptions } from './xml-tree';
