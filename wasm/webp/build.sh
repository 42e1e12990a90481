#!/usr/bin/env bash
# Builds wasm/webp/webp-decoder.wasm: the decoder half of libwebp (lossy VP8 + lossless VP8L +
# alpha), compiled to a freestanding wasm32 module with no imports, for src/images/webp-decoder.ts.
#
# Source: Debian bookworm's libwebp 1.2.4-0.2+deb12u1, which carries the fix for CVE-2023-4863
# (the VP8L Huffman-table heap overflow). Toolchain (Debian bookworm packages):
#   apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32
# Get the source with a deb-src entry for bookworm(-security) and
#   apt-get source libwebp=1.2.4-0.2+deb12u1
# then run:  wasm/webp/build.sh path/to/libwebp-1.2.4
#
# Exports (the libwebp C API, see src/webp/decode.h): WebPGetInfo, WebPDecodeRGBA, WebPFree,
# malloc, free, memory. No WASI calls are left after linking (the decoder never does I/O), so the
# module is instantiated with an empty import object.
set -euo pipefail
SRC=${1:?usage: build.sh path/to/libwebp-1.2.4}
OUT=$(cd "$(dirname "$0")" && pwd)/webp-decoder.wasm
SYSROOT=/usr  # Debian lays wasi-libc out as /usr/include/wasm32-wasi, /usr/lib/wasm32-wasi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

FILES=()
for f in "$SRC"/src/dec/*.c; do FILES+=("$f"); done
for f in alpha_processing cpu dec dec_clip_tables filters lossless rescaler upsampling yuv; do
  FILES+=("$SRC/src/dsp/$f.c")
done
for f in bit_reader_utils color_cache_utils filters_utils huffman_utils quant_levels_dec_utils \
  rescaler_utils random_utils thread_utils utils; do
  FILES+=("$SRC/src/utils/$f.c")
done

OBJS=()
for f in "${FILES[@]}"; do
  o="$TMP/$(basename "$f" .c).o"
  # No threads, no SIMD: the same code path on every workerd host.
  clang --target=wasm32-wasi --sysroot="$SYSROOT" -O2 -DNDEBUG -I"$SRC" -I"$SRC/src" \
    -fno-exceptions -c "$f" -o "$o"
  OBJS+=("$o")
done

# Reactor (no main, no _start). Memory starts at 1 MiB and grows on demand up to a hard 256 MiB cap
# (growth past it fails inside libwebp, which then returns NULL); the JS side also checks the
# header's size against maxPixels before calling WebPDecodeRGBA.
clang --target=wasm32-wasi --sysroot="$SYSROOT" -O2 -mexec-model=reactor -nostartfiles \
  -Wl,--no-entry -Wl,--strip-all -Wl,--gc-sections \
  -Wl,--export=WebPGetInfo -Wl,--export=WebPDecodeRGBA -Wl,--export=WebPFree \
  -Wl,--export=malloc -Wl,--export=free \
  -Wl,--initial-memory=1048576 -Wl,--max-memory=268435456 -Wl,-z,stack-size=262144 \
  "${OBJS[@]}" -o "$OUT"
ls -l "$OUT"
