/**
 * Reads an indirect object as it stood at a given revision (ISO 32000-1 §7.5.6: the newest
 * revision at or before it that lists the object wins), from its file offset (§7.3.10) or from an
 * object stream (§7.5.7). Values keep their byte spans in the buffer they came from (the file, or
 * an object stream's decoded data), and a canonical text of each value lets objects written with
 * different white space be compared. Bounded and never throwing: anything unreadable is a problem.
 */

import { toHex } from '../../crypto';
import { bytesEqual } from '../../kit';
import { readStreamObject } from './pdf-revisions';
import { stringBytes } from './pdf-string';
import { type PdfValue, readInteger, readObjectHeader, readValue } from './pdf-syntax';
import type { RevisionScan } from './revision-types';
import { decodeStreamData } from './xref-stream';

/** Decoded object stream bytes for one comparison. */
const INFLATE_BUDGET = 64 * 1024 * 1024;
/** Objects one object stream may declare (§7.5.7 /N). */
const MAX_STREAM_OBJECTS = 1_000_000;

export type ObjectState =
  | { kind: 'object'; value: PdfValue; buffer: Uint8Array; streamData: Uint8Array | undefined }
  | { kind: 'absent' }
  | { kind: 'problem'; problem: string };

interface DecodedObjectStream {
  data: Uint8Array;
  first: number;
  offsets: number[];
}

export class ObjectReader {
  private readonly budget = { remaining: INFLATE_BUDGET };
  private readonly objectStreams = new Map<string, DecodedObjectStream | string>();

  private readonly pdf: Uint8Array;
  private readonly scan: RevisionScan;

  constructor(pdf: Uint8Array, scan: RevisionScan) {
    this.pdf = pdf;
    this.scan = scan;
  }

  /** The document catalog of revision `index` (§7.7.2): the dictionary its trailer's /Root names. */
  catalog(index: number): Map<string, PdfValue> | undefined {
    const rootNum = this.scan.revisions[index]?.root?.num;
    const state = rootNum === undefined ? undefined : this.read(rootNum, index);
    return state?.kind === 'object' && state.value.kind === 'dict' ? state.value.entries : undefined;
  }

  /**
   * A dictionary value, direct or through a reference as of revision `index` (§7.3.10), with the
   * buffer its strings' spans point into (undefined for a direct one: the caller's buffer).
   */
  dictAt(
    value: PdfValue | undefined,
    index: number,
  ): { entries: Map<string, PdfValue>; buffer: Uint8Array | undefined } | undefined {
    if (value?.kind === 'dict') return { entries: value.entries, buffer: undefined };
    if (value?.kind !== 'ref') return undefined;
    const state = this.read(value.num, index);
    return state.kind === 'object' && state.value.kind === 'dict'
      ? { entries: state.value.entries, buffer: state.buffer }
      : undefined;
  }

  /** Object `num` as of revision `index` (0 = the original). */
  read(num: number, index: number): ObjectState {
    for (let i = Math.min(index, this.scan.revisions.length - 1); i >= 0; i--) {
      const entry = this.scan.revisions[i]?.entries.get(num);
      if (!entry) continue;
      if (entry.kind === 'free') return { kind: 'absent' };
      if (entry.kind === 'offset') return this.readAtOffset(num, entry.offset);
      return this.readCompressed(num, entry.streamObject, entry.index, i);
    }
    return { kind: 'absent' };
  }

  private readAtOffset(num: number, offset: number): ObjectState {
    const { pdf } = this;
    if (offset >= pdf.length) return { kind: 'problem', problem: `object ${num} is past the end of the file` };
    const header = readObjectHeader(pdf, offset);
    if (!header || header.num !== num)
      return { kind: 'problem', problem: `object ${num} is not at its cross-reference offset ${offset}` };
    const value = readValue(pdf, header.bodyStart);
    if (!value) return { kind: 'problem', problem: `object ${num} cannot be read` };
    let streamData: Uint8Array | undefined;
    if (value.kind === 'dict') {
      const scratch: string[] = [];
      const stream = readStreamObject(pdf, header.bodyStart, scratch);
      if (stream) streamData = stream.data;
    }
    return { kind: 'object', value, buffer: pdf, streamData };
  }

