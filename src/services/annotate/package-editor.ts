/**
 * A DOCX package edited in place (ECMA-376 Part 2, Open Packaging Conventions): parts are read
 * through the project's OPC reader (src/engine/read/ooxml/package-reader.ts: relationships, content types, and
 * one inflation budget for the whole package against ZIP bombs), edited as DOMs, and the archive
 * written again with every entry the edit did not touch copied as stored: same compressed bytes,
 * method, CRC-32 and size (APPNOTE.TXT §4.3.7, §4.4.5, §4.4.7; src/engine/read/zip/zip-writer.ts CopiedEntry).
 * Only changed and new parts are serialised and deflated anew.
 */

import {
  DamagedZipError,
  entryData,
  type OpcPackage,
  openPackage,
  type PackageLimits,
  type Relationship,
  readZipDirectory,
  relationshipsPartName,
  type ZipEntry,
  type ZipOutputEntry,
  zipEntries,
} from '../../engine';
import { ApiError } from '../../errors';
import { DEFAULT_LIMITS } from '../../limits';
import { type Document, elementChildren, parsePartXml, serializePartXml } from './ooxml-dom';

const RELATIONSHIPS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CONTENT_TYPES_NS = 'http://schemas.openxmlformats.org/package/2006/content-types';
const CONTENT_TYPES_PART = '[Content_Types].xml';

export interface PackageEditor {
  readonly opc: OpcPackage;
  /** Part names (as in the archive) in archive order. */
  partNames(): string[];
  /** The part's DOM, parsed once; later edits to it are written back by `finish`. */
  xml(partName: string): Document | undefined;
  /** Adds a new binary part (media) under a name not yet used; returns that name. */
  addPart(partName: string, bytes: Uint8Array): string;
  /**
   * Adds a new XML part under a name not yet used (its DOM, parsed from `bytes`, may be edited
   * until `finish`); returns that name and DOM.
   */
  addXmlPart(partName: string, bytes: Uint8Array): { name: string; document: Document };
  /**
   * Adds a relationship from `sourcePart` (creating its .rels part if missing); returns its id.
   * `external`: the target is a URI outside the package (Part 2 §9.3.2, TargetMode="External").
   */
  addRelationship(sourcePart: string, type: string, target: string, external?: boolean): string;
  /** Declares a content type Default for an extension, if none is declared yet (Part 2 §10.1.2.2). */
  ensureDefaultContentType(extension: string, contentType: string): void;
  /** Declares a content type Override for a part (Part 2 §10.1.2.3), replacing one it had. */
  setOverrideContentType(partName: string, contentType: string): void;
  /** The edited archive. */
  finish(): Promise<Uint8Array>;
}

