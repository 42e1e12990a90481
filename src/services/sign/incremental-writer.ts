import { type PDFContext, type PDFDict, PDFName, PDFNumber, type PDFObject, type PDFRef, PDFStream } from 'pdf-lib';
import { concatBytes } from '../../kit';
import type { OriginalXref } from './pdf-source';

/**
 * An incremental update (ISO 32000-1 §7.5.6): the original bytes stay as they are, and the new
 * and changed objects follow with a cross-reference section of their own and a trailer whose
 * /Prev points at the original's newest section. Earlier signatures cover the original bytes,
 * so this is what keeps them valid.
 *
 * pdf-lib has no incremental save, so "what changed" is decided here: a snapshot of every object
 * right after loading (its identity and its serialisation), compared after the edits. Any object
 * that is new, replaced or serialises differently is written; nothing else is.
 */
export interface ObjectSnapshot {
  readonly entries: ReadonlyMap<string, { object: PDFObject; text: string }>;
}

export function snapshotObjects(context: PDFContext): ObjectSnapshot {
  const entries = new Map<string, { object: PDFObject; text: string }>();
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    entries.set(ref.tag, { object, text: fingerprint(object) });
  }
  return { entries };
}

/**
 * A stream's data is compared by identity (loaded streams never change their bytes in place,
 * and serialising every stream twice would double the memory); its dictionary by text.
 */
function fingerprint(object: PDFObject): string {
  return object instanceof PDFStream ? object.dict.toString() : object.toString();
}

export function changedObjects(context: PDFContext, snapshot: ObjectSnapshot): [PDFRef, PDFObject][] {
  const changed: [PDFRef, PDFObject][] = [];
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const before = snapshot.entries.get(ref.tag);
    if (!before || before.object !== object || before.text !== fingerprint(object)) changed.push([ref, object]);
  }
  return changed.sort(([a], [b]) => a.objectNumber - b.objectNumber || a.generationNumber - b.generationNumber);
}

export interface WrittenUpdate {
  /** The original bytes followed by the update. */
  file: Uint8Array;
  /** Where each written object starts in `file`, by ref tag ("12 0 R"). */
  offsets: Map<string, number>;
}

/**
 * Writes the original followed by the update. The xref section is a stream when the original's
 * newest one is (§7.5.8), else a classic table (§7.5.4); the trailer repeats /Root, /Info and /ID
 * (the first /ID element must not change, §14.4) and adds /Prev.
 */
export function writeIncrementalUpdate(
  original: Uint8Array,
  context: PDFContext,
  objects: [PDFRef, PDFObject][],
  xref: OriginalXref,
): WrittenUpdate {
  const out = new ByteSink();
  out.bytes(original);
  // The update must start on a new line (§7.5.6: appended after the original "%%EOF").
  const last = original[original.length - 1];
  if (last !== 0x0a && last !== 0x0d) out.text('\n');

  const offsets = new Map<string, number>();
  const entries: { objectNumber: number; generation: number; offset: number }[] = [];
  for (const [ref, object] of objects) {
    offsets.set(ref.tag, out.length);
    entries.push({ objectNumber: ref.objectNumber, generation: ref.generationNumber, offset: out.length });
    out.text(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
    out.object(object);
    out.text('\nendobj\n');
  }

  const highest = Math.max(xref.size - 1, context.largestObjectNumber, ...entries.map((e) => e.objectNumber));
  const trailer = context.obj({}) as PDFDict;
  const { Root, Info, ID } = context.trailerInfo;
  if (Root) trailer.set(PDFName.of('Root'), Root);
  if (Info) trailer.set(PDFName.of('Info'), Info);
  if (ID) trailer.set(PDFName.of('ID'), ID);
  trailer.set(PDFName.of('Prev'), PDFNumber.of(xref.startxref));

  const xrefOffset = out.length;
  if (xref.isStream) {
    // The xref stream is an object too and lists itself (§7.5.8.3).
    const streamNumber = highest + 1;
    entries.push({ objectNumber: streamNumber, generation: 0, offset: xrefOffset });
    const data = xrefStreamData(entries);
    trailer.set(PDFName.of('Type'), PDFName.of('XRef'));
    trailer.set(PDFName.of('Size'), PDFNumber.of(streamNumber + 1));
    trailer.set(
      PDFName.of('Index'),
      context.obj(subsections(entries).flatMap((run) => [run.start, run.entries.length])),
    );
    trailer.set(PDFName.of('W'), context.obj([1, 4, 2]));
    trailer.set(PDFName.of('Length'), PDFNumber.of(data.length));
    out.text(`${streamNumber} 0 obj\n`);
    out.object(trailer);
    out.text('\nstream\n');
    out.bytes(data);
    out.text('\nendstream\nendobj\n');
  } else {
    trailer.set(PDFName.of('Size'), PDFNumber.of(highest + 1));
    out.text('xref\n');
    for (const run of subsections(entries)) {
      out.text(`${run.start} ${run.entries.length}\n`);
      // Each entry is exactly 20 bytes, ending in a two-character EOL (§7.5.4).
      for (const entry of run.entries) {
        out.text(`${String(entry.offset).padStart(10, '0')} ${String(entry.generation).padStart(5, '0')} n\r\n`);
      }
    }
    out.text('trailer\n');
    out.object(trailer);
    out.text('\n');
  }
  out.text(`startxref\n${xrefOffset}\n%%EOF\n`);
  return { file: out.finish(), offsets };
}

type Entry = { objectNumber: number; generation: number; offset: number };

/** Consecutive object numbers form one subsection (§7.5.4, and /Index in §7.5.8.2). */
function subsections(entries: Entry[]): { start: number; entries: Entry[] }[] {
  const sorted = [...entries].sort((a, b) => a.objectNumber - b.objectNumber);
  const runs: { start: number; entries: Entry[] }[] = [];
  for (const entry of sorted) {
    const run = runs[runs.length - 1];
    if (run && run.start + run.entries.length === entry.objectNumber) run.entries.push(entry);
    else runs.push({ start: entry.objectNumber, entries: [entry] });
  }
  return runs;
}

/** Type-1 entries (in use, at an offset), /W [1 4 2], in /Index order (§7.5.8.3, Table 18). */
function xrefStreamData(entries: Entry[]): Uint8Array {
  const ordered = subsections(entries).flatMap((run) => run.entries);
  const data = new Uint8Array(ordered.length * 7);
  ordered.forEach((entry, i) => {
    const at = i * 7;
    data[at] = 1;
    data[at + 1] = (entry.offset >>> 24) & 0xff;
    data[at + 2] = (entry.offset >>> 16) & 0xff;
    data[at + 3] = (entry.offset >>> 8) & 0xff;
    data[at + 4] = entry.offset & 0xff;
    data[at + 5] = (entry.generation >>> 8) & 0xff;
    data[at + 6] = entry.generation & 0xff;
  });
  return data;
}

/** Collects chunks and their total length, so offsets are known while writing. */
class ByteSink {
  private readonly chunks: Uint8Array[] = [];
  length = 0;

  bytes(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  text(text: string): void {
    const chunk = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) chunk[i] = text.charCodeAt(i) & 0xff;
    this.bytes(chunk);
  }

  object(object: PDFObject): void {
    const chunk = new Uint8Array(object.sizeInBytes());
    object.copyBytesInto(chunk, 0);
    this.bytes(chunk);
  }

  finish(): Uint8Array {
    return concatBytes(this.chunks);
  }
}
