/**
 * The namespace declarations of the story parts (document, headers, footers, notes): w for
 * WordprocessingML, r for relationship ids, wp for drawing placement (ECMA-376 Part 1 §20.4),
 * m for Office Math (§22.1).
 * DrawingML's a and pic are declared where they are used (image-parts.ts).
 */
export const PART_NAMESPACES = [
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"',
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"',
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"',
  'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"',
].join(' ');
