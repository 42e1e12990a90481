/**
 * The tag that names an embedded subset: "exactly six uppercase letters" and a plus sign before
 * the font's PostScript name (ISO 32000-1 §9.6.4). Derived from a digest of what the subset holds,
 * not chosen at random, so the same input gives the same bytes and different subsets of one font
 * get different tags, as the clause asks.
 */
export async function subsetTag(seed: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(seed)));
  let tag = '';
  for (const byte of digest.subarray(0, 6)) tag += String.fromCharCode(65 + (byte % 26));
  return tag;
}

/** A PostScript name as BaseFont may carry it: printable ASCII without delimiters or spaces. */
export function postscriptNameForPdf(name: string, fallback: string): string {
  const cleaned = name.replace(/[^\x21-\x7e]|[()<>[\]{}/%#]/g, '').slice(0, 56);
  return cleaned || fallback.replace(/[^A-Za-z0-9-]/g, '') || 'Font';
}
