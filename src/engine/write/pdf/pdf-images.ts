/**
 * Image XObjects (ISO 32000-1 §8.9.5), written without pdf-lib's PNG embedder: that one decodes
 * every PNG, expands it to 8-bit RGBA, splits off the alpha and deflates both again, which was the
 * largest single cost of painting a document with pictures.
 *
 * - A PNG without an alpha channel (greyscale, truecolour or indexed, at most 8 bits, not
 *   interlaced) goes in as it is: its IDAT data is a zlib stream of PNG-filtered scanlines, which
 *   is exactly what FlateDecode with /Predictor 15 reads (§7.4.4.4, Table 8: PNG prediction, the
 *   filter chosen per row). Indexed images keep their palette ([/Indexed /DeviceRGB hival lookup],
 *   §8.6.6.3). A tRNS that makes one colour (or one run of palette entries) fully transparent
 *   becomes a colour key /Mask (§8.9.6.4), which is what it means.
 * - A PNG with an alpha channel (8-bit greyscale or truecolour with alpha, not interlaced) is
 *   inflated once and its filtered scanlines split into colour and alpha: PNG filters predict each
 *   byte from the same byte of the pixel to the left and the row above, so each channel's bytes
 *   with the row's filter byte are themselves valid PNG-predicted rows. The colour is deflated
 *   with the same predictor; the alpha becomes an /SMask (§11.6.5.3) only if some pixel is not
 *   opaque. An indexed PNG whose tRNS has partial alpha keeps its indexed data as it is and gets
 *   an /SMask of its decoded alpha.
 * - Anything else (interlaced, 16 bits per sample, …) is decoded to 8-bit RGBA (png-decoder.ts)
 *   and written as RGB plus an /SMask when needed, as pdf-lib would have.
 * - JPEG stays with pdf-lib's embedJpg, which never decodes (a DCTDecode stream, §7.4.8).
 *
 * Every object is a function of the image bytes, so the output stays deterministic.
 */
import { type PDFContext, type PDFDocument, PDFHexString, type PDFRef } from 'pdf-lib';
import { boundedInflate, concatBytes } from '../../../kit';
import type { DecodedImage, ImageResource } from '../../model';
import { decodePngPixels, inflateExactly, type PngInfo, pngInflatedSize, readPngInfo, unfilter } from '../../read';
import { chunkedDeflate, type FlateStreams } from './flate-streams';
import { hexOfBytes } from './pdf-strings';

/** pdf-lib's LiteralObject, which it does not export. */
type PdfDict = NonNullable<Parameters<PDFContext['stream']>[1]>;

function pngPredictor(colors: number, bitsPerComponent: number, columns: number): PdfDict {
  return { Predictor: 15, Colors: colors, BitsPerComponent: bitsPerComponent, Columns: columns };
}

/** An image XObject whose contents are already encoded as the dictionary says. */
function imageStream(context: PDFContext, contents: Uint8Array, dict: PdfDict): PDFRef {
  return context.register(context.stream(contents, { Type: 'XObject', Subtype: 'Image', ...dict }));
}

/** An image XObject of samples to deflate (Filter /FlateDecode is added). */
function deflatedImage(streams: FlateStreams, samples: Uint8Array, dict: PdfDict): PDFRef {
  return streams.add(samples, { Type: 'XObject', Subtype: 'Image', ...dict });
}

/** The dictionary of an 8-bit DeviceGray soft mask (§11.6.5.3), of possibly PNG-predicted samples. */
function softMaskDict(width: number, height: number, predicted: boolean): PdfDict {
  return {
    Type: 'XObject',
    Subtype: 'Image',
    Width: width,
    Height: height,
    BitsPerComponent: 8,
    ColorSpace: 'DeviceGray',
    ...(predicted ? { DecodeParms: pngPredictor(1, 8, width) } : {}),
  };
}

/** An 8-bit DeviceGray soft mask (§11.6.5.3), of possibly PNG-predicted samples, to deflate. */
function softMask(streams: FlateStreams, width: number, height: number, samples: Uint8Array, predicted: boolean) {
  return streams.add(samples, softMaskDict(width, height, predicted));
}

function idatStream(info: PngInfo): Uint8Array {
  return info.idat.length === 1 ? (info.idat[0] as Uint8Array) : concatBytes(info.idat);
}

