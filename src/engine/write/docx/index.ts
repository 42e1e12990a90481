/**
 * Model → DOCX (front door of src/engine/write/docx), and the XML escaping both writers share.
 */
export { writeDocx } from './docx-writer';
export { escapeAttribute, escapeText, xmlChars } from './xml-escape';
