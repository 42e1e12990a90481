/**
 * UTF-16 code units classed by what measuring, painting and normalising may skip for them
 * (FontkitFace.measure and prepareText, inline-boxes.ts): a table rather than regular
 * expressions, since they are asked about every character of the document.
 */

/** Code unit classes for measuring without preparing or shaping (see CODE_UNIT_CLASS). */
export const PLAIN = 1;
export const UNMAPPED_CANDIDATE = 2;

/**
 * Code units of text that is already as it is shaped and painted (see shaping.ts): composed, with
 * nothing a combining mark could compose with (no combining marks are in the table, so a string
 * of these alone is NFC), no default-ignorables (U+00AD, U+061C, U+200B–U+200F, U+202A–U+202E,
 * U+2060–), no stand-ins (U+00A0, U+2010, U+2011). Greek, the letterlike symbols and the CJK
 * compatibility ideographs are left out for their NFC singletons (U+037E, U+0387, U+2126,
 * U+F900…).
 * - PLAIN: inside UNSHAPED_TEXT, so a string of these alone measures as the sum of its cmap
 *   advances: the most common case by far, and exactly what the general path computes for it.
 * - UNMAPPED_CANDIDATE: letters of scripts that need shaping (Arabic, CJK…). A string of these
 *   that the face has no glyphs for, and spaces, measures as the sum of .notdef advances when
 *   shapesToNotdefs says so, which is what the general path would compute after preparing it.
 */
export const CODE_UNIT_CLASS: Uint8Array = (() => {
  const classes = new Uint8Array(0x10000);
  const ranges: readonly (readonly [number, number, number])[] = [
    [0x0020, 0x007e, PLAIN], // ASCII
    [0x00a1, 0x00ac, PLAIN], // Latin-1 punctuation and symbols, not NBSP or the soft hyphen
    [0x00ae, 0x024f, PLAIN], // Latin-1 letters, Latin Extended-A and -B
    [0x0400, 0x0482, PLAIN], // Cyrillic, before its combining marks U+0483–U+0489
    [0x048a, 0x04ff, PLAIN],
    [0x2012, 0x2027, PLAIN], // dashes, quotes, bullets, ellipsis
    [0x2030, 0x205e, PLAIN], // per mille, primes, guillemets…
    [0x20a0, 0x20bf, PLAIN], // currency
    [0x060c, 0x060c, UNMAPPED_CANDIDATE], // Arabic comma, semicolon, question mark
    [0x061b, 0x061b, UNMAPPED_CANDIDATE],
    [0x061f, 0x061f, UNMAPPED_CANDIDATE],
    [0x0621, 0x064a, UNMAPPED_CANDIDATE], // Arabic letters, before the harakat U+064B–U+065F
    [0x0660, 0x066f, UNMAPPED_CANDIDATE], // Arabic-Indic digits and signs
    [0x0671, 0x06d3, UNMAPPED_CANDIDATE], // Arabic extended letters (Persian, Urdu…)
    [0x06d5, 0x06d5, UNMAPPED_CANDIDATE],
    [0x06ee, 0x06ff, UNMAPPED_CANDIDATE],
    [0x3000, 0x3029, PLAIN], // CJK space and punctuation, before the tone marks U+302A–U+302F
    [0x3030, 0x303f, PLAIN],
    [0x3041, 0x3096, PLAIN], // hiragana, before the voicing marks U+3099–U+309A
    [0x309b, 0x30ff, PLAIN], // katakana
    [0x4e00, 0x9fff, PLAIN], // CJK unified ideographs
    [0xac00, 0xd7a3, PLAIN], // Hangul syllables
    [0xff01, 0xff5e, PLAIN], // fullwidth forms
  ];
  for (const [from, to, kind] of ranges) classes.fill(kind, from, to + 1);
  return classes;
})();

/**
 * True when `text` is its own NFC for certain: every unit is below U+0300, the first combining
 * mark (nothing there composes or decomposes), or PLAIN (CODE_UNIT_CLASS). Most text is, curly
 * quotes and dashes included, and need not be normalised.
 */
export function isSurelyComposed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x300 && CODE_UNIT_CLASS[unit] !== PLAIN) return false;
  }
  return true;
}
