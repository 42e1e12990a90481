/**
 * Numbers as list labels, page numbers and fields show them (one module for reader and layout): ST_NumberFormat (ECMA-376 Part 1, §17.18.59).
 * English words for the text formats, as Word uses for documents without another language.
 */

/** The formats written out; anything else (Asian counting systems…) falls back to decimal. */
export function formatNumber(value: number, format: string): string {
  switch (format) {
    case 'decimal':
      return String(value);
    case 'decimalZero':
      return value >= 0 && value < 10 ? `0${value}` : String(value);
    case 'upperRoman':
      return roman(value).toUpperCase();
    case 'lowerRoman':
      return roman(value);
    case 'upperLetter':
      return letters(value).toUpperCase();
    case 'lowerLetter':
      return letters(value);
    case 'ordinal':
      return `${value}${ordinalSuffix(value)}`;
    case 'cardinalText':
      return capitalize(cardinalWords(value));
    case 'ordinalText':
      return capitalize(ordinalWords(value));
    case 'decimalEnclosedCircle':
    case 'decimalEnclosedCircleChinese':
      return value >= 1 && value <= 20 ? String.fromCodePoint(0x2460 + value - 1) : String(value);
    case 'decimalEnclosedParen':
      return value >= 1 && value <= 20 ? String.fromCodePoint(0x2474 + value - 1) : `(${value})`;
    case 'decimalEnclosedFullstop':
      return value >= 1 && value <= 20 ? String.fromCodePoint(0x2488 + value - 1) : `${value}.`;
    case 'decimalFullWidth':
    case 'decimalFullWidth2':
      return String(value).replace(/[0-9]/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
    case 'hex':
      return value.toString(16).toUpperCase();
    case 'arabicAlpha':
      return arabicLetter(value, ARABIC_ALPHA);
    case 'arabicAbjad':
      return arabicLetter(value, ARABIC_ABJAD);
    case 'hebrew1':
      return hebrewNumeral(value);
    case 'hebrew2':
      return repeatedSymbol(value, HEBREW_LETTERS);
    case 'hindiNumbers':
      return String(value).replace(/[0-9]/g, (digit) => String.fromCharCode(0x0660 + Number(digit)));
    case 'none':
      return '';
    default:
      return String(value);
  }
}

/** Formats whose output is known here; the others print as decimal (worth a warning). */
export function isKnownNumberFormat(format: string): boolean {
  return KNOWN.has(format);
}

const KNOWN = new Set([
  'decimal',
  'decimalZero',
  'upperRoman',
  'lowerRoman',
  'upperLetter',
  'lowerLetter',
  'ordinal',
  'cardinalText',
  'ordinalText',
  'decimalEnclosedCircle',
  'decimalEnclosedCircleChinese',
  'decimalEnclosedParen',
  'decimalEnclosedFullstop',
  'decimalFullWidth',
  'decimalFullWidth2',
  'hex',
  'arabicAlpha',
  'arabicAbjad',
  'hebrew1',
  'hebrew2',
  'hindiNumbers',
  'none',
  'bullet',
]);

/** ST_NumberFormat arabicAlpha (§17.18.59): the 28 letters in alphabetical (hijā'ī) order. */
const ARABIC_ALPHA = [...'أبتثجحخدذرزسشصضطظعغفقكلمنهوي'];
/** arabicAbjad: the same letters in the abjad order of their numeric values (أبجد هوز حطي …). */
const ARABIC_ABJAD = [...'أبجدهوزحطيكلمنسعفصقرشتثخذضظغ'];
/**
 * An Arabic letter number as Word writes it: after a zero-width non-joiner, so that the letter
 * stands alone and does not join the text before it (Word's cached PAGE results read "\u200cج").
 */
function arabicLetter(value: number, letters: readonly string[]): string {
  const symbol = repeatedSymbol(value, letters);
  return /^[0-9-]/.test(symbol) ? symbol : `\u200c${symbol}`;
}

/** hebrew2: the 22 letters of the Hebrew alphabet, repeated as Latin letters are. */
const HEBREW_LETTERS = [...'אבגדהוזחטיכלמנסעפצקרשת'];
const HEBREW_ONES = ['', 'א', 'ב', 'ג', 'ד', 'ה', 'ו', 'ז', 'ח', 'ט'];
const HEBREW_TENS = ['', 'י', 'כ', 'ל', 'מ', 'נ', 'ס', 'ע', 'פ', 'צ'];
const HEBREW_HUNDREDS = ['', 'ק', 'ר', 'ש', 'ת'];

/**
 * hebrew1: Hebrew numerals (letters with their numeric values, ק ר ש ת for the hundreds and ת
 * repeated past 400), 15 and 16 written ט״ו-style as טו and טז rather than spelling the Name.
 */
function hebrewNumeral(value: number): string {
  if (value <= 0 || value >= 1000 || !Number.isInteger(value)) return String(value);
  let hundreds = Math.floor(value / 100);
  let out = '';
  while (hundreds > 4) {
    out += 'ת';
    hundreds -= 4;
  }
  out += HEBREW_HUNDREDS[hundreds];
  const rest = value % 100;
  if (rest === 15) return `${out}טו`;
  if (rest === 16) return `${out}טז`;
  return out + HEBREW_TENS[Math.floor(rest / 10)] + HEBREW_ONES[rest % 10];
}

const ROMAN: [number, string][] = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

function roman(value: number): string {
  if (value <= 0 || value >= 4000) return String(value);
  let rest = value;
  let out = '';
  for (const [amount, symbol] of ROMAN) {
    while (rest >= amount) {
      out += symbol;
      rest -= amount;
    }
  }
  return out;
}

const ALPHABET = [...'abcdefghijklmnopqrstuvwxyz'];

/** Word's letters repeat rather than carry: 26 = z, 27 = aa, 28 = bb, 53 = aaa (§17.18.59 "lowerLetter"). */
function letters(value: number): string {
  return repeatedSymbol(value, ALPHABET);
}

/**
 * The most times a symbol is repeated: Word's letters stop at 780, "zzz…" of 30 letters. Past it a
 * number is written in digits, as roman numerals are past 3,999: a list starting at 2,000,000,000
 * or a page number field with \* ALPHABETIC made a string of 77 million letters.
 */
const MAX_REPEATS = 30;

/**
 * `value` as a symbol of `symbols` in turn, repeated once more each time round (letters; the
 * footnote symbols * † ‡ §), or in digits when it is not a positive integer or would need the
 * symbol more than MAX_REPEATS times.
 */
export function repeatedSymbol(value: number, symbols: readonly string[]): string {
  if (value <= 0 || !Number.isInteger(value)) return String(value);
  const repeats = Math.floor((value - 1) / symbols.length) + 1;
  if (repeats > MAX_REPEATS) return String(value);
  return (symbols[(value - 1) % symbols.length] as string).repeat(repeats);
}

function ordinalSuffix(value: number): string {
  const tens = value % 100;
  if (tens >= 11 && tens <= 13) return 'th';
  switch (value % 10) {
    case 1:
      return 'st';
    case 2:
      return 'nd';
    case 3:
      return 'rd';
    default:
      return 'th';
  }
}

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function cardinalWords(value: number): string {
  if (value < 0 || value >= 1_000_000 || !Number.isInteger(value)) return String(value);
  if (value < 20) return ONES[value] as string;
  if (value < 100) {
    const rest = value % 10;
    return `${TENS[Math.floor(value / 10)]}${rest ? `-${ONES[rest]}` : ''}`;
  }
  if (value < 1000) {
    const rest = value % 100;
    return `${ONES[Math.floor(value / 100)]} hundred${rest ? ` ${cardinalWords(rest)}` : ''}`;
  }
  const rest = value % 1000;
  return `${cardinalWords(Math.floor(value / 1000))} thousand${rest ? ` ${cardinalWords(rest)}` : ''}`;
}

const ORDINAL_WORDS: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

function ordinalWords(value: number): string {
  const words = cardinalWords(value);
  if (!/[a-z]$/.test(words)) return `${value}${ordinalSuffix(value)}`;
  const match = /([a-z]+)$/.exec(words) as RegExpExecArray;
  const last = match[1] as string;
  const head = words.slice(0, words.length - last.length);
  const irregular = ORDINAL_WORDS[last];
  if (irregular) return head + irregular;
  if (last.endsWith('y')) return `${head}${last.slice(0, -1)}ieth`;
  return `${head}${last}th`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A field's \* switch (ECMA-376 §17.16.4.3) as a number format. */
export function fieldSwitchFormat(switchValue: string | undefined): string {
  switch (switchValue) {
    case 'roman':
      return 'lowerRoman';
    case 'ROMAN':
      return 'upperRoman';
    case 'alphabetic':
      return 'lowerLetter';
    case 'ALPHABETIC':
      return 'upperLetter';
    case 'Ordinal':
    case 'ordinal':
      return 'ordinal';
    default:
      return 'decimal';
  }
}
