/**
 * pdf-lib and its fontkit call `pako.deflate`/`pako.inflate` (zlib streams, RFC 1950). This module
 * stands in for pako (wrangler.toml [alias], vitest.config.ts resolve.alias) so that one ZIP/deflate
 * library, fflate, serves the whole project; it is also several times faster than pako. pdf-lib
 * still deflates its object streams this way; the painter deflates everything else itself
 * (flate-streams.ts).
 */
import { unzlibSync, zlibSync } from 'fflate';

/** pako takes ArrayBuffers as well as byte arrays (fontkit passes ArrayBuffers); fflate wants bytes. */
function bytes(data: Uint8Array | ArrayBuffer): Uint8Array {
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

export function deflate(data: Uint8Array | ArrayBuffer): Uint8Array {
  return zlibSync(bytes(data), { level: 6 });
}

export function inflate(data: Uint8Array | ArrayBuffer): Uint8Array {
  return unzlibSync(bytes(data));
}

export default { deflate, inflate };