function sample16(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

/**
 * The colour key /Mask for a tRNS chunk (§8.9.6.4: ranges of raw sample values that are not
 * painted), null when there is nothing to mask, or undefined when tRNS needs a soft mask.
 */
function colourKeyMask(info: PngInfo): number[] | null | undefined {
  const trns = info.transparency;
  if (!trns) return null;
  const max = (1 << info.bitDepth) - 1;
  if (info.colorType === 0) {
    if (trns.length < 2) return null;
    const grey = sample16(trns, 0);
    return grey <= max ? [grey, grey] : null;
  }
  if (info.colorType === 2) {
    if (trns.length < 6) return null;
    const [r, g, b] = [sample16(trns, 0), sample16(trns, 2), sample16(trns, 4)];
    return r <= max && g <= max && b <= max ? [r, r, g, g, b, b] : null;
  }
  // Indexed: alpha per palette entry, 255 past the end of tRNS. One run of fully transparent
  // entries among opaque ones is a range of indices; anything else needs real alpha.
  let first = -1;
  let last = -1;
  for (let i = 0; i < trns.length; i++) {
    const alpha = trns[i] as number;
    if (alpha === 255) continue;
    if (alpha !== 0 || (last >= 0 && last !== i - 1)) return undefined;
    if (first < 0) first = i;
    last = i;
  }
  return first < 0 ? null : [first, last];
}

function colourSpace(info: PngInfo): PdfDict[string] {
  if (info.colorType === 0 || info.colorType === 4) return 'DeviceGray';
  if (info.colorType === 3) {
    const palette = info.palette as Uint8Array;
    return ['Indexed', 'DeviceRGB', palette.length / 3 - 1, PDFHexString.of(hexOfBytes(palette))];
  }
  return 'DeviceRGB';
}

/** The PNG's own IDAT stream as the colour samples, predictor and all. */
function passThroughDict(info: PngInfo): PdfDict {
  return {
    Width: info.width,
    Height: info.height,
    BitsPerComponent: info.bitDepth,
    ColorSpace: colourSpace(info),
    Filter: 'FlateDecode',
    DecodeParms: pngPredictor(info.channels, info.bitDepth, info.width),
  };
}

/**
 * The filtered scanlines, or undefined when the stream is corrupt or the wrong length: natively
 * when the runtime can (native-inflate.ts), else (or when zlib is stricter, e.g. about Adler-32)
 * with fflate, which decides as it always did.
 */
async function inflateIdat(info: PngInfo): Promise<Uint8Array | undefined> {
  const expected = pngInflatedSize(info);
  const stream = idatStream(info);
  const native = await inflateExactly(stream, 'deflate', expected);
  if (native) return native;
  const inflated = boundedInflate(stream, expected);
  return inflated && inflated.length === expected ? inflated.bytes : undefined;
}

/**
 * Splits PNG-filtered rows of 8-bit grey+alpha or RGBA into colour rows and alpha rows (each with
 * the row's filter byte), a batch of rows at a time, and learns whether every pixel is opaque
 * (which needs the alpha unfiltered, row by row).
 */
class AlphaSplitter {
  readonly width: number;
  readonly colours: number;
  /** Unfiltered alpha of this row and the one above. */
  #row: Uint8Array;
  #previous: Uint8Array | undefined;
  opaque = true;

  constructor(width: number, colours: number) {
    this.width = width;
    this.colours = colours;
    this.#row = new Uint8Array(width);
  }

  /** Splits `rows` rows of `source` into `colour` and `alpha`; false for a filter type PNG has not. */
  split(source: Uint8Array, rows: number, colour: Uint8Array, alpha: Uint8Array): boolean {
    const { width, colours } = this;
    let at = 0;
    let c = 0;
    let a = 0;
    for (let y = 0; y < rows; y++) {
      const filter = source[at++] as number;
      if (filter > 4) return false;
      colour[c++] = filter;
      alpha[a++] = filter;
      const alphaStart = a;
      // The two layouts written out: an inner loop over the colours cost more than the copying.
      if (colours === 3) {
        for (let x = 0; x < width; x++, at += 4, c += 3) {
          colour[c] = source[at] as number;
          colour[c + 1] = source[at + 1] as number;
          colour[c + 2] = source[at + 2] as number;
          alpha[a++] = source[at + 3] as number;
        }
      } else {
        for (let x = 0; x < width; x++, at += 2) {
          colour[c++] = source[at] as number;
          alpha[a++] = source[at + 1] as number;
        }
      }
      if (this.opaque) {
        const row = this.#row;
        row.set(alpha.subarray(alphaStart, a));
        unfilter(filter, row, this.#previous, 1);
        for (let x = 0; x < width; x++) {
          if (row[x] !== 255) {
            this.opaque = false;
            break;
          }
        }
        this.#row = this.#previous ?? new Uint8Array(width);
        this.#previous = row;
      }
    }
    return true;
  }
}

/** Images whose filtered rows are larger than this are split streaming (splitStreaming). */
const STREAM_SPLIT_ABOVE_BYTES = 8 * 1024 * 1024;

/** Filtered rows split per step when streaming: about 1 MiB of them. */
const SPLIT_BATCH_BYTES = 1024 * 1024;

/**
 * The colour and alpha planes deflated, streamed: the IDAT data is inflated natively and split a
 * batch of rows at a time into two deflating streams, so nothing the size of the image is held
 * (a 16-megapixel RGBA PNG is 64 MB inflated and 64 MB more split, half the isolate's memory at
 * once otherwise). Undefined when the runtime cannot stream both ways, or zlib refuses the data:
 * the caller then inflates it whole, and fflate decides as it always did.
 */
async function splitStreaming(
  info: PngInfo,
  colours: number,
): Promise<{ colour: Uint8Array; alpha: Uint8Array; opaque: boolean } | undefined> {
  if (typeof DecompressionStream === 'undefined') return undefined;
  const colourOut = chunkedDeflate();
  const alphaOut = chunkedDeflate();
  if (!colourOut || !alphaOut) return undefined;
  const { width } = info;
  const rowBytes = 1 + width * (colours + 1);
  const expected = pngInflatedSize(info);
  const rowsPerBatch = Math.max(1, Math.floor(SPLIT_BATCH_BYTES / rowBytes));
  const batch = new Uint8Array(rowsPerBatch * rowBytes);
  const colour = new Uint8Array(rowsPerBatch * (1 + width * colours));
  const alpha = new Uint8Array(rowsPerBatch * (1 + width));
  const splitter = new AlphaSplitter(width, colours);
  let filled = 0;
  let total = 0;
  const flush = async (rows: number): Promise<boolean> => {
    if (!splitter.split(batch, rows, colour, alpha)) return false;
    // A write settles once the compressor has taken the chunk, so the buffers are reused after it.
    await colourOut.write(colour.subarray(0, rows * (1 + width * colours)));
    await alphaOut.write(alpha.subarray(0, rows * (1 + width)));
    return true;
  };
  try {
    // The inflated rows are read into one buffer of ours, again and again (a BYOB reader of a
    // response body), and copied into the batch: a chunk the runtime allocated per read would be
    // garbage the isolate must collect, 64 MB of it for one 16-megapixel image.
    const body = new Response(new Blob([idatStream(info)]).stream().pipeThrough(new DecompressionStream('deflate')))
      .body;
    if (!body) throw new Error('no data');
    const reader = body.getReader({ mode: 'byob' });
    let buffer = new ArrayBuffer(256 * 1024);
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(buffer));
      if (done) break;
      buffer = value.buffer as ArrayBuffer;
      total += value.byteLength;
      if (total > expected) {
        await reader.cancel().catch(() => {});
        throw new Error('more data than the header says');
      }
      for (let at = 0; at < value.byteLength; ) {
        const take = Math.min(value.byteLength - at, batch.length - filled);
        batch.set(value.subarray(at, at + take), filled);
        filled += take;
        at += take;
        if (filled === batch.length) {
          if (!(await flush(rowsPerBatch))) throw new Error('a filter type PNG does not have');
          filled = 0;
        }
      }
    }
    if (total !== expected || (filled > 0 && !(await flush(filled / rowBytes))))
      throw new Error('not the size expected');
    return { colour: await colourOut.finish(), alpha: await alphaOut.finish(), opaque: splitter.opaque };
  } catch {
    colourOut.abort();
    alphaOut.abort();
    return undefined;
  }
}

