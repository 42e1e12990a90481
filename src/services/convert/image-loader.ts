import {
  checkImage,
  checkPngsAhead,
  type ImageLoader,
  isSvg,
  type LoadedImage,
  PixelBudget,
  renderSvg,
  svgHasRatioOnly,
} from '../../engine';
import { ApiError } from '../../errors';
import { MAX_MARKUP_IMAGE_BYTES, MAX_MARKUP_IMAGES } from '../../limits';
import { DEFAULT_FETCH_TIMEOUT_MS, decodeBase64Document, fetchDocument, formatBytes } from '../input';

/**
 * The images of a Markdown or HTML document (`<img src>`), loaded for the HTML reader: data URIs
 * (RFC 2397) decoded, http(s) URLs fetched under the same rules as `document.url` (docs/api.md,
 * "Document input object": address guard on every hop, redirects re-checked, size cap, deadline),
 * and the bytes checked and prepared for the painter by checkImage (engine/read/ooxml/image-resource.ts),
 * which refuses a header claiming too many pixels before decoding anything.
 *
 * An image that cannot be had is a `problem` (a warning for the reader), never a failure of the
 * conversion. The types are the HTML reader's contract (engine/read/html/image-loader-contract.ts).
 */
export type { ImageLoader, LoadedImage };

export interface ImageLoaderOptions {
  /** Plain http: URLs are fetched (development only, as for document.url). */
  allowHttp: boolean;
  /** Distinct sources loaded; the rest get a problem. IMAGE_LOADER_DEFAULTS.maxImages is 64. */
  maxImages: number;
  /** Bytes of all images of one document together, fetched or decoded. */
  maxTotalBytes: number;
  /** Bytes of one image. */
  maxImageBytes: number;
  /** One deadline for all fetches of one call, shared. Default 15 000 ms. */
  timeoutMs?: number;
}

/** What the convert route gives (src/limits.ts), for callers that give nothing else. */
export const IMAGE_LOADER_DEFAULTS = {
  maxImages: MAX_MARKUP_IMAGES,
  maxTotalBytes: MAX_MARKUP_IMAGE_BYTES,
  maxImageBytes: MAX_MARKUP_IMAGE_BYTES,
  timeoutMs: DEFAULT_FETCH_TIMEOUT_MS,
} as const;

/** Fetches in flight at once: enough to hide latency, few enough to be polite to one host. */
const CONCURRENCY = 6;

/**
 * The bytes one call may still take. A fetch may read at most what is left when it starts; when it
 * ends, its bytes are taken, or refused if fetches running beside it took the rest meanwhile. So the
 * images kept never exceed the total, and no more than CONCURRENCY allowances are in memory at once.
 */
interface ByteBudget {
  left(): number;
  take(bytes: number): boolean;
}

function byteBudget(total: number): ByteBudget {
  let left = total;
  return {
    left: () => left,
    take(bytes) {
      if (bytes > left) return false;
      left -= bytes;
      return true;
    },
  };
}

interface LoadContext {
  options: ImageLoaderOptions;
  bytes: ByteBudget;
  /** Date.now() past which nothing more is started. */
  deadline: number;
  /** One per call: decoded pixels handed to the painter as they are (engine/read/images/pixel-budget.ts). */
  pixels: PixelBudget;
}

export function createImageLoader(options: ImageLoaderOptions): ImageLoader {
  return async (sources) => {
    const distinct = [...new Set(sources)];
    const results = new Map<string, LoadedImage>();
    const loaded = distinct.slice(0, Math.max(0, options.maxImages));
    for (const source of distinct.slice(loaded.length)) {
      results.set(source, {
        problem: `not loaded: the document has more than ${options.maxImages} images, the most one document may have`,
      });
    }
    const context: LoadContext = {
      options,
      bytes: byteBudget(options.maxTotalBytes),
      deadline: Date.now() + (options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS),
      pixels: new PixelBudget(),
    };
    let next = 0;
    const worker = async () => {
      while (next < loaded.length) {
        const source = loaded[next++] as string;
        results.set(source, await loadOne(source, context));
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, loaded.length) }, worker));
    // In the order of the sources, which is the order of the document.
    return new Map(distinct.map((source) => [source, results.get(source) as LoadedImage]));
  };
}

async function loadOne(source: string, context: LoadContext): Promise<LoadedImage> {
  const target = classify(source);
  if ('problem' in target) return target;
  const allowance = Math.min(context.options.maxImageBytes, context.bytes.left());
  try {
    const loaded =
      target.kind === 'data'
        ? decodeDataUri(source, allowance, context)
        : await fetchImage(target.url, allowance, context);
    if ('problem' in loaded) return loaded;
    if (!context.bytes.take(loaded.bytes.byteLength)) return { problem: sizeProblem(false, context.options) };
    return await decode(loaded.bytes, context.pixels);
  } catch (error) {
    if (error instanceof ApiError) return { problem: describeError(error, allowance, context.options) };
    // Whatever else went wrong concerns this image only; the document converts without it.
    return { problem: 'the image could not be read' };
  }
}

type Target = { kind: 'data' } | { kind: 'url'; url: string } | { problem: string };

