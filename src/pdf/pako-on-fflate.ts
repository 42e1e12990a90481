/**
 * pdf-lib and its fontkit call `pako.deflate`/`pako.inflate` (zlib streams, RFC 1950). This module
 * stands in for pako (wrangler.toml [alias], vitest.config.ts resolve.alias) so that one ZIP/deflate
 * library, fflate, serves the whole project; it is also several times faster, and deflating
 * content streams and font subsets was the largest single cost of painting a PDF.
 */
import { unzlibSync, zlibSync } from 'fflate';

export function deflate(data: Uint8Array): Uint8Array {
  return zlibSync(data, { level: 6 });
}

export function inflate(data: Uint8Array): Uint8Array {
  return unzlibSync(data);
}

export default { deflate, inflate };
