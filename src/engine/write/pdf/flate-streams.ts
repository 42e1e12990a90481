/**
 * FlateDecode streams (ISO 32000-1 §7.4.4) that the painter deflates itself: page contents, font
 * programs, ToUnicode CMaps and image samples, which are nearly all of the bytes it compresses.
 *
 * They are deflated with the runtime's CompressionStream('deflate') (zlib format, RFC 1950, as
 * FlateDecode reads it), which in workerd is native zlib, about twice as fast as fflate there
 * (pdf-lib's pako, pako-on-fflate.ts, still deflates its object streams, which are small).
 * That is asynchronous, so each stream's reference is handed out at once, for dictionaries and
 * pages to point at, and the stream is assigned to it when `done` resolves. The output is a
 * function of the input for a given runtime; where CompressionStream is missing, fflate does it.
 */
import { zlibSync } from 'fflate';
import type { PDFContext, PDFRef } from 'pdf-lib';

/** pdf-lib's LiteralObject, which it does not export. */
export type StreamDict = NonNullable<Parameters<PDFContext['stream']>[1]>;

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  if (typeof CompressionStream === 'undefined') return zlibSync(bytes, { level: 6 });
  // The bytes go to the compressor's writable side as one chunk: a Blob's stream piped through
  // it cost a Blob, a reader and a pipe per stream. A failure shows on the readable side too.
  const compressor = new CompressionStream('deflate');
  const writer = compressor.writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  return new Uint8Array(await new Response(compressor.readable).arrayBuffer());
}

/**
 * A zlib stream (RFC 1950) written chunk by chunk with the runtime's CompressionStream, its output
 * read as it comes: for data too large to hold whole before deflating (an image's planes). zlib
 * deflates without flushing between writes, so the bytes are those of one write of it all.
 * Undefined where the runtime has no CompressionStream.
 */
export function chunkedDeflate():
  | { write(chunk: Uint8Array): Promise<void>; finish(): Promise<Uint8Array>; abort(): void }
  | undefined {
  if (typeof CompressionStream === 'undefined') return undefined;
  const compressor = new CompressionStream('deflate');
  const writer = compressor.writable.getWriter();
  const output = new Response(compressor.readable).arrayBuffer();
  output.catch(() => {});
  return {
    async write(chunk) {
      await writer.ready;
      await writer.write(chunk);
    },
    async finish() {
      await writer.close();
      return new Uint8Array(await output);
    },
    abort() {
      writer.abort().catch(() => {});
    },
  };
}

export class FlateStreams {
  readonly context: PDFContext;
  /**
   * The streams are deflated one after another, not all at once: each CompressionStream holds
   * zlib's deflate state (about 256 KiB) until its output is read, and a long document's hundreds
   * of page streams in flight together cost more in memory traffic than the overlap saved (the
   * corpus: workerd's main thread 3.5% less CPU per pass, one at a time).
   */
  #last: Promise<void> = Promise.resolve();

  constructor(context: PDFContext) {
    this.context = context;
  }

  /** A reference to a FlateDecode stream of `bytes` with `dict`'s entries, written by `done`. */
  add(bytes: Uint8Array, dict: StreamDict = {}): PDFRef {
    const { context } = this;
    const ref = context.nextRef();
    this.#last = this.#last.then(async () => {
      context.assign(ref, context.stream(await deflate(bytes), { ...dict, Filter: 'FlateDecode' }));
    });
    return ref;
  }

  /** A reference to a FlateDecode stream whose data `deflated` already is (zlib format, RFC 1950). */
  addDeflated(deflated: Uint8Array, dict: StreamDict = {}): PDFRef {
    const { context } = this;
    const ref = context.nextRef();
    context.assign(ref, context.stream(deflated, { ...dict, Filter: 'FlateDecode' }));
    return ref;
  }

  /** Resolves once every stream added so far is written. */
  done(): Promise<void> {
    return this.#last;
  }
}
