/**
 * Every revision of a PDF, oldest first. A revision is the original file or one incremental update
 * (ISO 32000-1 §7.5.6): body, cross-reference section, trailer, `startxref`, `%%EOF` (§7.5.5).
 * Revisions are found by their %%EOF markers (each preceded by `startxref` and an offset), and the
 * /Prev chain from the newest is then checked against them. Offsets are never trusted: a section
 * not at its stated offset is looked for a few bytes around it, with a problem recorded; loops
 * are bounded and /Prev cycles detected.
 */

import { stringBytes } from './pdf-string';
import {
  dictInteger,
  indexOfAscii,
  keywordAt,
  lastIndexOfAscii,
  type PdfValue,
  readInteger,
  readObjectHeader,
  readValue,
  skipWhite,
} from './pdf-syntax';
import type { Revision, RevisionScan, XrefEntry, XrefKind } from './revision-types';
import { decodeStreamData, xrefStreamEntries } from './xref-stream';

export type { Revision, RevisionScan, XrefEntry, XrefKind } from './revision-types';

const MAX_REVISIONS = 1000;
/** How far before %%EOF `startxref` may be (the offset and a line or two of slack). */
const STARTXREF_WINDOW = 1024;
/** How far from a stated offset a damaged file's xref section is looked for. */
const OFFSET_SLACK = 32;
/** Entries in one xref table, whatever its subsection headers claim. */
const MAX_TABLE_ENTRIES = 8_000_000;

/**
 * Inflated xref stream bytes for the whole scan: a hostile file could point a thousand revisions
 * at a thousand maximal streams; a real file's xref streams total a few megabytes.
 */
const INFLATE_BUDGET = 64 * 1024 * 1024;

/** Per-scan state (no module-level state): the inflate budget left, and sections already read by stated offset. */
interface ScanContext {
  pdf: Uint8Array;
  inflateBudget: { remaining: number };
  sections: Map<number, { section: XrefSection | undefined; problems: string[] }>;
}

interface XrefSection {
  kind: XrefKind;
  offset: number;
  trailer: PdfValue;
  entries: Map<number, XrefEntry>;
}

export function findRevisions(pdf: Uint8Array): RevisionScan {
  const problems: string[] = [];
  const revisions: Revision[] = [];
  let from = 0;
  let previousEnd = 0;
  const context: ScanContext = { pdf, inflateBudget: { remaining: INFLATE_BUDGET }, sections: new Map() };
  for (;;) {
    const marker = indexOfAscii(pdf, '%%EOF', from);
    if (marker < 0) break;
    if (revisions.length >= MAX_REVISIONS) {
      problems.push(`more than ${MAX_REVISIONS} revisions; the rest are ignored`);
      break;
    }
    from = marker + 5;
    const revision = readRevision(context, marker, previousEnd);
    if (revision) {
      revisions.push(revision);
      previousEnd = revision.end;
    }
  }
  if (revisions.length === 0) problems.push('no %%EOF preceded by startxref: not a complete PDF');
  else if (revisions.length > 0 && hasContentAfter(pdf, previousEnd)) {
    problems.push(`${pdf.length - previousEnd} bytes after the last %%EOF`);
  }
  checkPrevChain(pdf, revisions, problems);
  return { revisions, problems };
}

function hasContentAfter(pdf: Uint8Array, end: number): boolean {
  for (let i = end; i < pdf.length; i++) {
    const b = pdf[i];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0x00) return true;
  }
  return false;
}

