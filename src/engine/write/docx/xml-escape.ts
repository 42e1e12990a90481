/**
 * The one gate between outside text and an XML part: the DOCX writer's text and attribute values
 * (below), and every part annotate writes back (src/services/annotate/ooxml-dom.ts serializePartXml).
 *
 * XML 1.0 §2.2 (Char) allows tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD and the
 * supplementary planes; §4.1 (WFC: Legal Character) forbids even a character reference to anything
 * else, so there is no escape: one such character makes the part unreadable (Word and LibreOffice
 * refuse the whole file). What becomes of them:
 *
 * - C0 controls other than tab, LF and CR, and the noncharacters U+FFFE/U+FFFF, are dropped. They
 *   draw nothing and mean nothing in running text (a NUL from a C string, a form feed or vertical
 *   tab pasted from a terminal), so the text as read is whole without them; a U+FFFD in their
 *   place would print a replacement glyph the sender never wrote.
 * - A lone surrogate (half of a character, e.g. an emoji cut in two by a truncated string) becomes
 *   U+FFFD: a character was there and is lost, and U+FFFD is what converting the string to scalar
 *   values gives (WHATWG Infra "convert to a scalar value string"; every UTF-8 encoder, TextEncoder
 *   included, does the same), so the reader sees where.
 */

/** Anything outside the Char production; with the u flag a surrogate pair is one code point. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;
/** A surrogate not part of a pair (the u flag reads a pair as one code point, outside this class). */
const LONE_SURROGATE = /[\ud800-\udfff]/gu;
/** Once no surrogate is lone, what is left outside the Char production: C0 controls, U+FFFE, U+FFFF. */
const DROPPED = /[^\t\n\r\u0020-\ufffd]/g;

/**
 * `value` made of XML 1.0 characters only: C0 controls (other than tab, LF, CR) and U+FFFE/U+FFFF
 * dropped, lone surrogates made U+FFFD. The string itself comes back, not a copy, when it is clean
 * (one native scan), so whole parts can go through it.
 */
export function xmlChars(value: string): string {
  if (!NOT_XML_CHAR.test(value)) return value;
  return value.replace(LONE_SURROGATE, '\ufffd').replace(DROPPED, '');
}

/**
 * Text escapeText (or escapeAttribute) would leave as it is: XML 1.0 characters outside the
 * surrogate range, other than those it escapes. A string with anything else takes the slow path
 * (surrogates too, paired or not: xmlChars sorts them). One native test instead of a copy per run.
 */
const PLAIN_TEXT = /^[\t\n\r\u0020-\u0025\u0027-\u003b\u003d\u003f-\ud7ff\ue000-\ufffd]*$/;
const PLAIN_ATTRIBUTE = /^[\u0020-\u0021\u0023-\u0025\u0027-\u003b\u003d\u003f-\ud7ff\ue000-\ufffd]*$/;

/** Character data: & and < must be escaped, > is escaped too so "]]>" can never appear. */
export function escapeText(value: string): string {
  // Most text needs nothing: one test, and the string itself back, instead of a copy per run.
  if (PLAIN_TEXT.test(value)) return value;
  return xmlChars(value).replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/**
 * An attribute value in double quotes. Tab, LF and CR are written as character references:
 * attribute-value normalisation (XML 1.0 §3.3.3) would otherwise turn them into spaces.
 */
export function escapeAttribute(value: string): string {
  if (PLAIN_ATTRIBUTE.test(value)) return value;
  return xmlChars(value).replace(/[&<>"\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c] as string);
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** The XML declaration every part starts with (UTF-8, standalone as Word writes it). */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
