/**
 * UAX #14 line break opportunities, as the `linebreak` package finds them: the offsets into a
 * text after which a line may end, ascending, the last one the text's length.
 *
 * Most paragraphs are Latin or Cyrillic words, spaces, digits and common punctuation, whose
 * breaks depend only on the classes of neighbouring characters and of what precedes a run of
 * spaces: those are found here in one pass over the text (checked against the package on
 * random strings of these characters,
 * test/layout/line-break-opportunities.test.ts). Any other text goes to the package, whose
 * class lookups and break objects cost more than the rest of segmenting a paragraph.
 */
import LineBreaker from 'linebreak';

/**
 * Plain text classes, by the UAX #14 class they stand for: 0 anything else; SPACE (SP); WORD
 * (AL); DIGIT (NU); QUOTE (QU); HYPHEN (HY); TAB (BA: tab, en dash); SOLIDUS (SY); OPEN (OP);
 * GLUE (IS, CL, CP); EXCLAIM (EX); NO_BREAK (GL: no-break space).
 */
const SPACE = 1;
const WORD = 2;
const DIGIT = 3;
const QUOTE = 4;
const HYPHEN = 5;
const TAB = 6;
const SOLIDUS = 7;
const OPEN = 8;
const GLUE = 9;
const EXCLAIM = 10;
const NO_BREAK = 11;
const KINDS = 12;

/** Units below this are classed by CLASS; above, by classOf. */
const CLASSED_BELOW = 0x530;

/**
 * Classes of the units below CLASSED_BELOW. WORD: letters of Latin and Cyrillic and the ASCII
 * symbols of class AL; GLUE: . , ; : ) ].
 */
const CLASS: Uint8Array = (() => {
  const classes = new Uint8Array(CLASSED_BELOW);
  classes[0x20] = SPACE;
  classes[0x09] = TAB;
  const words = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz&*#@_<>=~`';
  for (let i = 0; i < words.length; i++) classes[words.charCodeAt(i)] = WORD;
  for (let digit = 0x30; digit <= 0x39; digit++) classes[digit] = DIGIT;
  classes[0x27] = QUOTE;
  classes[0x22] = QUOTE;
  classes[0x2d] = HYPHEN;
  classes[0x2f] = SOLIDUS;
  classes[0x28] = OPEN;
  classes[0x5b] = OPEN;
  classes[0x21] = EXCLAIM;
  classes[0x3f] = EXCLAIM;
  classes[0xa0] = NO_BREAK;
  classes.fill(WORD, 0xc0, 0x250); // Latin-1 letters (× and ÷ are AL too), Latin Extended-A and -B
  // Cyrillic and its supplement, but for the combining marks U+0483–U+0489 (CM).
  classes.fill(WORD, 0x400, 0x483);
  classes.fill(WORD, 0x48a, 0x530);
  for (const glue of '.,;:)]') classes[glue.charCodeAt(0)] = GLUE;
  return classes;
})();

/**
 * BREAK_BETWEEN[previous * KINDS + next]: 1 where a line may end between two adjacent
 * characters. Nothing breaks before QU, HY, BA, SY, IS, CL, CP, EX (LB13, LB19, LB21) or after
 * OP, QU and GL (LB12, LB14, LB19); after HY, BA, EX and SY a letter may start a line (digits
 * only after BA and EX: LB25); OP may start one after IS, CL, CP, HY, BA, SY, EX, not after a
 * letter or digit (LB30); GL only after HY and BA (LB12a).
 */
const BREAK_BETWEEN: Uint8Array = (() => {
  const table = new Uint8Array(KINDS * KINDS);
  for (const previous of [HYPHEN, TAB, SOLIDUS, EXCLAIM]) table[previous * KINDS + WORD] = 1;
  for (const previous of [TAB, EXCLAIM]) table[previous * KINDS + DIGIT] = 1;
  for (const previous of [GLUE, HYPHEN, TAB, SOLIDUS, EXCLAIM]) table[previous * KINDS + OPEN] = 1;
  for (const previous of [HYPHEN, TAB]) table[previous * KINDS + NO_BREAK] = 1;
  return table;
})();

function classOf(unit: number): number {
  if (unit < CLASSED_BELOW) return CLASS[unit] as number;
  // ‘ ’ “ ”
  if (unit === 0x2018 || unit === 0x2019 || unit === 0x201c || unit === 0x201d) return QUOTE;
  return unit === 0x2013 ? TAB : 0; // –
}

/** Break opportunities of `text` (see above); none for empty text. */
export function lineBreakOpportunities(text: string): number[] {
  const breaks: number[] = [];
  let previous = 0;
  // The class before the current run of spaces (0 at the start of the text).
  let beforeSpaces = 0;
  for (let i = 0; i < text.length; i++) {
    const kind = classOf(text.charCodeAt(i));
    if (kind === 0) return packageBreaks(text);
    if (kind === SPACE) {
      if (previous !== SPACE) beforeSpaces = previous;
    } else if (previous === SPACE) {
      // After spaces (LB18), but never before IS, CL, CP, SY, EX (LB13), nor after OP and spaces
      // (LB14), nor between QU, spaces and OP (LB15).
      if (
        kind !== GLUE &&
        kind !== SOLIDUS &&
        kind !== EXCLAIM &&
        beforeSpaces !== OPEN &&
        !(beforeSpaces === QUOTE && kind === OPEN)
      )
        breaks.push(i);
    } else if (previous !== 0 && BREAK_BETWEEN[previous * KINDS + kind] === 1) breaks.push(i);
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
