import { inflateSync } from 'fflate';
import { ApiError } from '../../../errors';
import { inflateWithin } from '../../../kit';
import { describeBytes, type Limits, tooComplex } from '../../../limits';
import {
  canInflateNatively,
  DamagedZipError,
  entryData,
  inflateExactly,
  readZipDirectory,
  type ZipEntry,
} from '../zip';
import { PartError } from './part-error';
import { type ChildStream, DEFAULT_XML_LIMITS, parseXml, type XmlElement, type XmlParseOptions } from './xml-tree';

/**
 * The Open Packaging Conventions layer (ECMA-376 Part 2): parts by name, content types,
 * relationships. Parts are inflated only when asked for, once, and every byte inflated counts
 * against the package's budget (all parts, and the XML parts among them: src/limits.ts), so a ZIP
 * bomb is refused before it can exhaust memory. Sizes the ZIP directory declares are never taken
 * on trust: a part is inflated into buffers of the size its data really has, counted as they
 * fill, and stopped the moment it passes the budget or its declared size.
 * The large parts the reader will want may be inflated natively beforehand (readPartsAhead); the
 * reader then takes them as read, counting them against the same budget.
 */

/** The budgets a package is read under (src/limits.ts). */
export type PackageLimits = Pick<Limits, 'inflatedBytes' | 'inflatedXmlBytes'>;

export interface Relationship {
  id: string;
  /** The full type URI; compare with `relationshipKind` to cover Transitional and Strict. */
  type: string;
  /** A part name (no leading slash) for internal targets, the URI as written for external ones. */
  target: string;
  external: boolean;
}

export interface OpcPackage {
  /** Whether a part exists (part names compare case-insensitively, Part 2 §9.1.1.2). */
  hasPart(partName: string): boolean;
  /** The part's bytes, inflated once and cached; undefined when there is no such part. */
  readPart(partName: string): Uint8Array | undefined;
  /** The part parsed as XML, once; undefined when there is no such part. Throws PartError. */
  readXml(partName: string): XmlElement | undefined;
  /**
   * The part parsed with `stream` taking the children it names as they close (xml-tree.ts
   * ChildStream); the tree returned holds what was not taken. Not cached: read it once.
   */
  streamXml(partName: string, stream: ChildStream): XmlElement | undefined;
  /** The relationships whose source is `partName` ('' for the package), from its .rels part. */
  relationships(partName: string): Relationship[];
  contentType(partName: string): string | undefined;
}

/**
 * The last segment of a relationship type URI: "officeDocument", "styles", "header", "image"…
 * Transitional (http://schemas.openxmlformats.org/officeDocument/2006/relationships/…) and Strict
 * (http://purl.oclc.org/ooxml/officeDocument/relationships/…) types share it.
 */
export function relationshipKind(relationship: Relationship): string {
  const slash = relationship.type.lastIndexOf('/');
  return relationship.type.slice(slash + 1);
}

/**
 * Deflate cannot expand data by more than 1032:1 (a 258-byte match per 2 bits, RFC 1951), so an
 * entry whose compressed size times this cannot exceed the remaining budget is inflated in one
 * call (into a buffer fflate grows to the real size, never one of the declared size); larger ones
 * go through kit's bounded inflate, in slices counted as they go.
 */
const MAX_DEFLATE_RATIO = 1032;

/**
 * Markup the reader never looks at, left out of the trees to save time and memory: proofing and
 * revision-save marks, comment ranges, kerning, latent styles. On a large document these are a third of all
 * elements and attributes. (w:szCs, w:bCs, w:iCs are read: complex-script text is set with them;
 * w:snapToGrid, w:autoSpaceDE and w:autoSpaceDN too: East Asian layout follows them.)
 */
const XML_OPTIONS: XmlParseOptions = {
  ...DEFAULT_XML_LIMITS,
  ignoreElements: new Set([
    'w:proofErr',
    'w:noProof',
    'w:lastRenderedPageBreak',
    'w:bookmarkEnd',
    'w:commentRangeStart',
    'w:commentRangeEnd',
    'w:permStart',
    'w:permEnd',
    'w:rsids',
    'w:kern',
    'w:adjustRightInd',
    // Latent styles only say how Word's UI offers built-in styles (§17.7.2.5): nothing prints.
    'w:latentStyles',
  ]),
  ignoreAttribute: (name) =>
    name.charCodeAt(0) === 0x77 /* w */ &&
    (name.startsWith('w:rsid') || name === 'w14:paraId' || name === 'w14:textId'),
  // Run, paragraph, cell and row properties are written out again for every run, paragraph, cell
  // and row, a few hundred distinct ones in a large document: two thirds of its bytes.
  shareElements: new Set(['w:rPr', 'w:pPr', 'w:tcPr', 'w:trPr']),
};

