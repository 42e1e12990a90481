/**
 * Length-limited Huffman code lengths and canonical codes (RFC 1951 §3.2.2) for the deflate
 * encoder: lengths by Moffat and Katajainen's in-place algorithm over the symbols sorted by
 * frequency, then lengths over the limit folded back so the code stays complete.
 */

/**
 * Code lengths for `freq` (0 for unused symbols), none longer than `limit`. Fewer than two used
 * symbols still get two codes of length 1: a complete code every inflater accepts.
 */
export function codeLengths(freq: Int32Array, limit: number): Uint8Array {
  const lengths = new Uint8Array(freq.length);
  const used: number[] = [];
  for (let s = 0; s < freq.length; s++) if ((freq[s] as number) > 0) used.push(s);
  if (used.length < 2) {
    const first = used[0] ?? 0;
    lengths[first] = 1;
    lengths[first === 0 ? 1 : 0] = 1;
    return lengths;
  }
  used.sort((a, b) => (freq[a] as number) - (freq[b] as number) || a - b);
  const n = used.length;
  const key = new Float64Array(n);
  for (let k = 0; k < n; k++) key[k] = freq[used[k] as number] as number;
  minimumRedundancy(key, n);
  // How many codes of each length, the over-long ones moved to the limit and the code repaired.
  const counts = new Int32Array(Math.max(limit, 64) + 1);
  for (let k = 0; k < n; k++) {
    const len = Math.min(key[k] as number, 64);
    counts[len] = (counts[len] as number) + 1;
  }
  for (let len = limit + 1; len < counts.length; len++) {
    counts[limit] = (counts[limit] as number) + (counts[len] as number);
    counts[len] = 0;
  }
  let total = 0;
  for (let len = limit; len > 0; len--) total += (counts[len] as number) * 2 ** (limit - len);
  while (total !== 2 ** limit) {
    counts[limit] = (counts[limit] as number) - 1;
    for (let len = limit - 1; len > 0; len--) {
      if ((counts[len] as number) > 0) {
        counts[len] = (counts[len] as number) - 1;
        counts[len + 1] = (counts[len + 1] as number) + 2;
        break;
      }
    }
    total--;
  }
  // The most frequent symbols (at the end of `used`) take the shortest codes.
  let k = n;
  for (let len = 1; len <= limit; len++) {
    for (let c = counts[len] as number; c > 0; c--) lengths[used[--k] as number] = len;
  }
  return lengths;
}

/** In place: frequencies sorted ascending become code lengths (A[0] the longest). */
function minimumRedundancy(a: Float64Array, n: number): void {
  a[0] = (a[0] as number) + (a[1] as number);
  let root = 0;
  let leaf = 2;
  for (let next = 1; next < n - 1; next++) {
    if (leaf >= n || (a[root] as number) < (a[leaf] as number)) {
      a[next] = a[root] as number;
      a[root++] = next;
    } else a[next] = a[leaf++] as number;
    if (leaf >= n || (root < next && (a[root] as number) < (a[leaf] as number))) {
      a[next] = (a[next] as number) + (a[root] as number);
      a[root++] = next;
    } else a[next] = (a[next] as number) + (a[leaf++] as number);
  }
  a[n - 2] = 0;
  for (let next = n - 3; next >= 0; next--) a[next] = (a[a[next] as number] as number) + 1;
  let available = 1;
  let usedAtDepth = 0;
  let depth = 0;
  let root2 = n - 2;
  let next = n - 1;
  while (available > 0) {
    while (root2 >= 0 && a[root2] === depth) {
      usedAtDepth++;
      root2--;
    }
    while (available > usedAtDepth) {
      a[next--] = depth;
      available--;
    }
    available = 2 * usedAtDepth;
    depth++;
    usedAtDepth = 0;
  }
}

/** Canonical codes for `lengths`, bit-reversed as DEFLATE writes Huffman codes (§3.1.1). */
export function canonicalCodes(lengths: Uint8Array): Uint16Array {
  const counts = new Uint16Array(16);
  for (const len of lengths) counts[len] = (counts[len] as number) + 1;
  counts[0] = 0;
  const next = new Uint16Array(16);
  let code = 0;
  for (let len = 1; len < 16; len++) {
    code = (code + (counts[len - 1] as number)) << 1;
    next[len] = code;
  }
  const codes = new Uint16Array(lengths.length);
  for (let s = 0; s < lengths.length; s++) {
    const len = lengths[s] as number;
    if (len === 0) continue;
    let value = next[len] as number;
    next[len] = value + 1;
    let reversed = 0;
    for (let b = 0; b < len; b++) {
      reversed = (reversed << 1) | (value & 1);
      value >>= 1;
    }
    codes[s] = reversed;
  }
  return codes;
}
