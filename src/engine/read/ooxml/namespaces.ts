/**
 * The conventional prefix of each namespace the reader understands, by URI. The XML tree rewrites
 * element and attribute names to these prefixes, so the rest of the reader matches plain strings
 * such as "w:p" whatever prefixes a writer chose (a default namespace, "ns0:", …). Transitional and
 * Strict URIs (ECMA-376 Part 1, §8.1 / Part 4; Strict in Part 1 Annex A) share a prefix: their
 * vocabularies are the same for everything read here.
 */
export const CONVENTIONAL_PREFIXES: ReadonlyMap<string, string> = new Map([
  ['http://schemas.openxmlformats.org/wordprocessingml/2006/main', 'w'],
  ['http://purl.oclc.org/ooxml/wordprocessingml/main', 'w'],
  ['http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'r'],
  ['http://purl.oclc.org/ooxml/officeDocument/relationships', 'r'],
  ['http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing', 'wp'],
  ['http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing', 'wp'],
  ['http://schemas.openxmlformats.org/drawingml/2006/main', 'a'],
  ['http://purl.oclc.org/ooxml/drawingml/main', 'a'],
  ['http://schemas.openxmlformats.org/drawingml/2006/picture', 'pic'],
  ['http://purl.oclc.org/ooxml/drawingml/picture', 'pic'],
  ['http://schemas.openxmlformats.org/drawingml/2006/chart', 'c'],
  ['http://purl.oclc.org/ooxml/drawingml/chart', 'c'],
  ['http://schemas.openxmlformats.org/drawingml/2006/diagram', 'dgm'],
  ['http://purl.oclc.org/ooxml/drawingml/diagram', 'dgm'],
  ['http://schemas.openxmlformats.org/officeDocument/2006/math', 'm'],
  ['http://purl.oclc.org/ooxml/officeDocument/math', 'm'],
  ['http://schemas.openxmlformats.org/markup-compatibility/2006', 'mc'],
  ['urn:schemas-microsoft-com:vml', 'v'],
  ['urn:schemas-microsoft-com:office:office', 'o'],
  ['urn:schemas-microsoft-com:office:word', 'w10'],
  ['http://schemas.microsoft.com/office/word/2010/wordprocessingShape', 'wps'],
  ['http://schemas.microsoft.com/office/word/2010/wordprocessingGroup', 'wpg'],
  ['http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas', 'wpc'],
  ['http://schemas.microsoft.com/office/word/2010/wordprocessingInk', 'wpi'],
  ['http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing', 'wp14'],
  ['http://schemas.microsoft.com/office/word/2010/wordml', 'w14'],
  ['http://schemas.microsoft.com/office/word/2012/wordml', 'w15'],
  ['http://schemas.microsoft.com/office/drawing/2010/main', 'a14'],
  // Package parts (content types, relationships) use a default namespace: no prefix.
  ['http://schemas.openxmlformats.org/package/2006/content-types', ''],
  ['http://schemas.openxmlformats.org/package/2006/relationships', ''],
  ['http://schemas.openxmlformats.org/package/2006/metadata/core-properties', 'cp'],
  ['http://purl.org/dc/elements/1.1/', 'dc'],
  ['http://purl.org/dc/terms/', 'dcterms'],
]);
