/**
 * The package's plumbing (ECMA-376 Part 2, Open Packaging Conventions): [Content_Types].xml
 * (§10.1.2) and relationship parts (§9.3). Relationship ids are per source part: each part
 * that refers to others keeps its own list.
 */
import { escapeAttribute, XML_DECLARATION } from './xml-escape';

const OFFICE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export const RELATIONSHIP_TYPES = {
  officeDocument: `${OFFICE_RELATIONSHIPS}/officeDocument`,
  coreProperties: 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties',
  extendedProperties: `${OFFICE_RELATIONSHIPS}/extended-properties`,
  styles: `${OFFICE_RELATIONSHIPS}/styles`,
  numbering: `${OFFICE_RELATIONSHIPS}/numbering`,
  settings: `${OFFICE_RELATIONSHIPS}/settings`,
  footnotes: `${OFFICE_RELATIONSHIPS}/footnotes`,
  endnotes: `${OFFICE_RELATIONSHIPS}/endnotes`,
  header: `${OFFICE_RELATIONSHIPS}/header`,
  footer: `${OFFICE_RELATIONSHIPS}/footer`,
  image: `${OFFICE_RELATIONSHIPS}/image`,
  hyperlink: `${OFFICE_RELATIONSHIPS}/hyperlink`,
} as const;

const WORDML_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml';

/** Content types of the parts the writer makes, by part name (leading slash, §10.1.2.2.3). */
export const CONTENT_TYPES = {
  document: `${WORDML_CONTENT_TYPE}.document.main+xml`,
  styles: `${WORDML_CONTENT_TYPE}.styles+xml`,
  numbering: `${WORDML_CONTENT_TYPE}.numbering+xml`,
  settings: `${WORDML_CONTENT_TYPE}.settings+xml`,
  footnotes: `${WORDML_CONTENT_TYPE}.footnotes+xml`,
  endnotes: `${WORDML_CONTENT_TYPE}.endnotes+xml`,
  header: `${WORDML_CONTENT_TYPE}.header+xml`,
  footer: `${WORDML_CONTENT_TYPE}.footer+xml`,
  core: 'application/vnd.openxmlformats-package.core-properties+xml',
  app: 'application/vnd.openxmlformats-officedocument.extended-properties+xml',
} as const;

export interface Relationship {
  id: string;
  type: string;
  /** Relative to the source part's folder, or an absolute URI when external. */
  target: string;
  external: boolean;
}

/**
 * Adds a relationship to `list` (or finds the same one) and gives its id. Ids are rId1, rId2…
 * in the order first asked for.
 */
export function addRelationship(list: Relationship[], type: string, target: string, external = false): string {
  const existing = list.find((r) => r.type === type && r.target === target && r.external === external);
  if (existing) return existing.id;
  return appendRelationship(list, type, target, external);
}

/** Adds a relationship the caller knows `list` lacks (no search), and gives its id. */
export function appendRelationship(list: Relationship[], type: string, target: string, external = false): string {
  const id = `rId${list.length + 1}`;
  list.push({ id, type, target, external });
  return id;
}

export function relationshipsXml(list: readonly Relationship[]): string {
  const items = list
    .map(
      (r) =>
        `<Relationship Id="${r.id}" Type="${r.type}" Target="${escapeAttribute(r.target)}"${r.external ? ' TargetMode="External"' : ''}/>`,
    )
    .join('');
  return `${XML_DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
}

/** Defaults for the extensions every package here uses; an Override per XML part (§10.1.2.2). */
export function contentTypesXml(overrides: ReadonlyArray<{ partName: string; contentType: string }>): string {
  const defaults = [
    ['rels', 'application/vnd.openxmlformats-package.relationships+xml'],
    ['xml', 'application/xml'],
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
  ]
    .map(([extension, type]) => `<Default Extension="${extension}" ContentType="${type}"/>`)
    .join('');
  const items = overrides
    .map((o) => `<Override PartName="${escapeAttribute(o.partName)}" ContentType="${o.contentType}"/>`)
    .join('');
  return `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${defaults}${items}</Types>`;
}

/** The relationships part of a part: word/document.xml → word/_rels/document.xml.rels (§9.3.2). */
export function relationshipsPartName(partName: string): string {
  const slash = partName.lastIndexOf('/');
  return `${partName.slice(0, slash + 1)}_rels/${partName.slice(slash + 1)}.rels`;
}
