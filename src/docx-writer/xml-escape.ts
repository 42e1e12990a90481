/**
 * Text and attribute values for the parts the DOCX writer makes. XML 1.0 (§2.2 Char) allows tab,
 * line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD and the supplementary planes; anything
 * else (C0 controls, lone surrogates, U+FFFE/U+FFFF) would make the part unreadable, so it is
 * dropped rather than escaped (XML has no escape for it).
 */

/** Whether the UTF-16 unit at `i` starts (or is) an XML 1.0 character; surrogate pairs count as one. */
function allowedAt(value: string, i: number): 0 | 1 | 2 {
  const code = value.charCodeAt(i);
  if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d ? 1 : 0;
  if (code < 0xd800) return 1;
  if (code <= 0xdbff) {
    const next = value.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 2 : 0;
  }
  if (code <= 0xdfff) return 0;
  return code === 0xfffe || code === 0xffff ? 0 : 1;
}

/** `value` with every character XML 1.0 does not allow removed (unchanged, not copied, when clean). */
export function xmlChars(value: string): string {
  let out: string | undefined;
  for (let i = 0; i < value.length; ) {
    const width = allowedAt(value, i);
    if (width === 0) {
      out ??= value.slice(0, i);
      i++;
      continue;
    }
    if (out !== undefined) out += value.slice(i, i + width);
    i += width;
  }
  return out ?? value;
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
