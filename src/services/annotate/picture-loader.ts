/**
 * The values of `image` and `signature` fields (docs/api.md "POST /v1/annotate") turned into pictures
 * a DOCX can hold (PreparedPicture). The format is sniffed from the bytes, never from the data
 * URI's media type or the server's Content-Type:
 *
 *   PNG, JPEG, GIF, BMP → kept as they are (Word reads them), after the engine's own check
 *                          (src/engine/read/ooxml/image-resource.ts checkImage: whole, at most 16 megapixels).
 *   WebP, TIFF          → PNG (the same check decodes them, and encodes PNG).
 *   SVG                 → kept, with a PNG rendering beside it (svg-rasterizer.ts).
 *
 * Natural size: one image pixel is one CSS px (1/96 in), whatever DPI the file records (PNG pHYs,
 * JPEG JFIF density). This is how the engine's DOCX reader sizes a picture without an extent
 * (src/engine/read/ooxml/drawing-reader.ts) and how a browser shows an image; recorded DPI is often wrong
 * (cameras write 72, scanners 300 or 600), and the size a template needs is given by the
 * caller's dimensions or the placeholder anyway.
 */

import { checkImage, isSvg, PixelBudget, renderSvg, sniffImageFormat } from '../../engine';
import { ApiError } from '../../errors';
import { decodeBase64Document, fetchDocument } from '../input';
import type { PictureLoader, PreparedPicture } from './annotate-types';

const DATA_IMAGE = /^[\t\n\f\r ]*data:image\//i;
const WEB_URL = /^[\t\n\f\r ]*https?:\/\//i;

/**
 * Whether a field value names an image: a `data:image/…` URI, or an http(s) URL. http: counts as
 * an image value even where configuration refuses it, so that the guard says why it is refused
 * instead of the URL being set as a signer's name.
 */
export function isImageValue(value: string): boolean {
  if (DATA_IMAGE.test(value)) return true;
  if (!WEB_URL.test(value)) return false;
  try {
    new URL(value.trim());
    return true;
  } catch {
    return false;
  }
}

const KEPT = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
} as const;

function invalid(label: string, problem: string): ApiError {
  return new ApiError('INVALID_DOCUMENT', `field ${label}: ${problem}.`);
}

export function createPictureLoader(options: {
  allowHttp: boolean;
  maxBytes: number;
  fetch?: typeof fetch;
}): PictureLoader {
  const load = async (value: string, label: string): Promise<Uint8Array> => {
    const name = `field ${label}`;
    if (DATA_IMAGE.test(value)) return decodeBase64Document(value, options.maxBytes, name).bytes;
    const fetched = await fetchDocument(value.trim(), {
      maxBytes: options.maxBytes,
      allowHttp: options.allowHttp,
      name,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    return fetched.bytes;
  };

  return async (value, label) => {
    const bytes = await load(value, label);
    const format = sniffImageFormat(bytes);
    if (format === undefined) {
      if (!isSvg(bytes)) {
        throw invalid(label, 'the value is not an image (PNG, JPEG, GIF, BMP, WebP or SVG were expected)');
      }
      const result = await renderSvg(bytes);
      if ('problem' in result) throw invalid(label, result.problem);
      const { svg } = result;
      return {
        media: { bytes: svg.png, extension: 'png', contentType: 'image/png' },
        svg: bytes,
        width: svg.width,
        height: svg.height,
      };
    }
    // GIF and BMP are decoded only to be checked: a budget lets the check keep the pixels
    // (dropped at once) instead of encoding a PNG nobody uses, up to the budget's 16 MiB.
    const kept = format === 'png' || format === 'jpeg' || format === 'gif' || format === 'bmp';
    const check = checkImage(bytes, undefined, format === 'gif' || format === 'bmp' ? new PixelBudget() : undefined);
    if (!('image' in check)) {
      throw invalid(label, 'problem' in check ? check.problem : 'the image could not be read');
    }
    const { image } = check;
    const size = { width: image.pixelWidth, height: image.pixelHeight };
    if (kept) {
      return { media: { bytes, extension: format, contentType: KEPT[format] }, ...size } satisfies PreparedPicture;
    }
    // WebP and TIFF: checkImage without a budget hands back the decoded image as PNG.
    if (image.format !== 'png') throw invalid(label, `the ${format.toUpperCase()} image could not be converted`);
    return { media: { bytes: image.bytes, extension: 'png', contentType: 'image/png' }, ...size };
  };
}
