/**
 * JPEG: find the frame header, validate it, and hand the file to pdf-lib as a DCTDecode stream
 * (pdf-lib's embedJpg never decodes; it copies the bytes and takes width, height and the number of
 * components from the first SOFn it finds).
 *
 * Accepted: SOF0 (baseline), SOF1 (extended sequential, Huffman) and SOF2 (progressive, Huffman)
 * with 8-bit samples and 1, 3 or 4 components — what PDF's DCTDecode filter is specified and
 * implemented for (ISO 32000-2 §7.4.8). Refused: lossless (SOF3), hierarchical (SOF5–7) and
 * arithmetic-coded (SOF9–11, SOF13–15) frames and 12-bit samples, which PDF readers generally
 * cannot decode; a file with no SOF, or no SOS after it (truncated before the scan).
 *
 * CMYK: pdf-lib writes /Decode [1 0 1 0 1 0 1 0] for every 4-component JPEG, i.e. it assumes the
 * inverted CMYK that Adobe applications write, marked by an APP14 "Adobe" segment. That is right
 * for those files (and for YCCK, transform 2, whose decoded CMYK is also inverted). A 4-component
 * JPEG without the Adobe segment stores plain CMYK, which would come out as a negative, so it is
 * refused (undefined) rather than shown wrong.
 *
 * pdf-lib's marker scan is naive (it expects a length after every marker and no fill bytes), so
 * when the file has fill bytes, standalone markers or garbage between segments before the frame
 * header, the header segments are re-emitted canonically; the entropy-coded data is untouched.
 * pdf-lib also reads `new DataView(bytes.buffer)` ignoring byteOffset, so the result is always a
 * Uint8Array that owns its whole buffer (see embeddable-image.ts).
 *
 * References: ITU-T T.81 (JPEG) §B.1.1.2 markers and fill bytes, §B.1.1.3 marker segments,
 * Table B.1 marker codes, §B.2.2 frame header (Lf, P, Y, X, Nf), §B.2.3 scan header;
 * Adobe Technical Note #5116 (APP14 "Adobe", transform flag).
 */
import { concatBytes } from '../../../kit';
import { type ImageLimits, sizeAcceptable } from './raster';

export interface JpegInfo {
  width: number;
  height: number;
  /** Nf: 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK. */
  components: number;
  /** SOF marker code (0xc0, 0xc1 or 0xc2). */
  frameType: number;
  progressive: boolean;
  /** Transform flag of the APP14 Adobe segment, if present (0 none/CMYK/RGB, 1 YCbCr, 2 YCCK). */
  adobeTransform?: number;
}

export function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

const SUPPORTED_FRAMES = new Set([0xc0, 0xc1, 0xc2]);
/** SOF3, 5–7, 9–11, 13–15 (Table B.1); 0xc4 DHT, 0xc8 JPG and 0xcc DAC are not frames. */
const UNSUPPORTED_FRAMES = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

interface Segment {
  marker: number;
  /** Offset of the 0xff of the marker. */
  start: number;
  /** Offset just past the segment's payload. */
  end: number;
}

interface ScanResult {
  info: JpegInfo;
  /** Marker segments before SOS, in order. */
  segments: Segment[];
  /** Offset of the SOS marker's 0xff. */
  scanStart: number;
  /** Fill bytes, standalone markers or stray bytes were met before SOS. */
  irregular: boolean;
}

