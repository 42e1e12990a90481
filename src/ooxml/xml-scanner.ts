import type { TreeBuilder } from './xml-tree';

/**
 * A fast, strict scanner for the XML that OOXML parts contain: elements, attributes, text, the
 * five predefined entities and character references, CDATA, comments and processing instructions
 * (XML 1.0 §2–§4). It jumps between markup with indexOf instead of stepping through characters,
 * and never builds strings for attributes the builder ignores. It refuses, with MalformedXmlError,
 * anything it does not fully understand; the caller then hands the text to saxes, so the scanner
 * may be strict without ever rejecting a valid part. A DOCTYPE goes straight to the builder, which
 * refuses the part.
 */

export class MalformedXmlError extends Error {
  override readonly name = 'MalformedXmlError';
}

const LT = 0x3c; // <
const GT = 0x3e; // >
const SLASH = 0x2f; // /
const BANG = 0x21; // !
const QUESTION = 0x3f; // ?
const EQUALS = 0x3d; // =
const QUOTE = 0x22; // "
const APOS = 0x27; // '

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

/** Name characters end at white space, '/', '>', '=' or a quote; everything else counts. */
function endsName(code: number): boolean {
  return (
    isSpace(code) || code === SLASH || code === GT || code === EQUALS || code === QUOTE || code === APOS || code === LT
  );
}

export function scanXml(xml: string, builder: TreeBuilder): void {
  const length = xml.length;
  const ignoreAttribute = builder.ignoreAttribute;
  // Names and short values repeat endlessly ("w:r", "w:val", "24"): one string each keeps the
  // tree small, since every string kept is memory the garbage collector must move.
  const strings = new Map<string, string>();
  const intern = (value: string): string => {
    const known = strings.get(value);
    if (known !== undefined) return known;
    strings.set(value, value);
    return value;
  };
  const open: string[] = [];
  let position = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  let sawRoot = false;

  while (position < length) {
    const lt = xml.indexOf('<', position);
    const textEnd = lt === -1 ? length : lt;
    if (textEnd > position) {
      const raw = xml.slice(position, textEnd);
      if (open.length === 0) {
        if (!isAllSpace(raw)) fail('text outside the root element');
      } else {
        builder.text(decodeText(raw));
      }
    }
    if (lt === -1) break;
    const next = xml.charCodeAt(lt + 1);

    if (next === SLASH) {
      const gt = xml.indexOf('>', lt + 2);
      if (gt === -1) fail('an end tag is not closed');
      let nameEnd = gt;
      while (nameEnd > lt + 2 && isSpace(xml.charCodeAt(nameEnd - 1))) nameEnd--;
      const name = xml.slice(lt + 2, nameEnd);
      if (open.pop() !== name) fail(`the end tag </${name}> does not match the open element`);
      builder.close();
      position = gt + 1;
      continue;
    }

    if (next === QUESTION) {
      const end = xml.indexOf('?>', lt + 2);
      if (end === -1) fail('a processing instruction is not closed');
      position = end + 2;
      continue;
    }

    if (next === BANG) {
      if (xml.startsWith('<!--', lt)) {
        const end = xml.indexOf('-->', lt + 4);
        if (end === -1) fail('a comment is not closed');
        position = end + 3;
        continue;
      }
      if (xml.startsWith('<![CDATA[', lt)) {
        if (open.length === 0) fail('CDATA outside the root element');
        const end = xml.indexOf(']]>', lt + 9);
        if (end === -1) fail('a CDATA section is not closed');
        builder.text(normalizeNewlines(xml.slice(lt + 9, end)));
        position = end + 3;
        continue;
      }
      if (xml.startsWith('<!DOCTYPE', lt)) builder.doctype();
      fail('unexpected markup after "<!"');
    }

    // A start tag.
    let at = lt + 1;
    while (at < length && !endsName(xml.charCodeAt(at))) at++;
    if (at === lt + 1) fail('a tag has no name');
    const name = intern(xml.slice(lt + 1, at));
    if (open.length === 0 && sawRoot) fail('more than one root element');
    const attributes: Record<string, string> = {};
    let selfClosing = false;
    let declaresNamespaces = false;
    for (;;) {
      let code = xml.charCodeAt(at);
      const hadSpace = isSpace(code);
      while (isSpace(code)) code = xml.charCodeAt(++at);
      if (code === GT) {
        at++;
        break;
      }
      if (code === SLASH) {
        if (xml.charCodeAt(at + 1) !== GT) fail(`"/" inside the tag <${name}>`);
        selfClosing = true;
        at += 2;
        break;
      }
      if (Number.isNaN(code)) fail(`the tag <${name}> is not closed`);
      if (!hadSpace) fail(`attributes of <${name}> are not separated by white space`);
      const nameStart = at;
      while (at < length && !endsName(xml.charCodeAt(at))) at++;
      if (at === nameStart) fail(`a malformed attribute in <${name}>`);
      const attributeName = xml.slice(nameStart, at);
      code = xml.charCodeAt(at);
      while (isSpace(code)) code = xml.charCodeAt(++at);
      if (code !== EQUALS) fail(`the attribute ${attributeName} has no value`);
      code = xml.charCodeAt(++at);
      while (isSpace(code)) code = xml.charCodeAt(++at);
      if (code !== QUOTE && code !== APOS) fail(`the value of ${attributeName} is not quoted`);
      const valueEnd = xml.indexOf(code === QUOTE ? '"' : "'", at + 1);
      if (valueEnd === -1) fail(`the value of ${attributeName} is not closed`);
      if (ignoreAttribute === undefined || !ignoreAttribute(attributeName)) {
        const raw = xml.slice(at + 1, valueEnd);
        if (raw.indexOf('<') !== -1) fail(`"<" inside the value of ${attributeName}`);
        if (attributes[attributeName] !== undefined) fail(`the attribute ${attributeName} appears twice`);
        const value = decodeAttribute(raw);
        attributes[attributeName] = value.length <= 16 ? intern(value) : value;
        if (attributeName.startsWith('xmlns')) declaresNamespaces = true;
      }
      at = valueEnd + 1;
    }
    sawRoot = true;
    builder.open(name, attributes, declaresNamespaces);
    if (selfClosing) builder.close();
    else open.push(name);
    position = at;
  }
  if (open.length > 0) fail(`the element <${open[open.length - 1]}> is not closed`);
  if (!sawRoot) fail('there is no root element');
}