/**
 * Opens the package. `warn` hears about broken relationship and content-type parts, which read as
 * empty: a package with damaged bookkeeping still has content worth showing.
 */
export function openPackage(
  bytes: Uint8Array,
  limits: PackageLimits,
  warn: (message: string) => void = () => {},
  partsAhead?: PartsAhead,
): OpcPackage {
  const byName = partEntries(readEntries(bytes));

  let inflated = 0;
  let inflatedXml = 0;
  const partCache = new Map<string, Uint8Array>();
  const xmlCache = new Map<string, XmlElement>();
  const relsCache = new Map<string, Relationship[]>();
  let contentTypes: { defaults: Map<string, string>; overrides: Map<string, string> } | undefined;

  const readPart = (partName: string): Uint8Array | undefined => {
    const key = normalize(partName);
    const cached = partCache.get(key);
    if (cached) return cached;
    const entry = byName.get(key);
    if (entry === undefined) return undefined;
    const xml = isXmlPart(key);
    // The tighter of the two budgets this part counts against.
    const budget =
      xml && limits.inflatedXmlBytes - inflatedXml < limits.inflatedBytes - inflated
        ? { left: limits.inflatedXmlBytes - inflatedXml, cap: limits.inflatedXmlBytes, of: 'XML parts' }
        : { left: limits.inflatedBytes - inflated, cap: limits.inflatedBytes, of: 'parts' };
    // Taken out of the map, so that a parsed part's bytes are released with the cache entry.
    const ahead = partsAhead?.get(entry.localHeaderOffset);
    if (ahead) partsAhead?.delete(entry.localHeaderOffset);
    if (ahead && ahead.length > budget.left) throw bombError(budget.cap, budget.of, entry.name);
    const data = ahead ?? inflateEntry(bytes, entry, budget.left, () => bombError(budget.cap, budget.of, entry.name));
    inflated += data.length;
    if (xml) inflatedXml += data.length;
    partCache.set(key, data);
    return data;
  };

  const readXml = (partName: string): XmlElement | undefined => {
    const key = normalize(partName);
    const cached = xmlCache.get(key);
    if (cached) return cached;
    const data = readPart(partName);
    if (data === undefined) return undefined;
    const tree = parseXml(data, displayName(byName.get(key), partName), XML_OPTIONS);
    xmlCache.set(key, tree);
    // The bytes are no longer needed once parsed; keep memory to the tree.
    partCache.delete(key);
    return tree;
  };

  const streamXml = (partName: string, stream: ChildStream): XmlElement | undefined => {
    const key = normalize(partName);
    const data = readPart(partName);
    if (data === undefined) return undefined;
    // The bytes go as soon as the parser is done with them, like readXml's.
    partCache.delete(key);
    return parseXml(data, displayName(byName.get(key), partName), { ...XML_OPTIONS, stream });
  };

  /** A bookkeeping part: broken means empty, with a warning; only fatal problems throw. */
  const readQuietly = (partName: string, consequence: string): XmlElement | undefined => {
    try {
      return readXml(partName);
    } catch (error) {
      if (!(error instanceof PartError) || error.fatal) throw error;
      warn(`${error.message} ${consequence}`);
      return undefined;
    }
  };

  const readContentTypes = () => {
    if (contentTypes) return contentTypes;
    contentTypes = { defaults: new Map(), overrides: new Map() };
    const root = readQuietly('[Content_Types].xml', 'Content types are guessed from part names.');
    for (const item of root?.children ?? []) {
      const type = item.attributes.ContentType;
      if (type === undefined) continue;
      if (item.name === 'Default' && item.attributes.Extension !== undefined) {
        contentTypes.defaults.set(item.attributes.Extension.toLowerCase(), type);
      } else if (item.name === 'Override' && item.attributes.PartName !== undefined) {
        contentTypes.overrides.set(normalize(item.attributes.PartName), type);
      }
    }
    return contentTypes;
  };

  return {
    hasPart: (partName) => byName.has(normalize(partName)),
    readPart,
    readXml,
    streamXml,
    relationships(partName) {
      const key = normalize(partName);
      const cached = relsCache.get(key);
      if (cached) return cached;
      const relsName = relationshipsPartName(partName);
      const root = readQuietly(relsName, 'Pictures, links and parts it names are left out.');
      const relationships: Relationship[] = [];
      for (const item of root?.children ?? []) {
        const { Id: id, Type: type, Target: target, TargetMode: mode } = item.attributes;
        if (item.name !== 'Relationship' || id === undefined || type === undefined || target === undefined) continue;
        const external = mode === 'External';
        relationships.push({ id, type, external, target: external ? target : resolveTarget(partName, target) });
      }
      relsCache.set(key, relationships);
      return relationships;
    },
    contentType(partName) {
      const types = readContentTypes();
      const key = normalize(partName);
      const override = types.overrides.get(key);
      if (override) return override;
      const dot = key.lastIndexOf('.');
      return dot === -1 ? undefined : types.defaults.get(key.slice(dot + 1));
    },
  };
}

