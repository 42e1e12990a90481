/**
 * Bookmark names for element ids that links point at, and for headings' ids. Word accepts names
 * that start with a letter, hold only letters, digits and underscores, and are at most 40
 * characters long (ECMA-376 Part 1 §17.13.6.2; Word's own limit): ids are sanitised into that
 * shape and made unique, and links map their fragments through the same table.
 */
const MAX_NAME = 40;

export function bookmarkNames(ids: Iterable<string>): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const id of ids) {
    if (names.has(id)) continue;
    let base = id
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '');
    if (!/^[A-Za-z]/.test(base)) base = `h_${base}`;
    base = base.slice(0, MAX_NAME);
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_NAME - suffix.length) + suffix;
    }
    used.add(name.toLowerCase());
    names.set(id, name);
  }
  return names;
}

/** The fragment of an internal link ("#intro" → "intro"), percent-decoded; undefined otherwise. */
export function fragmentOf(href: string): string | undefined {
  const h = href.trim();
  if (!h.startsWith('#') || h.length < 2) return undefined;
  // Most fragments have nothing to decode: decodeURIComponent would return an equal string.
  if (!h.includes('%')) return h.slice(1);
  try {
    return decodeURIComponent(h.slice(1));
  } catch {
    return h.slice(1);
  }
}
