/**
 * docProps/core.xml (ECMA-376 Part 2 §11, Dublin Core) and docProps/app.xml (Part 1 §22.2,
 * extended properties).
 */
import type { CoreProperties } from '../../model';
import { escapeText, XML_DECLARATION } from './xml-escape';

/** ISO 8601 as W3CDTF (§11.1: dcterms dates are xsi:type dcterms:W3CDTF), or undefined if unreadable. */
export function w3cdtf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  return new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function corePropertiesXml(properties: CoreProperties): string {
  let fields = '';
  const text = (name: string, value: string | undefined) => {
    if (value !== undefined && value !== '') fields += `<${name}>${escapeText(value)}</${name}>`;
  };
  text('dc:title', properties.title);
  text('dc:subject', properties.subject);
  text('dc:creator', properties.author);
  text('cp:keywords', properties.keywords);
  for (const [name, value] of [
    ['dcterms:created', w3cdtf(properties.created)],
    ['dcterms:modified', w3cdtf(properties.modified)],
  ] as const) {
    if (value !== undefined) fields += `<${name} xsi:type="dcterms:W3CDTF">${value}</${name}>`;
  }
  return `${XML_DECLARATION}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${fields}</cp:coreProperties>`;
}

export function appPropertiesXml(): string {
  return `${XML_DECLARATION}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>Quire</Application></Properties>`;
}
