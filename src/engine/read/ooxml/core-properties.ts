import type { CoreProperties } from '../../model';
import { child, type XmlElement } from './xml-tree';

/**
 * docProps/core.xml (ECMA-376 Part 2, §11: Dublin Core elements in the core-properties part).
 * Only non-empty values are kept; dates stay ISO 8601 as written (W3CDTF, dcterms:W3CDTF).
 */
export function readCoreProperties(root: XmlElement | undefined): CoreProperties {
  const properties: CoreProperties = {};
  if (root === undefined) return properties;
  const text = (name: string) => {
    const value = child(root, name)?.text.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const title = text('dc:title');
  const author = text('dc:creator');
  const subject = text('dc:subject');
  const keywords = text('cp:keywords');
  const created = text('dcterms:created');
  const modified = text('dcterms:modified');
  if (title !== undefined) properties.title = title;
  if (author !== undefined) properties.author = author;
  if (subject !== undefined) properties.subject = subject;
  if (keywords !== undefined) properties.keywords = keywords;
  if (created !== undefined && isDate(created)) properties.created = created;
  if (modified !== undefined && isDate(modified)) properties.modified = modified;
  return properties;
}

function isDate(value: string): boolean {
  return !Number.isNaN(Date.parse(value));
}