/** Part entries by lookup key: directories and duplicates skipped, the first of equivalent names wins. */
function partEntries(entries: readonly ZipEntry[]): Map<string, ZipEntry> {
  const byName = new Map<string, ZipEntry>();
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const key = normalize(entry.name);
    if (!byName.has(key)) byName.set(key, entry);
  }
  return byName;
}

/** Parts read ahead of the reader, keyed by where their ZIP entry's local header starts. */
export type PartsAhead = Map<number, Uint8Array>;

/**
 * Deflated parts whose compressed data is at least this long are inflated natively ahead of the
 * reader: below it, fflate's synchronous call is as fast as the asynchronous hop.
 */
const NATIVE_INFLATE_MIN_BYTES = 8 * 1024;

/**
 * The parts the DOCX reader will read anyway (XML parts and media), not embedded objects, the
 * glossary or custom XML, which it never opens: inflating them ahead would only cost memory.
 */
function readAhead(name: string): boolean {
  const key = name.toLowerCase();
  if (key.startsWith('word/glossary/') || key.startsWith('customxml/') || key.includes('/embeddings/')) return false;
  return key.endsWith('.xml') || key.includes('/media/');
}

/**
 * The parts the reader will want that are worth having before it runs: the large deflated ones,
 * inflated with the runtime's native zlib (native-inflate.ts), and the stored media, as they are
 * (so that images can be checked ahead too, image-resource.ts). openPackage takes them as read.
 * Declared sizes are held to the same budget the reader applies, and each output to its declared
 * size. Anything that cannot be done here (a damaged archive, an encrypted or corrupt part, a
 * runtime without native inflation) is left to the reader, which reports it exactly as it would
 * have; the result is only ever a cache.
 */
export async function readPartsAhead(bytes: Uint8Array, limits: PackageLimits): Promise<PartsAhead> {
  const ahead: PartsAhead = new Map();
  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(bytes);
  } catch {
    return ahead;
  }
  const native = canInflateNatively();
  let remaining = limits.inflatedBytes;
  let remainingXml = limits.inflatedXmlBytes;
  for (const entry of partEntries(entries).values()) {
    const xml = isXmlPart(entry.name.toLowerCase());
    if (entry.flags & 1 || !readAhead(entry.name) || entry.size > (xml ? Math.min(remaining, remainingXml) : remaining))
      continue;
    const stored = entry.method === 0 && entry.name.toLowerCase().includes('/media/');
    const large = native && entry.method === 8 && entry.compressedSize >= NATIVE_INFLATE_MIN_BYTES;
    if (!stored && !large) continue;
    let data: Uint8Array;
    try {
      data = entryData(bytes, entry);
    } catch {
      continue;
    }
    const part = stored
      ? data.length === entry.size
        ? data
        : undefined
      : await inflateExactly(data, 'deflate-raw', entry.size);
    if (!part) continue;
    ahead.set(entry.localHeaderOffset, part);
    remaining -= part.length;
    if (xml) remainingXml -= part.length;
  }
  return ahead;
}

function readEntries(bytes: Uint8Array): ZipEntry[] {
  const isZip = bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
  if (!isZip) {
    throw new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The document is not a DOCX file: a DOCX is a ZIP archive, and these bytes are not one.',
    );
  }
  try {
    return readZipDirectory(bytes);
  } catch (error) {
    if (error instanceof DamagedZipError) {
      throw new ApiError(
        'INVALID_DOCUMENT',
        `The document is a ZIP archive, but the archive is damaged (${error.message}), so it cannot be read as a DOCX. Save or export the file again and send the new copy.`,
      );
    }
    throw error;
  }
}

/**
 * The entry's bytes, at most `remaining` of them (else `overBudget()` is thrown) and at most the
 * size the directory declares (else the part is damaged).
 */
