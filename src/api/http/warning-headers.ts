/**
 * What a conversion could not do (an image it could not fetch or decode, a font it had to
 * replace) travels in two response headers, because the body is the document itself:
 * `X-Quire-Warnings` lists the messages, `X-Quire-Warning-Count` counts them. Header values
 * must be visible ASCII (RFC 9110 §5.5), so other characters are escaped as \uXXXX (line breaks
 * and tabs in a message become a space first), and the list is cut at MAX_HEADER_CHARS with the
 * number left out, which keeps the response headers small.
 */
const MAX_HEADER_CHARS = 2000;
const SEPARATOR = ' | ';

export function warningHeaders(warnings: readonly string[]): Record<string, string> {
  if (warnings.length === 0) return {};
  let list = '';
  let shown = 0;
  for (const warning of warnings) {
    const entry = asciiHeaderText(warning.replace(/[\r\n\t]+/g, ' '));
    const next = shown === 0 ? entry : `${list}${SEPARATOR}${entry}`;
    if (next.length > MAX_HEADER_CHARS) break;
    list = next;
    shown++;
  }
  if (shown < warnings.length) list = `${list}${shown ? SEPARATOR : ''}(${warnings.length - shown} more)`;
  return { 'X-Quire-Warnings': list, 'X-Quire-Warning-Count': String(warnings.length) };
}

/**
 * `text` as a header value can carry it: visible ASCII and the space as they are, every other
 * character as \uXXXX (\u{X…} past the BMP). Without this, a CR, LF or NUL makes the runtime
 * refuse the header (a 500), and other characters leave as raw UTF-8 that clients read as Latin-1.
 */
export function asciiHeaderText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code >= 0x20 && code < 0x7f) out += char;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\u{${code.toString(16)}}`;
  }
  return out;
}
