/**
 * UAX #14 line break opportunities, as the `linebreak` package finds them: the offsets into a
 * text after which a line may end, ascending, the last one the text's length.
 *
 * Most paragraphs are Latin words, spaces and a little punctuation, whose breaks are simply
 * after each run of spaces that a word follows: those are found here in one pass over the text
 * (checked against the package on random strings of these characters,
 * test/layout/line-break-opportunities.test.ts). Any other text goes to the package, whose
 * class lookups and break objects cost more than the rest of segmenting a paragraph.
 */
import LineBreaker from 'linebreak';

/**
 * Plain text classes: 0 anything else; SPACE; WORD (a line may start with it, after spaces or a
 * hyphen); DIGIT (after spaces, not after a hyphen: "-5"); QUOTE (after spaces only); HYPHEN
 * (after spaces, never before anything else); GLUE (never starts a line).
 */
const SPACE = 1;
const WORD = 2;
const DIGIT = 3;
const QUOTE = 4;
const HYPHEN = 5;
const GLUE = 6;

/** Units below this are classed by CLASS; above, by classOf. */
const CLASSED_BELOW = 0x530;

/**
 * Classes of the units below CLASSED_BELOW. WORD: letters (UAX #14 AL) of Latin and Cyrillic and
 * the ASCII symbols of class AL; DIGIT: 0–9 (NU); QUOTE: ' " (QU); HYPHEN: - (HY); GLUE:
 * . , ; : ) ] (IS, CP, CL).
 */
const CLASS: Uint8Array = (() => {
  const classes = new Uint8Array(CLASSED_BELOW);
  classes[0x20] = SPACE;
  const words = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz&*#@_<>=~`';
  for (let i = 0; i < words.length; i++) classes[words.charCodeAt(i)] = WORD;
  for (let digit = 0x30; digit <= 0x39; digit++) classes[digit] = DIGIT;
  classes[0x27] = QUOTE;
  classes[0x22] = QUOTE;
  classes[0x2d] = HYPHEN;
  classes.fill(WORD, 0xc0, 0x250); // Latin-1 letters (× and ÷ are AL too), Latin Extended-A and -B
  // Cyrillic and its supplement, but for the combining marks U+0483–U+0489 (CM).
  classes.fill(WORD, 0x400, 0x483);
  classes.fill(WORD, 0x48a, 0x530);
  for (const glue of '.,;:)]') classes[glue.charCodeAt(0)] = GLUE;
  return classes;
})();

function classOf(unit: number): number {
  if (unit < CLASSED_BELOW) return CLASS[unit] as number;
  // ‘ ’ “ ”
  return unit === 0x2018 || unit === 0x2019 || unit === 0x201c || unit === 0x201d ? QUOTE : 0;
}

/** Break opportunities of `text` (see above); none for empty text. */
export function lineBreakOpportunities(text: string): number[] {
  const breaks: number[] = [];
  let previous = SPACE;
  for (let i = 0; i < text.length; i++) {
    const kind = classOf(text.charCodeAt(i));
    if (kind === 0) return packageBreaks(text);
    // After spaces (LB18), but not before anything that never starts a line (LB13, LB21); after
    // a hyphen, before a letter (LB21 breaks after HY; LB25 keeps HY × NU, LB19 × QU).
    if (previous === SPACE ? kind !== SPACE && kind !== GLUE && i > 0 : previous === HYPHEN && kind === WORD)
      breaks.push(i);
    previous = kind;
  }
  if (text.length > 0) breaks.push(text.length);
  return breaks;
}

function packageBreaks(text: string): number[] {
  const breaks: number[] = [];
  const breaker = new LineBreaker(text);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) breaks.push(bk.position);
  return breaks;
}