function fail(message: string): never {
  throw new MalformedXmlError(message);
}

function isAllSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** XML 1.0 §2.11: CR LF and lone CR read as LF. */
function normalizeNewlines(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
}

function decodeText(raw: string): string {
  const text = normalizeNewlines(raw);
  if (text.indexOf('>') !== -1 && text.indexOf(']]>') !== -1) fail('"]]>" in text');
  return text.indexOf('&') === -1 ? text : decodeEntities(text);
}

/** XML 1.0 §3.3.3: white space characters in attribute values read as spaces. */
function decodeAttribute(raw: string): string {
  let value = raw;
  if (/[\t\n\r]/.test(value)) value = value.replace(/\r\n|[\t\n\r]/g, ' ');
  return value.indexOf('&') === -1 ? value : decodeEntities(value);
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/** The five predefined entities and character references (§4.1, §4.6); anything else is refused. */
function decodeEntities(text: string): string {
  let out = '';
  let copied = 0;
  let amp = text.indexOf('&');
  while (amp !== -1) {
    const semicolon = text.indexOf(';', amp + 1);
    if (semicolon === -1 || semicolon - amp > 12) fail('a malformed entity reference');
    const body = text.slice(amp + 1, semicolon);
    let replacement: string | undefined;
    if (body.charCodeAt(0) === 0x23 /* # */) {
      const hex = body.charCodeAt(1) === 0x78; /* x */
      const digits = body.slice(hex ? 2 : 1);
      if (digits === '' || !(hex ? /^[0-9A-Fa-f]+$/ : /^[0-9]+$/).test(digits)) fail('a malformed character reference');
      const code = Number.parseInt(digits, hex ? 16 : 10);
      if (!isXmlChar(code)) fail('a character reference to a character XML does not allow');
      replacement = String.fromCodePoint(code);
    } else {
      replacement = PREDEFINED[body];
      if (replacement === undefined) fail(`the undefined entity &${body};`);
    }
    out += text.slice(copied, amp) + replacement;
    copied = semicolon + 1;
    amp = text.indexOf('&', copied);
  }
  return out + text.slice(copied);
}

/** XML 1.0 §2.2 Char. */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}