/** The revision ending at the %%EOF at `marker`, or undefined when no `startxref` precedes it. */
function readRevision(context: ScanContext, marker: number, previousEnd: number): Revision | undefined {
  const { pdf } = context;
  const startxrefAt = lastIndexOfAscii(pdf, 'startxref', Math.max(previousEnd, marker - STARTXREF_WINDOW), marker);
  // A %%EOF without startxref is text inside some stream or a stray comment, not a revision end.
  if (startxrefAt < 0) return undefined;
  const problems: string[] = [];
  let end = marker + 5;
  // The end-of-line after %%EOF belongs to the revision (§7.5.5); writers use CR, LF or CR LF.
  if (pdf[end] === 0x0d) end++;
  if (pdf[end] === 0x0a) end++;
  if (end === marker + 5 && end === pdf.length) problems.push('no end-of-line after the final %%EOF');
  const stated = readInteger(pdf, startxrefAt + 9);
  const revision: Revision = {
    end,
    eofEnd: marker + 5,
    startxref: stated?.value,
    xrefOffset: undefined,
    xrefKind: undefined,
    prev: undefined,
    root: undefined,
    size: undefined,
    encrypted: false,
    info: undefined,
    unknownTrailerRefs: new Map(),
    entries: new Map(),
    problems,
  };
  if (!stated) {
    problems.push('startxref is not followed by an offset');
    return revision;
  }
  // Many revisions may state one offset (hostile or damaged): each section is read once.
  let cached = context.sections.get(stated.value);
  if (!cached) {
    const sectionProblems: string[] = [];
    cached = { section: findSection(context, stated.value, sectionProblems), problems: sectionProblems };
    context.sections.set(stated.value, cached);
  }
  problems.push(...cached.problems);
  const section = cached.section;
  // A linearized file's first-page trailer often says `startxref 0` (§F.3.4 lets readers ignore
  // it): its %%EOF ends no revision of its own; the section belongs to the last one (below).
  if (!section && stated.value === 0) return undefined;
  if (!section) return revision;
  revision.xrefOffset = section.offset;
  revision.xrefKind = section.kind;
  revision.entries = section.entries;
  revision.prev = dictInteger(section.trailer, 'Prev');
  revision.size = dictInteger(section.trailer, 'Size');
  const trailer = section.trailer.kind === 'dict' ? section.trailer.entries : new Map<string, PdfValue>();
  const root = trailer.get('Root');
  if (root?.kind === 'ref') revision.root = { num: root.num, gen: root.gen };
  else problems.push('trailer has no /Root reference');
  if (revision.size === undefined) problems.push('trailer has no /Size');
  revision.encrypted = trailer.has('Encrypt');
  const encrypt = trailer.get('Encrypt');
  if (encrypt) revision.encrypt = encrypt;
  const id = trailer.get('ID');
  const first = id?.kind === 'array' ? id.items[0] : undefined;
  if (first?.kind === 'string') revision.id = stringBytes(first, pdf);
  const info = trailer.get('Info');
  if (info?.kind === 'ref') revision.info = info.num;
  revision.unknownTrailerRefs = new Map(
    [...trailer].filter(([key, value]) => !TRAILER_KEYS.has(key) && holdsRef(value)),
  );
  mergeLinearizedSections(context, revision, previousEnd, problems);
  return revision;
}

/** Trailer keys of ISO 32000-2 Table 15, xref stream dictionary keys of Table 17 (§7.5.8.2), and /DocChecksum. */
const TRAILER_KEYS = new Set([
  'Size',
  'Prev',
  'Root',
  'Encrypt',
  'Info',
  'ID',
  'XRefStm',
  'Type',
  'W',
  'Index',
  'Length',
  'Filter',
  'DecodeParms',
  'F',
  'FFilter',
  'FDecodeParms',
  'DL',
  'DocChecksum',
]);

function holdsRef(value: PdfValue, depth = 0): boolean {
  if (value.kind === 'ref') return true;
  if (depth > 8) return false;
  if (value.kind === 'array') return value.items.some((item) => holdsRef(item, depth + 1));
  if (value.kind === 'dict') return [...value.entries.values()].some((item) => holdsRef(item, depth + 1));
  return false;
}

/**
 * A linearized file's last `startxref` points to the first-page section at the front of the file,
 * whose /Prev leads forward to the main section written after it (ISO 32000-1 §F.3.4, §F.3.9):
 * one revision with two sections. Sections the /Prev chain reaches inside this revision's own
 * bytes are merged into it (the newer section's entries win, §7.5.6); the chain stops at the first
 * one outside them, which is the previous revision's.
 */
function mergeLinearizedSections(
  context: ScanContext,
  revision: Revision,
  previousEnd: number,
  problems: string[],
): void {
  const seen = new Set<number>([revision.xrefOffset as number]);
  let merged: Map<number, XrefEntry> | undefined;
  while (revision.prev !== undefined && revision.prev >= previousEnd && revision.prev < revision.end) {
    const offset = revision.prev;
    if (seen.has(offset) || seen.size > 16) {
      problems.push(`/Prev cycle at offset ${offset}`);
      return;
    }
    seen.add(offset);
    let cached = context.sections.get(offset);
    if (!cached) {
      const sectionProblems: string[] = [];
      cached = { section: readSection(context, offset, sectionProblems), problems: sectionProblems };
      context.sections.set(offset, cached);
    }
    problems.push(...cached.problems);
    const section = cached.section;
    if (!section) {
      problems.push(`no xref section at /Prev ${offset}`);
      return;
    }
    merged ??= new Map(revision.entries);
    for (const [num, entry] of section.entries) if (!merged.has(num)) merged.set(num, entry);
    revision.prev = dictInteger(section.trailer, 'Prev');
  }
  if (merged) revision.entries = merged;
}