  /** An object inside object stream `streamNum` (§7.5.7): /N pairs of numbers, then objects from /First. */
  private readCompressed(num: number, streamNum: number, index: number, revisionIndex: number): ObjectState {
    const key = `${streamNum}@${revisionIndex}`;
    let decoded = this.objectStreams.get(key);
    if (decoded === undefined) {
      // Marked before decoding, so an object stream said to be inside itself ends here.
      this.objectStreams.set(key, `object stream ${streamNum} is inside an object stream`);
      decoded = this.decodeObjectStream(streamNum, revisionIndex);
      this.objectStreams.set(key, decoded);
    }
    if (typeof decoded === 'string') return { kind: 'problem', problem: decoded };
    const start = decoded.offsets[index];
    if (start === undefined) return { kind: 'problem', problem: `object ${num} is not in object stream ${streamNum}` };
    const value = readValue(decoded.data, decoded.first + start);
    if (!value) return { kind: 'problem', problem: `object ${num} in object stream ${streamNum} cannot be read` };
    return { kind: 'object', value, buffer: decoded.data, streamData: undefined };
  }

  private decodeObjectStream(streamNum: number, revisionIndex: number): DecodedObjectStream | string {
    const state = this.read(streamNum, revisionIndex);
    if (state.kind !== 'object' || state.value.kind !== 'dict' || !state.streamData || state.buffer !== this.pdf)
      return `object stream ${streamNum} cannot be read`;
    const stored = this.scan.decryptedStreams?.get(state.streamData.byteOffset - this.pdf.byteOffset);
    const decoded = decodeStreamData(state.value, stored ?? state.streamData, this.budget);
    if ('problem' in decoded) return `object stream ${streamNum}: ${decoded.problem.replace('xref stream', 'stream')}`;
    const n = state.value.entries.get('N');
    const first = state.value.entries.get('First');
    if (n?.kind !== 'number' || first?.kind !== 'number' || n.value > MAX_STREAM_OBJECTS)
      return `object stream ${streamNum} has no usable /N and /First`;
    const offsets: number[] = [];
    let at = 0;
    for (let i = 0; i < n.value; i++) {
      const objectNumber = readInteger(decoded.bytes, at);
      const offset = objectNumber && readInteger(decoded.bytes, objectNumber.end);
      if (!offset) return `object stream ${streamNum} has a malformed header`;
      offsets.push(offset.value);
      at = offset.end;
    }
    return { data: decoded.bytes, first: first.value, offsets };
  }
}

/**
 * A canonical text of a value: white space, the spelling of references and of strings
 * normalised, names as written. Two objects with equal canonical text (and equal stream data) are equal.
 */
export function canonical(value: PdfValue | undefined, buffer: Uint8Array): string {
  if (!value) return 'null';
  switch (value.kind) {
    case 'number':
      return String(value.value);
    case 'name':
      return `/${value.value}`;
    case 'ref':
      return `${value.num} ${value.gen} R`;
    case 'keyword':
      return value.value;
    case 'string':
      // By the bytes it stands for: (a) and <61> are one string (§7.3.4).
      return `<${toHex(stringBytes(value, buffer))}>`;
    case 'array':
      return `[${value.items.map((item) => canonical(item, buffer)).join(' ')}]`;
    case 'dict': {
      const keys = [...value.entries.keys()].sort();
      return `<<${keys.map((key) => `/${key} ${canonical(value.entries.get(key), buffer)}`).join(' ')}>>`;
    }
  }
}

export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return bytesEqual(a, b);
}
