// The pieces every fuzz shares: a PRNG seeded per variant, and byte edits. Plain JavaScript with
// no Node API, so the workerd tests import it too (as test/sign imports dev-identity.mjs): a
// variant found by `npm run convert-fuzz`, `verify-fuzz` or `sign-fuzz` is remade by the same code.

/** splitmix32's finaliser: spreads (seed, index) over the whole state. */
function mix32(value) {
  let z = (value + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * mulberry32 seeded with (seed, index) alone, so variant `index` of a run can be remade without
 * the others (`--seed S --only N`).
 */
export function rngFor(seed, index) {
  let state = mix32(mix32(seed) ^ Math.imul(index + 1, 0x27d4eb2d));
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return {
    next,
    int,
    /** An integer in [min, max]. */
    range: (min, max) => min + int(max - min + 1),
    pick: (list) => list[int(list.length)],
    bytes: (n) => Uint8Array.from({ length: n }, () => int(256)),
  };
}

/** The weighted pick of `list` (items with a `weight`). */
export function pickWeighted(rng, list) {
  const total = list.reduce((sum, item) => sum + item.weight, 0);
  let at = rng.next() * total;
  for (const item of list) {
    at -= item.weight;
    if (at < 0) return item;
  }
  return list[0];
}

export function concatBytes(...parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** `bytes` with [start, end) replaced by `middle`. */
export function spliceBytes(bytes, start, end, middle) {
  return concatBytes(bytes.subarray(0, start), middle, bytes.subarray(end));
}

/** A copy of `bytes` with `n` bytes inside [from, to) XORed with a non-zero value; where they were. */
export function flipBytes(rng, bytes, n, [from, to] = [0, bytes.length]) {
  const copy = new Uint8Array(bytes);
  const at = [];
  for (let i = 0; i < n && to > from; i++) {
    const position = from + rng.int(to - from);
    copy[position] ^= rng.range(1, 255);
    at.push(position);
  }
  return { bytes: copy, at };
}

/** Bytes as Latin-1 text (one character a byte): a lossless view for matching PDF syntax. */
export function latin1(bytes) {
  let text = '';
  for (let start = 0; start < bytes.length; start += 0x8000) {
    text += String.fromCharCode.apply(null, bytes.subarray(start, start + 0x8000));
  }
  return text;
}

/** Latin-1 text as bytes (the low byte of each character). */
export function fromLatin1(text) {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Positions as a short list: the first eight, then an ellipsis. */
export function positions(at) {
  return `${at.slice(0, 8).join(',')}${at.length > 8 ? ',…' : ''}`;
}