function classify(source: string): Target {
  const text = source.trim();
  if (text === '') return { problem: 'the image has no source' };
  if (/^data:/i.test(text)) return { kind: 'data' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The reader made every URL it could absolute (baseUrl, <base href>); this one had no base.
    return {
      problem:
        "a relative image URL cannot be fetched without a base URL; send baseUrl, the address the document's relative URLs are relative to (or use an absolute https URL or a data: URI)",
    };
  }
  if (url.protocol === 'https:' || url.protocol === 'http:') return { kind: 'url', url: url.href };
  return { problem: `${url.protocol} image URLs are not fetched; use an https URL or a data: URI` };
}

type Bytes = { bytes: Uint8Array } | { problem: string };

/** RFC 2397 §3: `data:[<mediatype>][;base64],<data>`; without `;base64` the data is percent-encoded text. */
function decodeDataUri(source: string, maxBytes: number, context: LoadContext): Bytes {
  const header = /^\s*data:([^,]*),/i.exec(source)?.[1] ?? '';
  if (maxBytes === 0) return { problem: sizeProblem(false, context.options) };
  if (!/;\s*base64\s*$/i.test(header)) {
    // Percent-encoded text, as SVG is often written inline (`data:image/svg+xml;utf8,<svg …>`).
    const bytes = percentDecoded(source.slice(source.indexOf(',') + 1));
    return bytes.byteLength > maxBytes
      ? { problem: sizeProblem(maxBytes === context.options.maxImageBytes, context.options) }
      : { bytes };
  }
  return { bytes: decodeBase64Document(source, maxBytes, 'the image data URI').bytes };
}

/** RFC 3986 §2.1 percent-encoding undone on the text's UTF-8; a `%` not followed by two hex digits stays. */
function percentDecoded(text: string): Uint8Array {
  const utf8 = new TextEncoder().encode(text);
  const out = new Uint8Array(utf8.length);
  const hex = (b: number | undefined) =>
    b === undefined
      ? -1
      : b >= 48 && b <= 57
        ? b - 48
        : b >= 65 && b <= 70
          ? b - 55
          : b >= 97 && b <= 102
            ? b - 87
            : -1;
  let n = 0;
  for (let i = 0; i < utf8.length; i++) {
    const b = utf8[i] as number;
    const high = b === 0x25 ? hex(utf8[i + 1]) : -1;
    const low = high >= 0 ? hex(utf8[i + 2]) : -1;
    if (low >= 0) {
      out[n++] = high * 16 + low;
      i += 2;
    } else out[n++] = b;
  }
  return out.subarray(0, n);
}

async function fetchImage(url: string, maxBytes: number, context: LoadContext): Promise<Bytes> {
  const timeoutMs = context.deadline - Date.now();
  if (timeoutMs <= 0) {
    return { problem: "not fetched: the time allowed for fetching the document's images ran out" };
  }
  if (maxBytes === 0) return { problem: sizeProblem(false, context.options) };
  const fetched = await fetchDocument(url, { maxBytes, allowHttp: context.options.allowHttp, timeoutMs });
  return { bytes: fetched.bytes };
}

/** Pixels on the long side of an SVG drawn at its container's width: 1200 is 150 dpi over 8 in (each SVG costs ~0.1 s at this size; 1600 px took twice that). */
const SVG_CONTAINER_SIDE = 1200;

async function decode(bytes: Uint8Array, pixels: PixelBudget): Promise<LoadedImage> {
  if (isSvg(bytes)) return decodeSvg(bytes, pixels);
  // A PNG whose data was checked natively need not be inflated again by checkImage.
  const pngChecked = (await checkPngsAhead([bytes])).get(bytes);
  const check = checkImage(bytes, pngChecked, pixels);
  if ('image' in check) return { image: check.image };
  if ('picture' in check) return { problem: 'EMF/WMF pictures are not supported here' };
  return check;
}

/**
 * An SVG drawn by resvg (engine/read/images/svg-rasterizer.ts) as a PNG; its natural size is the
 * SVG's, in CSS px. Without a width and height on its root it has only a ratio, and the reader
 * makes it as wide as its container, so it is rendered with more pixels.
 */
async function decodeSvg(bytes: Uint8Array, pixels: PixelBudget): Promise<LoadedImage> {
  const ratioOnly = svgHasRatioOnly(bytes);
  const rendered = await renderSvg(bytes, ratioOnly ? { longSide: SVG_CONTAINER_SIDE } : {});
  if ('problem' in rendered) return rendered;
  const { svg } = rendered;
  const check = checkImage(svg.png, undefined, pixels);
  if (!('image' in check)) return { problem: 'the SVG could not be drawn' };
  return { image: check.image, natural: { width: svg.width, height: svg.height, ...(ratioOnly ? { ratioOnly } : {}) } };
}

/**
 * The fetcher and decoder speak of `document.url` and MAX_DOCUMENT_BYTES; for an image the size
 * message is written here, and the fetch message is kept with the subject renamed.
 */
function describeError(error: ApiError, allowance: number, options: ImageLoaderOptions): string {
  if (error.code === 'PAYLOAD_TOO_LARGE') return sizeProblem(allowance === options.maxImageBytes, options);
  return error.message.replaceAll('document.url', 'the image URL').replace(/^The /, 'the ');
}

/** `perImage`: the image alone is over its limit; otherwise what was left of the total was not enough. */
function sizeProblem(perImage: boolean, options: ImageLoaderOptions): string {
  return perImage
    ? `the image is larger than ${formatBytes(options.maxImageBytes)}, the most one image may have`
    : `not loaded: the document's images together are larger than ${formatBytes(options.maxTotalBytes)}, the most allowed`;
}