/** 8-bit grey+alpha or RGBA, not interlaced: split the filtered rows into colour and alpha. */
async function embedAlphaSplit(streams: FlateStreams, info: PngInfo): Promise<PDFRef | undefined> {
  const { width, height, channels } = info;
  const colours = channels - 1;
  const colourDict: PdfDict = {
    Type: 'XObject',
    Subtype: 'Image',
    Width: width,
    Height: height,
    BitsPerComponent: 8,
    ColorSpace: colourSpace(info),
    DecodeParms: pngPredictor(colours, 8, width),
  };
  // A small image is split whole, which is faster; a large one streamed, which holds less.
  const streamed = pngInflatedSize(info) > STREAM_SPLIT_ABOVE_BYTES ? await splitStreaming(info, colours) : undefined;
  if (streamed) {
    const SMask = streamed.opaque ? undefined : streams.addDeflated(streamed.alpha, softMaskDict(width, height, true));
    return streams.addDeflated(streamed.colour, { ...colourDict, ...(SMask ? { SMask } : {}) });
  }
  const inflated = await inflateIdat(info);
  if (!inflated) return undefined;
  const colour = new Uint8Array(height * (1 + width * colours));
  const alpha = new Uint8Array(height * (1 + width));
  const splitter = new AlphaSplitter(width, colours);
  if (!splitter.split(inflated, height, colour, alpha)) return undefined;
  const SMask = splitter.opaque ? undefined : softMask(streams, width, height, alpha, true);
  return streams.add(colour, { ...colourDict, ...(SMask ? { SMask } : {}) });
}

