/**
 * WebP (lossy VP8, lossless VP8L, with or without alpha; RIFF container per RFC 9649) → RGBA,
 * by libwebp's own decoder compiled to WebAssembly (wasm/webp/: Debian's libwebp 1.2.4 with the
 * CVE-2023-4863 fix; build.sh says how). A pure-JS WebP decoder good enough for both the VP8 and
 * VP8L bitstreams does not exist on npm in a maintained form; @jsquash/webp ships an older libwebp
 * (1.0.2, before that fix) behind Emscripten glue whose factory is async, and this API is sync.
 *
 * The module has no imports and is instantiated afresh for every image: instantiating an already
 * compiled module is cheap, each decode starts from clean memory (whatever a hostile file did to
 * the previous heap cannot matter), and the memory goes away with the instance instead of staying
 * grown for the isolate's lifetime. The module's memory is capped at 256 MiB at link time.
 *
 * Animated WebP (VP8X with ANIM/ANMF) is refused by WebPDecodeRGBA: undefined.
 */
import webpModule from '../../../../wasm/webp/webp-decoder.wasm';
import { type ImageLimits, type RgbaImage, sizeAcceptable } from './raster';

interface WebpExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
  /** int WebPGetInfo(const uint8_t* data, size_t size, int* width, int* height): 1 if the header is valid. */
  WebPGetInfo(data: number, size: number, width: number, height: number): number;
  /** uint8_t* WebPDecodeRGBA(const uint8_t* data, size_t size, int* width, int* height): NULL on error. */
  WebPDecodeRGBA(data: number, size: number, width: number, height: number): number;
  WebPFree(pointer: number): void;
}

/** "RIFF" <size> "WEBP" (RFC 9649 §2.5). */
export function isWebp(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 16 &&
    bytes[0] === 0x52 &&
    bytes[1] === 0x49 &&
    bytes[2] === 0x46 &&
    bytes[3] === 0x46 &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  );
}

export function decodeWebp(bytes: Uint8Array, limits: ImageLimits): RgbaImage | undefined {
  if (!isWebp(bytes)) return undefined;
  try {
    const instance = new WebAssembly.Instance(webpModule, {});
    const wasm = instance.exports as unknown as WebpExports;
    const input = wasm.malloc(bytes.length);
    const sizes = wasm.malloc(8);
    if (input === 0 || sizes === 0) return undefined;
    new Uint8Array(wasm.memory.buffer, input, bytes.length).set(bytes);
    // The header's size first: refuse a huge canvas before libwebp allocates for it.
    if (wasm.WebPGetInfo(input, bytes.length, sizes, sizes + 4) !== 1) return undefined;
    let [width, height] = new Int32Array(wasm.memory.buffer, sizes, 2);
    if (width === undefined || height === undefined || !sizeAcceptable(width, height, limits)) return undefined;
    const output = wasm.WebPDecodeRGBA(input, bytes.length, sizes, sizes + 4);
    if (output === 0) return undefined;
    // Re-read: memory.buffer is replaced when the heap grows during decoding.
    [width, height] = new Int32Array(wasm.memory.buffer, sizes, 2);
    if (width === undefined || height === undefined || !sizeAcceptable(width, height, limits)) return undefined;
    const data = new Uint8Array(width * height * 4);
    data.set(new Uint8Array(wasm.memory.buffer, output, data.length));
    return { width, height, data };
  } catch {
    // A trap inside libwebp (out of bounds, memory cap reached) or a failed instantiation.
    return undefined;
  }
}