export function openPackageEditor(bytes: Uint8Array, limits: PackageLimits = DEFAULT_LIMITS): PackageEditor {
  const entries = readEntries(bytes);
  const opc = openPackage(bytes, limits);
  const byKey = new Map(entries.map((entry) => [key(entry.name), entry]));
  const doms = new Map<string, Document>();
  const added = new Map<string, { name: string; bytes: Uint8Array }>();
  /** Names of XML parts the edit creates (relationship parts), by key. */
  const newXmlNames = new Map<string, string>();
  let relationshipCounter = 0;

  const exists = (name: string) => byKey.has(key(name)) || added.has(key(name)) || newXmlNames.has(key(name));
  const unusedName = (partName: string) => {
    const dot = partName.lastIndexOf('.');
    const stem = dot === -1 ? partName : partName.slice(0, dot);
    const extension = dot === -1 ? '' : partName.slice(dot);
    let name = partName;
    for (let number = 1; exists(name); number++) name = `${stem}-${number}${extension}`;
    return name;
  };

  const xml = (partName: string): Document | undefined => {
    const cached = doms.get(key(partName));
    if (cached) return cached;
    const data = opc.readPart(partName);
    if (data === undefined) return undefined;
    const document = parsePartXml(data, partName);
    doms.set(key(partName), document);
    return document;
  };

  const newXmlPart = (partName: string, text: string): Document => {
    const document = parsePartXml(new TextEncoder().encode(text), partName);
    doms.set(key(partName), document);
    newXmlNames.set(key(partName), partName);
    markChanged(document);
    return document;
  };

  return {
    opc,
    partNames: () => entries.filter((entry) => !entry.name.endsWith('/')).map((entry) => entry.name),
    xml,
    addPart(partName, data) {
      const name = unusedName(partName);
      added.set(key(name), { name, bytes: data });
      return name;
    },
    addXmlPart(partName, data) {
      const name = unusedName(partName);
      const document = parsePartXml(data, name);
      doms.set(key(name), document);
      newXmlNames.set(key(name), name);
      markChanged(document);
      return { name, document };
    },
    addRelationship(sourcePart, type, target, external) {
      const relsName = relationshipsPartName(sourcePart);
      const document =
        xml(relsName) ??
        newXmlPart(
          relsName,
          `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${RELATIONSHIPS_NS}"/>`,
        );
      const root = document.documentElement;
      if (!root) throw new ApiError('INVALID_DOCUMENT', `The part ${relsName} has no root element.`);
      const used = new Set(elementChildren(root).map((element) => element.getAttribute('Id')));
      let id: string;
      do id = `rIdQuire${++relationshipCounter}`;
      while (used.has(id));
      const relationship = document.createElementNS(RELATIONSHIPS_NS, 'Relationship');
      relationship.setAttribute('Id', id);
      relationship.setAttribute('Type', type);
      relationship.setAttribute('Target', target);
      if (external) relationship.setAttribute('TargetMode', 'External');
      root.appendChild(relationship);
      markChanged(document);
      return id;
    },
    ensureDefaultContentType(extension, contentType) {
      const document = xml(CONTENT_TYPES_PART);
      const root = document?.documentElement;
      if (!document || !root) throw new ApiError('INVALID_DOCUMENT', 'The package has no [Content_Types].xml part.');
      const declared = elementChildren(root).some(
        (element) => element.localName === 'Default' && element.getAttribute('Extension')?.toLowerCase() === extension,
      );
      if (declared) return;
      const item = document.createElementNS(CONTENT_TYPES_NS, 'Default');
      item.setAttribute('Extension', extension);
      item.setAttribute('ContentType', contentType);
      // Defaults before Overrides, as Word writes them (the schema allows either order).
      root.insertBefore(item, root.firstChild);
      markChanged(document);
    },
    setOverrideContentType(partName, contentType) {
      const document = xml(CONTENT_TYPES_PART);
      const root = document?.documentElement;
      if (!document || !root) throw new ApiError('INVALID_DOCUMENT', 'The package has no [Content_Types].xml part.');
      const name = `/${partName.replace(/^\//, '')}`;
      for (const element of elementChildren(root)) {
        if (element.localName === 'Override' && key(element.getAttribute('PartName') ?? '') === key(name)) {
          root.removeChild(element);
        }
      }
      const item = document.createElementNS(CONTENT_TYPES_NS, 'Override');
      item.setAttribute('PartName', name);
      item.setAttribute('ContentType', contentType);
      root.appendChild(item);
      markChanged(document);
    },
    async finish() {
      const output: ZipOutputEntry[] = [];
      const written = new Set<string>();
      for (const entry of entries) {
        const name = key(entry.name);
        if (written.has(name)) continue; // a duplicate name: the reader used the first one
        written.add(name);
        const document = doms.get(name);
        if (document && isChanged(document)) output.push({ name: entry.name, bytes: serializePartXml(document) });
        else output.push({ name: entry.name, copied: copied(bytes, entry) });
      }
      for (const [name, partName] of newXmlNames) {
        const document = doms.get(name);
        if (document && !written.has(name)) output.push({ name: partName, bytes: serializePartXml(document) });
      }
      // Media are compressed already and stored; XML parts copied from another package are deflated.
      for (const part of added.values()) {
        output.push({ name: part.name, bytes: part.bytes, store: !/\.(xml|rels|vml)$/i.test(part.name) });
      }
      return zipEntries(output);
    },
  };
}

/**
 * Parts are edited through their DOM; the editor marks a DOM as changed when it edits it, so
 * parts merely read (to discover fields) are copied untouched.
 */
const changed = new WeakSet<Document>();
export function markChanged(document: Document): void {
  changed.add(document);
}
function isChanged(document: Document): boolean {
  return changed.has(document);
}

function copied(bytes: Uint8Array, entry: ZipEntry) {
  return { method: entry.method, crc32: entry.crc32, size: entry.size, data: entryData(bytes, entry) };
}

function readEntries(bytes: Uint8Array): ZipEntry[] {
  try {
    const entries = readZipDirectory(bytes);
    const encrypted = entries.find((entry) => entry.flags & 1);
    if (encrypted) {
      throw new ApiError(
        'INVALID_DOCUMENT',
        `The part ${encrypted.name} is encrypted inside the ZIP archive and cannot be edited.`,
      );
    }
    return entries;
  } catch (error) {
    if (error instanceof DamagedZipError) {
      throw new ApiError(
        'INVALID_DOCUMENT',
        `The document is a ZIP archive, but the archive is damaged (${error.message}), so it cannot be read as a DOCX.`,
      );
    }
    throw error;
  }
}

/** Lookup key of a part name: no leading slash, case-insensitive (Part 2 §9.1.1.2). */
function key(name: string): string {
  return (name.startsWith('/') ? name.slice(1) : name).toLowerCase();
}

export type { Relationship };