/** The alpha plane of decoded RGBA, or undefined when every pixel is opaque. */
function alphaOf(rgba: Uint8Array): Uint8Array | undefined {
  const alpha = new Uint8Array(rgba.length >> 2);
  let opaque = true;
  for (let i = 0, j = 3; i < alpha.length; i++, j += 4) {
    const value = rgba[j] as number;
    alpha[i] = value;
    if (value !== 255) opaque = false;
  }
  return opaque ? undefined : alpha;
}

/** Any other PNG: decoded to 8-bit RGBA, written as RGB with an /SMask when needed. */
async function embedDecoded(streams: FlateStreams, info: PngInfo): Promise<PDFRef | undefined> {
  const inflated = await inflateIdat(info);
  const pixels = inflated && decodePngPixels(info, inflated);
  if (!pixels) return undefined;
  const { width, height, data } = pixels;
  const alpha = alphaOf(data);
  const SMask = alpha && softMask(streams, width, height, alpha, false);
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    rgb[i] = data[j] as number;
    rgb[i + 1] = data[j + 1] as number;
    rgb[i + 2] = data[j + 2] as number;
  }
  return deflatedImage(streams, rgb, {
    Width: width,
    Height: height,
    BitsPerComponent: 8,
    ColorSpace: 'DeviceRGB',
    ...(SMask ? { SMask } : {}),
  });
}

/** Indexed with partial alpha, not interlaced: the indices as they are, the alpha decoded. */
async function embedIndexedWithAlpha(streams: FlateStreams, info: PngInfo): Promise<PDFRef | undefined> {
  const inflated = await inflateIdat(info);
  const pixels = inflated && decodePngPixels(info, inflated);
  if (!pixels) return undefined;
  const alpha = alphaOf(pixels.data);
  const SMask = alpha && softMask(streams, info.width, info.height, alpha, false);
  return imageStream(streams.context, idatStream(info), { ...passThroughDict(info), ...(SMask ? { SMask } : {}) });
}

/** Decoded pixels: RGB samples and, when some pixel is not opaque, an alpha soft mask. */
function embedPixels(streams: FlateStreams, image: DecodedImage): PDFRef {
  const { pixelWidth: width, pixelHeight: height, alpha } = image;
  const SMask = alpha && softMask(streams, width, height, alpha, false);
  return deflatedImage(streams, image.rgb, {
    Width: width,
    Height: height,
    BitsPerComponent: 8,
    ColorSpace: 'DeviceRGB',
    ...(SMask ? { SMask } : {}),
  });
}

/** A PNG as an image XObject, or undefined when its data cannot be read. */
export async function embedPng(streams: FlateStreams, bytes: Uint8Array): Promise<PDFRef | undefined> {
  const info = readPngInfo(bytes);
  if (!info) return undefined;
  const simple = !info.interlaced && info.bitDepth <= 8;
  if (simple && (info.colorType === 0 || info.colorType === 2 || info.colorType === 3)) {
    const mask = colourKeyMask(info);
    if (mask !== undefined) {
      return imageStream(streams.context, idatStream(info), {
        ...passThroughDict(info),
        ...(mask ? { Mask: mask } : {}),
      });
    }
    return embedIndexedWithAlpha(streams, info);
  }
  if (simple && (info.colorType === 4 || info.colorType === 6)) return embedAlphaSplit(streams, info);
  return embedDecoded(streams, info);
}

/** The image's XObject, or undefined when it cannot be read (its picture is then left out). */
export async function embedImage(
  pdfDoc: PDFDocument,
  streams: FlateStreams,
  resource: ImageResource,
): Promise<PDFRef | undefined> {
  try {
    if (resource.format === 'pixels') return embedPixels(streams, resource);
    if (resource.format === 'png') return await embedPng(streams, resource.bytes);
    return (await pdfDoc.embedJpg(resource.bytes)).ref;
  } catch {
    // The reader checks images and warns; a broken one costs its picture, not the document.
    return undefined;
  }
}