/**
 * The xref section at `offset`, or near it in a damaged file (a problem is recorded then):
 * first the exact offset, then the nearest within OFFSET_SLACK bytes either way.
 */
function findSection(context: ScanContext, offset: number, problems: string[]): XrefSection | undefined {
  const { pdf } = context;
  if (offset < pdf.length) {
    const exact = readSection(context, offset, problems);
    if (exact) return exact;
  }
  for (let delta = 1; delta <= OFFSET_SLACK; delta++) {
    for (const at of [offset - delta, offset + delta]) {
      if (at < 0 || at >= pdf.length) continue;
      // Only at a token start: the keyword `xref` or an object number after white space.
      if (at > 0 && !isBoundary(pdf[at - 1])) continue;
      const scratch: string[] = [];
      const near = readSection(context, at, scratch);
      if (near) {
        problems.push(`startxref ${offset} is off by ${at - offset}; the xref section is at ${at}`);
        problems.push(...scratch);
        return near;
      }
    }
  }
  problems.push(`no xref section at startxref ${offset}`);
  return undefined;
}

function isBoundary(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00 || b === 0x3e;
}

function readSection(context: ScanContext, offset: number, problems: string[]): XrefSection | undefined {
  const { pdf } = context;
  if (keywordAt(pdf, offset, 'xref')) return readTable(context, offset, problems);
  const header = readObjectHeader(pdf, offset);
  if (!header || skipWhite(pdf, offset) !== offset) return undefined;
  const stream = readStreamObject(pdf, header.bodyStart, problems);
  if (!stream) return undefined;
  const type = stream.dict.kind === 'dict' ? stream.dict.entries.get('Type') : undefined;
  if (type?.kind !== 'name' || type.value !== 'XRef') return undefined;
  const decoded = decodeStreamData(stream.dict, stream.data, context.inflateBudget);
  if ('problem' in decoded) {
    problems.push(decoded.problem);
    return { kind: 'stream', offset, trailer: stream.dict, entries: new Map() };
  }
  return {
    kind: 'stream',
    offset,
    trailer: stream.dict,
    entries: xrefStreamEntries(stream.dict, decoded.bytes, problems),
  };
}

/** A stream object's dictionary and raw data (§7.3.8); /Length must be direct here. */
export function readStreamObject(
  pdf: Uint8Array,
  bodyStart: number,
  problems: string[],
): { dict: PdfValue; data: Uint8Array } | undefined {
  const dict = readValue(pdf, bodyStart);
  if (dict?.kind !== 'dict') return undefined;
  let at = skipWhite(pdf, dict.end);
  if (!keywordAt(pdf, at, 'stream')) return undefined;
  at += 6;
  // "stream" is followed by CR LF or LF (§7.3.8.1); a lone CR is tolerated.
  if (pdf[at] === 0x0d) at++;
  if (pdf[at] === 0x0a) at++;
  const length = dictInteger(dict, 'Length');
  if (length !== undefined && at + length <= pdf.length) {
    const after = skipWhite(pdf, at + length);
    if (keywordAt(pdf, after, 'endstream')) return { dict, data: pdf.subarray(at, at + length) };
  }
  const endstream = indexOfAscii(pdf, 'endstream', at);
  if (endstream < 0) {
    problems.push(`stream at ${bodyStart} has no endstream`);
    return undefined;
  }
  problems.push(`stream at ${bodyStart} has a wrong /Length`);
  let end = endstream;
  if (pdf[end - 1] === 0x0a) end--;
  if (pdf[end - 1] === 0x0d) end--;
  return { dict, data: pdf.subarray(at, Math.max(at, end)) };
}

