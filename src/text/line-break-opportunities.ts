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

/** Plain text classes: 0 anything else, SPACE, WORD (a line may start with it), GLUE (never one). */
const SPACE = 1;
const WORD = 2;
const GLUE = 3;

/**
 * Classes of the units below U+0250. WORD: letters and digits (UAX #14 AL, NU), the ASCII symbols
 * of class AL, and the quotation marks (QU), which break after spaces and nowhere else among
 * these; GLUE: . , ; : ) ] (IS, CP, CL), which never start a line.
 */
const CLASS: Uint8Array = (() => {
  const classes = new Uint8Array(0x250);
  classes[0x20] = SPACE;
  const words = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz&*#@_<>=~`\'"';
  for (let i = 0; i < words.length; i++) classes[words.charCodeAt(i)] = WORD;
  classes.fill(WORD, 0xc0, 0x250); // Latin-1 letters (× and ÷ are AL too), Latin Extended-A and -B
  for (const glue of '.,;:)]') classes[glue.charCodeAt(0)] = GLUE;
  return classes;
})();

function classOf(unit: number): number {
  if (unit < 0x250) return CLASS[unit] as number;
  // ‘ ’ “ ”
  return unit === 0x2018 || unit === 0x2019 || unit === 0x201c || unit === 0x201d ? WORD : 0;
}

/** Break opportunities of `text` (see above); none for empty text. */
export function lineBreakOpportunities(text: string): number[] {
  const breaks: number[] = [];
  let previous = SPACE;
  for (let i = 0; i < text.length; i++) {
    const kind = classOf(text.charCodeAt(i));
    if (kind === 0) return packageBreaks(text);
    if (kind === WORD && previous === SPACE && i > 0) breaks.push(i);
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