function scanJpeg(bytes: Uint8Array): ScanResult | undefined {
  if (!isJpeg(bytes)) return undefined;
  const segments: Segment[] = [];
  let info: JpegInfo | undefined;
  let adobeTransform: number | undefined;
  let irregular = false;
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) {
      // Stray bytes between segments (libjpeg: "extraneous bytes before marker"): skip to the next.
      irregular = true;
      at++;
      continue;
    }
    const start = at;
    // Any number of 0xff fill bytes may precede a marker (§B.1.1.2).
    while (at < bytes.length && bytes[at] === 0xff) at++;
    if (at >= bytes.length) return undefined;
    if (at - start > 1) irregular = true;
    const marker = bytes[at] as number;
    at++;
    if (marker === 0x00 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      // Stuffed byte, SOI again, RSTn or TEM: standalone, no length (§B.1.1.3). Not valid here.
      irregular = true;
      continue;
    }
    if (marker === 0xd9) return undefined; // EOI before any scan
    if (at + 2 > bytes.length) return undefined;
    const length = ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
    if (length < 2 || at + length > bytes.length) return undefined;
    const payload = bytes.subarray(at + 2, at + length);
    if (marker === 0xda) {
      if (!info) return undefined; // SOS before SOF
      info.adobeTransform = adobeTransform;
      return { info, segments, scanStart: start, irregular };
    }
    segments.push({ marker, start, end: at + length });
    at += length;
    if (UNSUPPORTED_FRAMES.has(marker)) return undefined;
    if (SUPPORTED_FRAMES.has(marker)) {
      if (info) return undefined; // a second frame header: not a single-frame JPEG
      // §B.2.2: P (1), Y (2), X (2), Nf (1), then 3 bytes per component.
      if (payload.length < 6) return undefined;
      const precision = payload[0] as number;
      const height = ((payload[1] as number) << 8) | (payload[2] as number);
      const width = ((payload[3] as number) << 8) | (payload[4] as number);
      const components = payload[5] as number;
      if (precision !== 8) return undefined;
      // Y = 0 means "defined by a DNL segment after the first scan": pdf-lib would write Height 0.
      if (width === 0 || height === 0) return undefined;
      if (components !== 1 && components !== 3 && components !== 4) return undefined;
      if (payload.length < 6 + 3 * components) return undefined;
      info = { width, height, components, frameType: marker, progressive: marker === 0xc2 };
    } else if (marker === 0xee && payload.length >= 12) {
      // APP14 "Adobe": version (2), flags0 (2), flags1 (2), transform (1).
      if (String.fromCharCode(...payload.subarray(0, 5)) === 'Adobe') adobeTransform = payload[11];
    }
  }
  return undefined; // ran out of bytes before SOS
}

/** pdf-lib 1.17.1's JpegEmbedder.for: does its naive walk reach the same frame header? */
function pdfLibFindsFrame(bytes: Uint8Array, frameStart: number): boolean {
  const pdfLibSofMarkers = new Set([
    0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf,
  ]);
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return false;
    const marker = bytes[at + 1] as number;
    if (pdfLibSofMarkers.has(marker)) return at === frameStart;
    at += 2 + (((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number));
  }
  return false;
}

export function readJpegInfo(bytes: Uint8Array): JpegInfo | undefined {
  return scanJpeg(bytes)?.info;
}

export interface EmbeddableJpeg {
  bytes: Uint8Array;
  info: JpegInfo;
}

export function toEmbeddableJpeg(bytes: Uint8Array, limits: ImageLimits): EmbeddableJpeg | undefined {
  const scan = scanJpeg(bytes);
  if (!scan) return undefined;
  const { info } = scan;
  if (!sizeAcceptable(info.width, info.height, limits)) return undefined;
  if (info.components === 4 && info.adobeTransform === undefined) return undefined;
  const frame = scan.segments.find((s) => SUPPORTED_FRAMES.has(s.marker));
  if (!frame) return undefined;
  if (!scan.irregular && pdfLibFindsFrame(bytes, frame.start)) return { bytes, info };
  // Re-emit SOI + each header segment as FF <marker> <length> <payload>, then the scan onwards.
  const parts: Uint8Array[] = [Uint8Array.of(0xff, 0xd8)];
  for (const segment of scan.segments) {
    // A segment's recorded start may include fill bytes: keep only the last 0xff.
    let markerAt = segment.start;
    while (bytes[markerAt + 1] === 0xff) markerAt++;
    parts.push(bytes.subarray(markerAt, segment.end));
  }
  let scanAt = scan.scanStart;
  while (bytes[scanAt + 1] === 0xff) scanAt++;
  parts.push(bytes.subarray(scanAt));
  const canonical = concatBytes(parts);
  return pdfLibFindsFrame(canonical, frameOffset(canonical)) ? { bytes: canonical, info } : undefined;
}

/** Offset of the first supported SOF marker in a canonical stream (every segment has a length). */
function frameOffset(bytes: Uint8Array): number {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (SUPPORTED_FRAMES.has(bytes[at + 1] as number)) return at;
    at += 2 + (((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number));
  }
  return -1;
}
