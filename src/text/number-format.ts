/**
 * Numbers as Word writes them: page numbers (w:pgNumType/@w:fmt, field \* switches) and list
 * labels (w:numFmt). ECMA-376 Part 1 §17.18.59 ST_NumberFormat.
 */

export type NumberFormat =
  | 'decimal'
  | 'upperRoman'
  | 'lowerRoman'
  | 'upperLetter'
  | 'lowerLetter'
  | 'ordinal'
  | 'decimalZero'
  | 'none';

const ROMAN: [number, string][] = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];

function roman(n: number): string {
  if (n <= 0 || n >= 4000) return String(n);
  let out = '';
  let rest = n;
  for (const [value, digits] of ROMAN) {
    while (rest >= value) {
      out += digits;
      rest -= value;
    }
  }
  return out;
}

/** Word's letters repeat rather than carry: 27 → AA, 28 → BB (not Excel's AB). */
function letters(n: number): string {
  if (n <= 0) return String(n);
  const letter = String.fromCharCode(65 + ((n - 1) % 26));
  return letter.repeat(Math.floor((n - 1) / 26) + 1);
}

function ordinal(n: number): string {
  const mod100 = n % 100;
  const suffix = mod100 >= 11 && mod100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${n % 10 > 3 ? 'th' : suffix}`;
}

export function formatNumber(n: number, format: NumberFormat | string): string {
  switch (format) {
    case 'upperRoman':
      return roman(n);
    case 'lowerRoman':
      return roman(n).toLowerCase();
    case 'upperLetter':
      return letters(n);
    case 'lowerLetter':
      return letters(n).toLowerCase();
    case 'ordinal':
      return ordinal(n);
    case 'decimalZero':
      return n < 10 && n >= 0 ? `0${n}` : String(n);
    case 'none':
      return '';
    default:
      return String(n);
  }
}

/** A field's \* switch (ECMA-376 §17.16.4.3) as a number format. */
export function fieldSwitchFormat(switchValue: string | undefined): NumberFormat {
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