/** A classic xref table (§7.5.4) and its trailer (§7.5.5); hybrid when /XRefStm is present. */
function readTable(context: ScanContext, offset: number, problems: string[]): XrefSection | undefined {
  const { pdf } = context;
  const entries = new Map<number, XrefEntry>();
  let at = offset + 4;
  let total = 0;
  for (;;) {
    at = skipWhite(pdf, at);
    if (keywordAt(pdf, at, 'trailer')) break;
    const first = readInteger(pdf, at);
    const count = first && readInteger(pdf, first.end);
    if (!first || !count) {
      problems.push(`xref table at ${offset} is malformed near ${at}`);
      return undefined;
    }
    at = skipWhite(pdf, count.end);
    for (let i = 0; i < count.value; i++) {
      if (++total > MAX_TABLE_ENTRIES) {
        problems.push('xref table has too many entries');
        return undefined;
      }
      // Each entry is "nnnnnnnnnn ggggg n" plus a two-byte EOL: 20 bytes (§7.5.4). Some writers
      // use one-byte EOLs; the fields are read as tokens so either is accepted.
      const field1 = readInteger(pdf, at);
      const field2 = field1 && readInteger(pdf, field1.end);
      const typeAt = field2 ? skipWhite(pdf, field2.end) : -1;
      const type = pdf[typeAt];
      if (!field1 || !field2 || (type !== 0x6e && type !== 0x66)) {
        problems.push(`xref table at ${offset} has a bad entry for object ${first.value + i}`);
        return undefined;
      }
      const num = first.value + i;
      if (type === 0x6e) entries.set(num, { kind: 'offset', offset: field1.value, generation: field2.value });
      else entries.set(num, { kind: 'free', nextFree: field1.value, generation: field2.value });
      at = typeAt + 1;
    }
  }
  const trailer = readValue(pdf, at + 7);
  if (trailer?.kind !== 'dict') {
    problems.push(`xref table at ${offset} has no trailer dictionary`);
    return undefined;
  }
  const xrefStm = dictInteger(trailer, 'XRefStm');
  if (xrefStm === undefined) return { kind: 'table', offset, trailer, entries };
  // Hybrid-reference file (§7.5.8.4): the stream adds entries (compressed objects) the table lacks.
  const header = xrefStm < pdf.length ? readObjectHeader(pdf, xrefStm) : undefined;
  const stream = header && readStreamObject(pdf, header.bodyStart, problems);
  if (!stream) problems.push(`no xref stream at /XRefStm ${xrefStm}`);
  else {
    const decoded = decodeStreamData(stream.dict, stream.data, context.inflateBudget);
    if ('problem' in decoded) problems.push(decoded.problem);
    else {
      for (const [num, entry] of xrefStreamEntries(stream.dict, decoded.bytes, problems)) {
        if (!entries.has(num)) entries.set(num, entry);
      }
    }
  }
  return { kind: 'hybrid', offset, trailer, entries };
}

/**
 * Follows /Prev from the newest revision: each should lead to the previous revision's section.
 * Bounded by the revision count, with cycles detected by offset.
 */
function checkPrevChain(pdf: Uint8Array, revisions: Revision[], problems: string[]): void {
  const byOffset = new Map<number, number>();
  revisions.forEach((revision, i) => {
    if (revision.xrefOffset !== undefined) byOffset.set(revision.xrefOffset, i);
  });
  const seen = new Set<number>();
  let index = revisions.length - 1;
  for (let steps = 0; index >= 0 && steps <= MAX_REVISIONS; steps++) {
    const revision = revisions[index] as Revision;
    if (revision.xrefOffset !== undefined) seen.add(revision.xrefOffset);
    const prev = revision.prev;
    if (prev === undefined) {
      if (index > 0) problems.push(`revision ${index + 1} has no /Prev, but ${index} revisions precede it`);
      return;
    }
    if (seen.has(prev)) {
      problems.push(`/Prev cycle at offset ${prev}`);
      return;
    }
    const target = byOffset.get(prev);
    if (target === undefined) {
      problems.push(
        prev >= pdf.length
          ? `revision ${index + 1}: /Prev ${prev} is past the end of the file`
          : `revision ${index + 1}: /Prev ${prev} is not the xref section of an earlier revision`,
      );
      return;
    }
    if (target !== index - 1)
      problems.push(`revision ${index + 1}: /Prev leads to revision ${target + 1}, not ${index}`);
    if (target >= index) {
      problems.push(`revision ${index + 1}: /Prev points forward`);
      return;
    }
    index = target;
  }
}