function inflateEntry(bytes: Uint8Array, entry: ZipEntry, remaining: number, overBudget: () => ApiError): Uint8Array {
  if (entry.flags & 1) {
    throw new PartError(`The part ${entry.name} is encrypted inside the ZIP archive and cannot be read.`, false);
  }
  let data: Uint8Array;
  try {
    data = entryData(bytes, entry);
  } catch (error) {
    if (error instanceof DamagedZipError) {
      throw new PartError(`The part ${entry.name} cannot be read: ${error.message}.`, false);
    }
    throw error;
  }
  if (entry.method === 0) {
    if (data.length > remaining) throw overBudget();
    return data;
  }
  if (entry.method !== 8) {
    throw new PartError(
      `The part ${entry.name} uses ZIP compression method ${entry.method}; only stored and deflated parts can be read.`,
      false,
    );
  }
  if (data.length === 0) return new Uint8Array(0);
  try {
    if (data.length * MAX_DEFLATE_RATIO + 1024 <= remaining) {
      // One call, into a buffer fflate grows as the data needs: the declared size is only a
      // claim, and a directory declaring 480 MB for a 2 KB part must not cost 480 MB. A longer
      // result than declared shows the directory lied, which a valid archive never does.
      const out = inflateSync(data);
      if (out.length > entry.size) throw new PartError(sizeMismatch(entry.name), false);
      return out;
    }
    return inflateCounting(data, entry, remaining, overBudget);
  } catch (error) {
    if (error instanceof PartError || error instanceof ApiError) throw error;
    throw corruptPart(entry.name);
  }
}

/**
 * Inflates under kit's ceiling, the smaller of the budget and the declared size, so it stops as
 * soon as the output passes either; then says which it passed (the budget first, as a ZIP bomb).
 */
function inflateCounting(data: Uint8Array, entry: ZipEntry, remaining: number, overBudget: () => ApiError): Uint8Array {
  const outcome = inflateWithin(data, Math.min(remaining, entry.size), { format: 'raw' });
  if (outcome.ok) return outcome.bytes;
  if (outcome.reason === 'corrupt') throw corruptPart(entry.name);
  if (remaining <= entry.size) throw overBudget();
  throw new PartError(sizeMismatch(entry.name), false);
}

function bombError(cap: number, of: string, name: string): ApiError {
  return tooComplex(
    `its ${of} expand to more than ${describeBytes(cap)} when decompressed (while reading ${name}); archives that inflate this much are refused as likely ZIP bombs`,
    describeBytes(cap),
  );
}

/** XML parts (and relationship parts, which are XML) count against the XML budget as well. */
function isXmlPart(key: string): boolean {
  return key.endsWith('.xml') || key.endsWith('.rels');
}

function corruptPart(name: string): PartError {
  return new PartError(`The part ${name} is corrupt: its compressed data cannot be decompressed.`, false);
}

function sizeMismatch(name: string): string {
  return `The part ${name} decompresses to more bytes than the ZIP directory declares; the archive is damaged or was tampered with.`;
}

/** ZIP item names and OPC part names ("/word/document.xml", percent-encoded) to one lookup key. */
function normalize(name: string): string {
  let key = name.startsWith('/') ? name.slice(1) : name;
  if (key.includes('%')) {
    try {
      key = decodeURIComponent(key);
    } catch {
      // Not valid percent-encoding: keep the name as written.
    }
  }
  if (key.includes('\\')) key = key.replaceAll('\\', '/');
  return key.toLowerCase();
}

function displayName(entry: ZipEntry | undefined, partName: string): string {
  return entry?.name ?? partName;
}

/** word/document.xml → word/_rels/document.xml.rels; '' (the package) → _rels/.rels (Part 2 §9.3.2). */
export function relationshipsPartName(partName: string): string {
  const name = partName.startsWith('/') ? partName.slice(1) : partName;
  const slash = name.lastIndexOf('/');
  return `${name.slice(0, slash + 1)}_rels/${name.slice(slash + 1)}.rels`;
}

/**
 * Resolves a relationship target against its source part (Part 2 §9.3.3: relative to the source's
 * folder; a leading '/' is from the package root), giving a part name without a leading slash.
 */
export function resolveTarget(sourcePart: string, target: string): string {
  const hash = target.indexOf('#');
  const path = hash === -1 ? target : target.slice(0, hash);
  const source = sourcePart.startsWith('/') ? sourcePart.slice(1) : sourcePart;
  const segments = path.startsWith('/') ? [] : source.split('/').slice(0, -1);
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.join('/');
}
