/**
 * Inflate with a ceiling on the output, the one for every reader of deflated data: DOCX package
 * parts, PNG and TIFF pixels, PDF image and cross-reference streams. A deflate stream can expand about
 * 1032:1, so a few megabytes of IDAT or TIFF strip can claim gigabytes; fflate's one-shot functions
 * would allocate all of it. Here the input is fed to fflate's streaming decoder in small slices, so
 * each slice yields at most ~1032 × its length, and decoding stops as soon as the running total
 * passes the ceiling.
 */
import { Inflate, Unzlib } from 'fflate';
import { concatBytes } from './bytes';

/**
 * Input per step: 8 KiB (at most ~8 MiB of output), or more when the ceiling is large anyway, up
 * to 64 KiB. One step never yields more than about the ceiling (or 8 MiB) before the count is
 * checked. Every step costs fflate a fresh output buffer of at least 128 KiB and a copy of its
 * 32 KiB window, so steps much smaller than that made inflating twice as slow: this is the
 * validation of every PNG a document holds.
 */
function sliceSize(maxBytes: number): number {
  return Math.min(64 * 1024, Math.max(8 * 1024, Math.floor(maxBytes / 1032)));
}

/**
 * After a step that yielded this much, the next is 8 KiB: a stream that expands near
 * deflate's 1032:1 would otherwise have fflate allocate 64 MB per step, and twenty such PNGs took
 * the worker past a gigabyte of garbage.
 */
const DENSE_STEP_OUTPUT = 4 * 1024 * 1024;
const DENSE_SLICE = 8 * 1024;
const FIRST_SLICE = 16 * 1024;

class CeilingExceeded extends Error {}

/** Why inflating stopped short: the output passed the ceiling, or the data is not a whole deflate stream. */
export type InflateOutcome =
  | { ok: true; bytes: Uint8Array; length: number }
  | { ok: false; reason: 'ceiling' | 'corrupt' };

/**
 * Decompresses `data` (zlib-wrapped, RFC 1950, or raw deflate, RFC 1951), stopping as soon as the
 * output passes `maxBytes`, and says why when it fails (the DOCX package reader tells a part over
 * its budget from a damaged one). With `keep: false` the output is only counted (validation
 * without holding the pixels).
 */
export function inflateWithin(
  data: Uint8Array,
  maxBytes: number,
  options: { format?: 'zlib' | 'raw'; keep?: boolean } = {},
): InflateOutcome {
  const keep = options.keep ?? true;
  const parts: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  let stepOutput = 0;
  const onData = (chunk: Uint8Array, final: boolean): void => {
    total += chunk.length;
    stepOutput += chunk.length;
    if (total > maxBytes) throw new CeilingExceeded();
    if (keep && chunk.length > 0) parts.push(chunk);
    if (final) ended = true;
  };
  const stream = options.format === 'raw' ? new Inflate(onData) : new Unzlib(onData);
  if (data.length === 0) return { ok: false, reason: 'corrupt' };
  try {
    // The first step is small, so that even it cannot yield more than 16 MiB.
    let slice = Math.min(FIRST_SLICE, sliceSize(maxBytes));
    for (let offset = 0; offset < data.length; ) {
      const end = Math.min(offset + slice, data.length);
      stepOutput = 0;
      stream.push(data.subarray(offset, end), end === data.length);
      offset = end;
      // Bytes after the end of the deflate stream are ignored, as zlib does.
      if (ended) break;
      slice = stepOutput > DENSE_STEP_OUTPUT ? DENSE_SLICE : sliceSize(maxBytes);
    }
  } catch (error) {
    // CeilingExceeded, or fflate's "invalid block type" / "unexpected EOF" and the like.
    return { ok: false, reason: error instanceof CeilingExceeded ? 'ceiling' : 'corrupt' };
  }
  if (!ended) return { ok: false, reason: 'corrupt' };
  if (!keep) return { ok: true, bytes: new Uint8Array(0), length: total };
  if (parts.length === 1 && parts[0]) return { ok: true, bytes: parts[0], length: total };
  return { ok: true, bytes: concatBytes(parts), length: total };
}

/**
 * `inflateWithin` for readers to whom any failure is the same: the output, or undefined when the
 * stream is corrupt, truncated, or would produce more than `maxBytes`.
 */
export function boundedInflate(
  data: Uint8Array,
  maxBytes: number,
  options: { format?: 'zlib' | 'raw'; keep?: boolean } = {},
): { bytes: Uint8Array; length: number } | undefined {
  const outcome = inflateWithin(data, maxBytes, options);
  return outcome.ok ? { bytes: outcome.bytes, length: outcome.length } : undefined;
}
