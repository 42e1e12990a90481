/**
 * Text knowledge every stage shares (front door of src/engine/text): line-break opportunities (UAX #14),
 * white space, right-to-left, symbol-font code points, number and date formats of Word's fields.
 */
export { DEFAULT_DATE_PICTURE, DEFAULT_TIME_PICTURE, formatDate } from './date-format';
export { lineBreakOpportunities } from './line-break-opportunities';
export { fieldSwitchFormat, formatNumber, isKnownNumberFormat, repeatedSymbol } from './number-format';
export { hasRightToLeft } from './right-to-left';
export { formatSpreadsheetNumber } from './spreadsheet-number-format';
export { hasSymbolCodes, isSymbolFont, mapSymbolCharacter, mapSymbolText } from './symbol-fonts';
export { hasNonWhiteSpace, trailingWhiteSpaceStart } from './white-space';
