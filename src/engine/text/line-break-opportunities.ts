/**
 * UAX #14 line break opportunities, as the `linebreak` package finds them: the offsets into a
 * text after which a line may end, ascending, the last one the text's length.
 *
 * The package decides a break from three things only, for the classes below (its pair table,
 * UAX #14 §7, without the rules for combining marks, ZWJ, Hebrew letters and regional
 * indicators): the class of the last character that is not a space, the class of the next one,
 * and whether spaces came between. So text made only of characters of these classes is segmented
 * here in one pass, from two small tables learnt from the package itself at first use (asking it
 * about each pair of classes, by a character of each, with and without a space between): no copy
 * of its data to drift from it, and test/layout/line-break-opportunities.test.ts checks the
 * result against it on random strings. Any other text goes to the package, whose class lookups and
 * break objects cost more than the rest of segmenting a paragraph.
 */
import LineBreaker from 'linebreak';

/**
 * The classes the fast path knows, each by a character of that class to ask the package about
 * (UAX #14 Table 1; AI resolves to AL, LB1). Index 0 stands for "nothing yet": the start of the
 * text, where a run of spaces makes the package's first class WJ.
 */
const CLASS_SAMPLES = [
  '', // start of text
  ' ', // SP
  'a', // AL
  '0', // NU
  '"', // QU
  '-', // HY
  '\t', // BA
  '/', // SY
  '(', // OP
  '}', // CL
  ')', // CP
  '.', // IS
  '!', // EX
  '\u00a0', // GL
  '+', // PR
  '%', // PO
  '\u2026', // IN
  '\u2014', // B2
  '\ufffc', // CB
] as const;
const KINDS = CLASS_SAMPLES.length;
const kindOf = (sample: (typeof CLASS_SAMPLES)[number]): number => CLASS_SAMPLES.indexOf(sample);
const SP = kindOf(' ');
const AL = kindOf('a');
const QU = kindOf('"');
const BA = kindOf('\t');
const OP = kindOf('(');
const PR = kindOf('+');
const IN = kindOf('\u2026');
const B2 = kindOf('\u2014');
const CB = kindOf('\ufffc');

/** Units below this are classed by CLASS; above, by classOf. */
const CLASSED_BELOW = 0x530;

/** The index in CLASS_SAMPLES of the class of each unit below CLASSED_BELOW, 0 for others. */
const CLASS: Uint8Array = (() => {
  const classes = new Uint8Array(CLASSED_BELOW);
  const set = (sample: (typeof CLASS_SAMPLES)[number], units: string) => {
    for (const unit of units) classes[unit.charCodeAt(0)] = kindOf(sample);
  };
  // Letters of Latin and Cyrillic, and the ASCII and Latin-1 symbols of class AL or AI.
  set('a', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz&*#@_<>=~`\u00a7\u00b6\u00b7');
  classes.fill(AL, 0xc0, 0x250); // Latin-1 letters (× and ÷ are AI), Latin Extended-A and -B
  // Cyrillic and its supplement, but for the combining marks U+0483–U+0489 (CM).
  classes.fill(AL, 0x400, 0x483);
  classes.fill(AL, 0x48a, 0x530);
  set('0', '0123456789');
  set(' ', ' ');
  set('"', '"\'\u00ab\u00bb');
  set('-', '-');
  set('\t', '\t|\u00ad');
  set('/', '/');
  set('(', '([{');
  set('}', '}');
  set(')', ')]');
  set('.', '.,;:');
  set('!', '!?');
  set('\u00a0', '\u00a0');
  set('+', '+$');
  set('%', '%\u00b0');
  return classes;
})();

function classOf(unit: number): number {
  if (unit < CLASSED_BELOW) return CLASS[unit] as number;
  switch (unit) {
    case 0x2018: // ‘ ’ “ ”
    case 0x2019:
    case 0x201c:
    case 0x201d:
      return QU;
    case 0x201e: // „
      return OP;
    case 0x2013: // –
      return BA;
    case 0x2014: // —
      return B2;
    case 0x2022: // •
      return AL;
    case 0x2026: // …
      return IN;
    case 0x2116: // №
      return PR;
    case 0xfffc: // the object replacement character
      return CB;
    default:
      return 0;
  }
}

/** BREAKS[previous * KINDS + next]: bit 1 a break between adjacent characters, bit 2 one after spaces. */
let BREAKS: Uint8Array | undefined;

function breakTable(): Uint8Array {
  if (BREAKS) return BREAKS;
  const table = new Uint8Array(KINDS * KINDS);
  for (let next = 2; next < KINDS; next++) {
    const b = CLASS_SAMPLES[next] as string;
    // At the start, only after spaces is there anything to decide.
    if (packageBreaks(` ${b}`).includes(1)) table[next] = 2;
    for (let previous = 2; previous < KINDS; previous++) {
      const a = CLASS_SAMPLES[previous] as string;
      let bits = 0;
      if (packageBreaks(a + b).includes(1)) bits |= 1;
      if (packageBreaks(`${a} ${b}`).includes(2)) bits |= 2;
      table[previous * KINDS + next] = bits;
    }
  }
  BREAKS = table;
  return table;
}

/** Break opportunities of `text` (see above); none for empty text. */
export function lineBreakOpportunities(text: string): number[] {
  const table = breakTable();
  const breaks: number[] = [];
  // The class of the last character that is not a space (0 at the start of the text).
  let previous = 0;
  let afterSpaces = false;
  for (let i = 0; i < text.length; i++) {
    const kind = classOf(text.charCodeAt(i));
    if (kind === 0) return packageBreaks(text);
    if (kind === SP) {
      afterSpaces = true;
      continue;
    }
    const bits = table[previous * KINDS + kind] as number;
    if (i > 0 && (afterSpaces ? bits & 2 : bits & 1)) breaks.push(i);
    previous = kind;
    afterSpaces = false;
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
