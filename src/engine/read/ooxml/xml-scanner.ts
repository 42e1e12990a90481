import type { SharedSubtree, StartTag, TreeSink } from './xml-types';

/**
 * A fast, strict scanner for the XML that OOXML parts contain: elements, attributes, text, the
 * five predefined entities and character references, CDATA, comments and processing instructions
 * (XML 1.0 §2–§4). It reads the part's UTF-8 bytes, not a decoded string: markup is ASCII, so it
 * jumps between '<' and '>' with the native indexOf, takes names and short values from a table
 * without making a string for each, and decodes only text and values that are not plain ASCII.
 * Every string it hands over is a string of its own, never a slice of the whole part, which would
 * keep the part's text (twice its size in memory for non-Latin text) alive as long as the model.
 * It never builds strings for attributes the builder ignores, and reads each distinct start tag
 * set once. Elements the builder names (shareElements: run and paragraph properties) are looked
 * up by their bytes, and one read before is placed again instead of being read anew. It refuses,
 * with MalformedXmlError, anything it does not fully understand (non-ASCII names among them); the
 * caller then hands the text to saxes, so the scanner may be strict without ever rejecting a valid
 * part. A DOCTYPE goes straight to the builder, which refuses the part.
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
const AMP = 0x26; // &
const CR = 0x0d;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
}

/** Byte classes, looked up instead of compared one by one in the loops over names and values. */
const NAME_END = 1; // white space, '/', '>', '=', a quote or '<': everything else is a name character
const LESS_THAN = 2; // '<', which no attribute value may hold
const DECODED = 4; // what makes a value more than its bytes: non-ASCII, '&', or white space read as ' '
const BYTE_CLASS = (() => {
  const classes = new Uint8Array(256);
  for (const code of [0x20, 0x0a, 0x09, 0x0d, SLASH, GT, EQUALS, QUOTE, APOS, LT]) classes[code] = NAME_END;
  classes[LT] = NAME_END | LESS_THAN;
  for (const code of [AMP, 0x0a, 0x09, 0x0d]) classes[code] = (classes[code] as number) | DECODED;
  classes.fill(DECODED, 0x80);
  return classes;
})();

/** FNV-1a over bytes, the StringTable's hash (the scanner hashes names and values as it reads them). */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Segments of a part; ignoreBOM: a U+FEFF inside the text is a character, not a byte order mark. */
const UTF8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * The attributes of every element that has none (most of them: w:p, w:r, w:rPr, w:b…), shared:
 * nothing changes an element's attributes once they are in the tree, and the builder only
 * renames keys that exist.
 */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Strings up to this many bytes are shared through the part's StringTable. */
const SHARED_MAX_LENGTH = 16;
/** Distinct shared strings per part at most; past it strings are made each time (still correct). */
const SHARED_MAX_ENTRIES = 1 << 14;

/** Slots a table starts with at most; it doubles as it fills, up to the most its part's size allows. */
const INITIAL_CAPACITY = 256;
/** Slots a table starts with at least. */
const MIN_CAPACITY = 16;

/**
 * The most slots a table of a part of `length` bytes grows to: one per 2^sizeShift bytes, at least
 * INITIAL_CAPACITY, at most 2 × SHARED_MAX_ENTRIES. Once half of that is taken it takes no more.
 */
function capacityFor(length: number, sizeShift: number): number {
  let capacity = INITIAL_CAPACITY;
  while (capacity < 2 * SHARED_MAX_ENTRIES && capacity < length >> sizeShift) capacity *= 2;
  return capacity;
}

/**
 * The slots a table of a part of `length` bytes starts with: one per 2^sizeShift bytes, between
 * MIN_CAPACITY and INITIAL_CAPACITY. Most parts are small (relationships, content types, settings,
 * a header), and a table of 256 slots cost more to make than their whole scan.
 */
function initialCapacityFor(length: number, sizeShift: number): number {
  let capacity = MIN_CAPACITY;
  while (capacity < INITIAL_CAPACITY && capacity < length >> sizeShift) capacity *= 2;
  return capacity;
}

/**
 * Names and short values repeat endlessly ("w:r", "w:val", "24"): one string each keeps the tree
 * small, since every string kept is memory the garbage collector must move. An open-addressing
 * table keyed by the bytes themselves, so a repeat costs a hash and a compare, no allocation. It
 * starts small and doubles when half full, up to a size fixed by the part's length (allocating
 * that size up front cost more than the scan of most parts, whose strings are a few hundred);
 * once that is half full it stops taking new strings.
 */
class StringTable {
  #keys: (string | undefined)[];
  #hashes: Int32Array;
  #limit: number;
  readonly #maxCapacity: number;
  #count = 0;
  readonly #bytes: Uint8Array;
  /**
   * Arrays of char codes by length (up to SHARED_MAX_LENGTH), filled to make a new string:
   * String.fromCharCode.apply over a plain array of the exact length took a third of the time
   * it took over a subarray of the part, which V8 first copies into a list.
   */
  readonly #codes: number[][] = [];

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    this.#maxCapacity = capacityFor(bytes.length, 4);
    const capacity = initialCapacityFor(bytes.length, 4);
    this.#keys = new Array(capacity).fill(undefined);
    this.#hashes = new Int32Array(capacity);
    this.#limit = capacity >> 1;
  }

  /** The string of bytes [start, end), all ASCII (the caller checked). */
  ascii(start: number, end: number): string {
    const bytes = this.#bytes;
    let hash = FNV_OFFSET;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), FNV_PRIME);
    return this.lookup(start, end, hash);
  }

  /** `ascii`, given the bytes' hash. */
  lookup(start: number, end: number, hash: number): string {
    const bytes = this.#bytes;
    const keys = this.#keys;
    const mask = keys.length - 1;
    const length = end - start;
    let slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      const key = keys[slot];
      if (key === undefined) break;
      if (this.#hashes[slot] !== hash || key.length !== length) continue;
      let same = true;
      for (let i = 0; i < length; i++) {
        if (key.charCodeAt(i) !== bytes[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return key;
    }
    const value = this.#make(start, end);
    if (this.#count < this.#limit) {
      keys[slot] = value;
      this.#hashes[slot] = hash;
      if (++this.#count === this.#limit && keys.length < this.#maxCapacity) this.#grow();
    }
    return value;
  }

  /** The string of the ASCII bytes [start, end). */
  #make(start: number, end: number): string {
    const length = end - start;
    if (length > SHARED_MAX_LENGTH) {
      return String.fromCharCode.apply(null, this.#bytes.subarray(start, end) as unknown as number[]);
    }
    let codes = this.#codes[length];
    if (codes === undefined) {
      codes = new Array<number>(length).fill(0);
      this.#codes[length] = codes;
    }
    for (let i = 0; i < length; i++) codes[i] = this.#bytes[start + i] as number;
    return String.fromCharCode.apply(null, codes);
  }

  #grow(): void {
    const oldKeys = this.#keys;
    const oldHashes = this.#hashes;
    const capacity = oldKeys.length * 2;
    const keys: (string | undefined)[] = new Array(capacity).fill(undefined);
    const hashes = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      const key = oldKeys[i];
      if (key === undefined) continue;
      const hash = oldHashes[i] as number;
      let slot = hash & mask;
      while (keys[slot] !== undefined) slot = (slot + 1) & mask;
      keys[slot] = key;
      hashes[slot] = hash;
    }
    this.#keys = keys;
    this.#hashes = hashes;
    this.#limit = capacity >> 1;
  }
}

/**
 * Values keyed by a span of the part's bytes, compared byte for byte: start tags (the bytes after
 * the '<' up to the tag's '>') and shared subtrees (an element's bytes from its '<' to the end of
 * its end tag). Start tags repeat as much as names do (<w:sz w:val="28"/>, the same w:rFonts on
 * every run): tags written with the same bytes share one frozen attribute object, which keeps the
 * tree of a large part a fraction of the size, and a repeated tag costs one hash and compare, its
 * name, attributes, strings and checks being made the first time only. Grows like StringTable.
 */
class SpanTable<T> {
  #values: (T | undefined)[];
  /**
   * Per slot SLOT_FIELDS numbers: the span's hash, and where its first occurrence starts and ends
   * (to compare with). One array, not three: most parts are small, and each array costs a buffer.
   */
  #slots: Int32Array;
  #limit: number;
  readonly #maxCapacity: number;
  #count = 0;
  readonly #bytes: Uint8Array;
  /** The same bytes, to compare four at a time. */
  readonly #view: DataView;

  /** `sizeShift`: at most one slot per 2^sizeShift bytes of the part (see capacityFor). */
  constructor(bytes: Uint8Array, view: DataView, sizeShift: number) {
    this.#bytes = bytes;
    this.#view = view;
    this.#maxCapacity = capacityFor(bytes.length, sizeShift);
    const capacity = initialCapacityFor(bytes.length, sizeShift);
    this.#values = new Array(capacity).fill(undefined);
    this.#slots = new Int32Array(capacity * SLOT_FIELDS);
    this.#limit = capacity >> 1;
  }

  /** The slot of the span [start, end) (bytes whose hash is `hash`), or -1 when it is not known. */
  find(start: number, end: number, hash: number): number {
    const bytes = this.#bytes;
    const values = this.#values;
    const slots = this.#slots;
    const mask = values.length - 1;
    const length = end - start;
    let slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      if (values[slot] === undefined) return -1;
      const field = slot * SLOT_FIELDS;
      const knownStart = slots[field + 1] as number;
      if (slots[field] !== hash || (slots[field + 2] as number) - knownStart !== length) continue;
      if (sameBytes(this.#view, bytes, knownStart, start, length)) return slot;
    }
  }

  value(slot: number): T {
    return this.#values[slot] as T;
  }

  /** Keeps `value` for the span [start, end), which `find` did not know. */
  remember(start: number, end: number, hash: number, value: T): void {
    if (this.#count >= this.#limit) return;
    // Probed again rather than taken from `find`: a subtree is remembered when it closes, after
    // those inside it, which may have taken that slot or grown the table.
    const values = this.#values;
    const mask = values.length - 1;
    let slot = hash & mask;
    while (values[slot] !== undefined) slot = (slot + 1) & mask;
    values[slot] = value;
    const field = slot * SLOT_FIELDS;
    this.#slots[field] = hash;
    this.#slots[field + 1] = start;
    this.#slots[field + 2] = end;
    if (++this.#count === this.#limit && values.length < this.#maxCapacity) this.#grow();
  }

  #grow(): void {
    const oldValues = this.#values;
    const oldSlots = this.#slots;
    const capacity = oldValues.length * 2;
    const values: (T | undefined)[] = new Array(capacity).fill(undefined);
    const slots = new Int32Array(capacity * SLOT_FIELDS);
    const mask = capacity - 1;
    for (let i = 0; i < oldValues.length; i++) {
      const value = oldValues[i];
      if (value === undefined) continue;
      const oldField = i * SLOT_FIELDS;
      const hash = oldSlots[oldField] as number;
      let slot = hash & mask;
      while (values[slot] !== undefined) slot = (slot + 1) & mask;
      values[slot] = value;
      const field = slot * SLOT_FIELDS;
      slots[field] = hash;
      slots[field + 1] = oldSlots[oldField + 1] as number;
      slots[field + 2] = oldSlots[oldField + 2] as number;
    }
    this.#values = values;
    this.#slots = slots;
    this.#limit = capacity >> 1;
  }
}

/** Numbers a SpanTable keeps per slot: hash, start, end. */
const SLOT_FIELDS = 3;

/** The bytes [start, end) are ASCII without '&' or CR: their string is their char codes. */
function isPlainAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = bytes[i] as number;
    if (code >= 0x80 || code === AMP || code === CR) return false;
  }
  return true;
}

export function scanXml(bytes: Uint8Array, builder: TreeSink): void {
  const length = bytes.length;
  const ignoreAttribute = builder.ignoreAttribute;
  const view = viewOf(bytes);
  const table = new StringTable(bytes);
  const tags = new SpanTable<StartTag>(bytes, view, 5);
  /** Made when the first shareable element opens: most parts have none. */
  let subtrees: SpanTable<SharedSubtree> | undefined;
  /** The end tags of the shareable elements, by name (a handful). */
  const endTags = new Map<string, string>();
  /** The hash spanToEndTag or spanToTagEnd worked out along the way. */
  const spanHash = new Int32Array(1);
  /**
   * The shareable elements being read for the first time, SHARING_FIELDS numbers each: how many
   * elements were open outside it, where its bytes start and end, their hash, and 1 when no subtree
   * of those bytes was known (0: one was, but the context read it differently).
   */
  const sharing: number[] = [];
  /** Short values that needed decoding, shared the same way. */
  const decodedValues = new Map<string, string>();
  const open: string[] = [];
  /** Where the current tag's attributes are (ATTRIBUTE_FIELDS numbers each), reused tag after tag. */
  const found: number[] = [];
  /** What makeAttributes saw besides the attributes, reused tag after tag. */
  const madeSet: MadeSet = { declaresNamespaces: false, space: undefined };
  let position = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let sawRoot = false;

  while (position < length) {
    // Markup usually follows markup: only look further when there is text in between.
    const lt = bytes[position] === LT ? position : bytes.indexOf(LT, position);
    const textEnd = lt === -1 ? length : lt;
    if (textEnd > position) {
      if (open.length === 0) {
        if (!isAllSpace(bytes, position, textEnd)) fail('text outside the root element');
      } else if (textEnd - position <= SHARED_MAX_LENGTH && isPlainAscii(bytes, position, textEnd)) {
        builder.text(checkText(table.ascii(position, textEnd)));
      } else {
        builder.text(decodeText(UTF8.decode(bytes.subarray(position, textEnd))));
      }
    }
    if (lt === -1) break;
    const next = bytes[lt + 1];

    if (next === SLASH) {
      // The end tag must name the open element, then allow white space before its '>'.
      const expected = open.pop();
      let at = lt + 2;
      if (expected === undefined || !sameAscii(bytes, at, at + expected.length, expected)) {
        fail('an end tag does not match the open element');
      }
      at += expected.length;
      while (isSpace(bytes[at] ?? -1)) at++;
      if (bytes[at] !== GT)
        fail(at >= length ? 'an end tag is not closed' : 'an end tag does not match the open element');
      position = at + 1;
      const top = sharing.length - SHARING_FIELDS;
      if (top >= 0 && sharing[top] === open.length) {
        const start = sharing[top + 1] as number;
        const end = sharing[top + 2] as number;
        const endHash = sharing[top + 3] as number;
        const unknown = sharing[top + 4] as number;
        sharing.length = top;
        const shared = builder.closeShared();
        // Kept only when the first end tag of its name was its own (see where the span is found).
        if (shared !== undefined && end === position && unknown === 1) subtrees?.remember(start, end, endHash, shared);
      } else builder.close();
      continue;
    }

    if (next === QUESTION) {
      const end = indexOfPair(bytes, QUESTION, GT, lt + 2);
      if (end === -1) fail('a processing instruction is not closed');
      position = end + 2;
      continue;
    }

    if (next === BANG) {
      if (startsWith(bytes, lt, '<!--')) {
        const end = indexOfAscii(bytes, '-->', lt + 4);
        if (end === -1) fail('a comment is not closed');
        position = end + 3;
        continue;
      }
      if (startsWith(bytes, lt, '<![CDATA[')) {
        if (open.length === 0) fail('CDATA outside the root element');
        const end = indexOfAscii(bytes, ']]>', lt + 9);
        if (end === -1) fail('a CDATA section is not closed');
        builder.text(normalizeNewlines(UTF8.decode(bytes.subarray(lt + 9, end))));
        position = end + 3;
        continue;
      }
      if (startsWith(bytes, lt, '<!DOCTYPE')) builder.doctype();
      fail('unexpected markup after "<!"');
    }

    // A start tag. One whose bytes up to its first '>' were read before is that tag again: the
    // StartTag made then, its name and attribute set checked and made, is handed over as it is,
    // without reading the bytes one by one. (A tag with a '>' inside a value ends later, so is
    // never one found here.)
    let at = lt + 1;
    let tag: StartTag;
    let selfClosing = false;
    const tagEnd = spanToTagEnd(view, bytes, at, spanHash);
    const tagHash = spanHash[0] as number;
    const slot = tagEnd === -1 ? -1 : tags.find(at, tagEnd, tagHash);
    if (slot >= 0) {
      tag = tags.value(slot);
      selfClosing = bytes[tagEnd - 2] === SLASH;
      at = tagEnd;
      if (open.length === 0 && sawRoot) fail('more than one root element');
    } else {
      // Names are read and hashed in one pass; non-ASCII names go to saxes.
      let hash = FNV_OFFSET;
      let high = 0;
      for (; at < length; at++) {
        const code = bytes[at] as number;
        if ((BYTE_CLASS[code] as number) & NAME_END) break;
        hash = Math.imul(hash ^ code, FNV_PRIME);
        high |= code;
      }
      if (at === lt + 1) fail('a tag has no name');
      if (high & 0x80) fail('a name is not ASCII');
      const tagName = table.lookup(lt + 1, at, hash);
      if (open.length === 0 && sawRoot) fail('more than one root element');
      // Where each attribute's name and value are (ATTRIBUTE_FIELDS numbers each), read and
      // checked before anything is made of them.
      let attributeCount = 0;
      for (;;) {
        if (at >= length) fail(`the tag <${tagName}> is not closed`);
        let code = bytes[at] as number;
        const hadSpace = isSpace(code);
        while (isSpace(code)) code = bytes[++at] ?? -1;
        if (code === GT) {
          at++;
          break;
        }
        if (code === SLASH) {
          if (bytes[at + 1] !== GT) fail(`"/" inside the tag <${tagName}>`);
          selfClosing = true;
          at += 2;
          break;
        }
        if (code === -1) fail(`the tag <${tagName}> is not closed`);
        if (!hadSpace) fail(`attributes of <${tagName}> are not separated by white space`);
        const nameStart = at;
        high = 0;
        for (; at < length; at++) {
          const byte = bytes[at] as number;
          if ((BYTE_CLASS[byte] as number) & NAME_END) break;
          high |= byte;
        }
        const nameEnd = at;
        if (at === nameStart) fail(`a malformed attribute in <${tagName}>`);
        if (high & 0x80) fail('a name is not ASCII');
        code = bytes[at] ?? -1;
        while (isSpace(code)) code = bytes[++at] ?? -1;
        if (code !== EQUALS) fail(`an attribute of <${tagName}> has no value`);
        code = bytes[++at] ?? -1;
        while (isSpace(code)) code = bytes[++at] ?? -1;
        if (code !== QUOTE && code !== APOS) fail(`the value of an attribute of <${tagName}> is not quoted`);
        // The value up to the closing quote, classified on the way.
        const valueStart = at + 1;
        let valueEnd = valueStart;
        let classes = 0;
        for (; ; valueEnd++) {
          if (valueEnd >= length) fail(`the value of an attribute of <${tagName}> is not closed`);
          const byte = bytes[valueEnd] as number;
          if (byte === code) break;
          classes |= BYTE_CLASS[byte] as number;
        }
        const field = attributeCount * ATTRIBUTE_FIELDS;
        found[field] = nameStart;
        found[field + 1] = nameEnd;
        found[field + 2] = valueStart;
        found[field + 3] = valueEnd;
        found[field + 4] = classes;
        attributeCount++;
        at = valueEnd + 1;
      }
      // An element left out of the tree needs no attribute objects: a styles part's latent styles
      // are hundreds of distinct attribute sets, a quarter of a small document's XML. (Its syntax
      // is still checked above; only a repeated attribute name goes unnoticed there.)
      const made = attributeCount > 0 && !builder.discards(tagName);
      let attributes = NO_ATTRIBUTES;
      if (made)
        attributes = makeAttributes(bytes, found, attributeCount, table, decodedValues, ignoreAttribute, madeSet);
      tag = made
        ? builder.startTag(tagName, attributes, madeSet.declaresNamespaces, madeSet.space)
        : builder.startTag(tagName, attributes, false, undefined);
      // Kept only when the tag ended at the first '>' after its '<': the span looked up.
      if (at === tagEnd && (made || attributeCount === 0)) tags.remember(lt + 1, tagEnd, tagHash, tag);
    }
    const tagName = tag.name;
    if (!selfClosing && tag.shareable) {
      // The first end tag of this name after it ends it, unless an element of the same name is
      // nested inside (then the span is not one element, and no element read whole was that span).
      let endTag = endTags.get(tagName);
      if (endTag === undefined) {
        endTag = `</${tagName}>`;
        endTags.set(tagName, endTag);
      }
      const end = spanToEndTag(view, bytes, lt, endTag, spanHash);
      if (end !== -1) {
        subtrees ??= new SpanTable<SharedSubtree>(bytes, view, 8);
        const slot = subtrees.find(lt, end, spanHash[0] as number);
        if (slot >= 0 && builder.adopt(subtrees.value(slot))) {
          position = end;
          continue;
        }
        sharing.push(open.length, lt, end, spanHash[0] as number, slot >= 0 ? 0 : 1);
      }
    }
    sawRoot = true;
    builder.open(tag);
    if (selfClosing) builder.close();
    else open.push(tagName);
    position = at;
  }
  if (open.length > 0) fail(`the element <${open[open.length - 1]}> is not closed`);
  if (!sawRoot) fail('there is no root element');
}

/** Numbers kept per shareable element being read (see `sharing` in scanXml). */
const SHARING_FIELDS = 5;

/**
 * Shared subtrees are looked up only this close to their start: the elements worth sharing (run
 * and paragraph properties) are a few hundred bytes, and a lookup hashes and compares every byte.
 */
const SHARED_SUBTREE_MAX_BYTES = 4096;

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Bytes with a '<' in each place, to find a word that holds one (see spanToEndTag). */
const FOUR_LT = 0x3c3c3c3c;

/**
 * Where the first `endTag` after `start` ends (or -1 when none starts within
 * SHARED_SUBTREE_MAX_BYTES), with FNV-1a over the bytes up to there in `hash[0]`, read four at a
 * time (the span tables compare the bytes themselves). One pass: a word is hashed unless it holds
 * a '<', which is the only place an end tag can start.
 */
function spanToEndTag(view: DataView, bytes: Uint8Array, start: number, endTag: string, hash: Int32Array): number {
  const limit = Math.min(bytes.length, start + SHARED_SUBTREE_MAX_BYTES);
  let h = FNV_OFFSET;
  let i = start;
  for (;;) {
    if (i + 4 <= limit) {
      const word = view.getInt32(i);
      const lessThans = word ^ FOUR_LT;
      // Non-zero when some byte of lessThans is zero, that is, some byte of the word is '<'.
      if (((lessThans - 0x01010101) & ~lessThans & 0x80808080) === 0) {
        h = Math.imul(h ^ word, FNV_PRIME);
        i += 4;
        continue;
      }
    }
    const stop = Math.min(i + 4, limit);
    if (i >= stop) return -1;
    for (let at = i; at < stop; at++) {
      if (bytes[at] === LT && bytes[at + 1] === SLASH && startsWith(bytes, at, endTag)) {
        const end = at + endTag.length;
        for (; i + 4 <= end; i += 4) h = Math.imul(h ^ view.getInt32(i), FNV_PRIME);
        for (; i < end; i++) h = Math.imul(h ^ (bytes[i] as number), FNV_PRIME);
        hash[0] = h;
        return end;
      }
    }
    if (i + 4 > limit) return -1;
    h = Math.imul(h ^ view.getInt32(i), FNV_PRIME);
    i += 4;
  }
}

/** Bytes with a '>' in each place, to find a word that holds one (see spanToTagEnd). */
const FOUR_GT = 0x3e3e3e3e;

/**
 * Where the first '>' at or after `start` is, plus one (or -1 when there is none), with FNV-1a
 * over the bytes up to there in `hash[0]`, read four at a time until the word that holds it.
 */
function spanToTagEnd(view: DataView, bytes: Uint8Array, start: number, hash: Int32Array): number {
  const length = bytes.length;
  let h = FNV_OFFSET;
  let i = start;
  for (; i + 4 <= length; i += 4) {
    const word = view.getInt32(i);
    const greaterThans = word ^ FOUR_GT;
    // Non-zero when some byte of greaterThans is zero, that is, some byte of the word is '>'.
    if (((greaterThans - 0x01010101) & ~greaterThans & 0x80808080) !== 0) break;
    h = Math.imul(h ^ word, FNV_PRIME);
  }
  for (; i < length; i++) {
    const byte = bytes[i] as number;
    h = Math.imul(h ^ byte, FNV_PRIME);
    if (byte === GT) {
      hash[0] = h;
      return i + 1;
    }
  }
  return -1;
}

/** Whether the `length` bytes at `a` and at `b` are the same, compared four at a time. */
function sameBytes(view: DataView, bytes: Uint8Array, a: number, b: number, length: number): boolean {
  let i = 0;
  for (; i + 4 <= length; i += 4) if (view.getInt32(a + i) !== view.getInt32(b + i)) return false;
  for (; i < length; i++) if (bytes[a + i] !== bytes[b + i]) return false;
  return true;
}

/** Numbers kept per attribute while a tag is read: name start and end, value start and end, byte classes. */
const ATTRIBUTE_FIELDS = 5;

/** Besides the attributes, what the builder is told: whether an xmlns declaration is among them, and xml:space. */
interface MadeSet {
  declaresNamespaces: boolean;
  space: string | undefined;
}

/**
 * The attributes object of a set seen for the first time (frozen: it is shared), from the
 * positions the scanner found; refuses what the scanner could not check while it only looked.
 * Whether it declares namespaces, and its xml:space, go to `made`: seen here name by name, where a
 * for…in over the new object afterwards cost V8 an enumeration cache per attribute set, and reading
 * xml:space from it a lookup on an object of a shape never seen before.
 */
function makeAttributes(
  bytes: Uint8Array,
  found: readonly number[],
  count: number,
  table: StringTable,
  decodedValues: Map<string, string>,
  ignoreAttribute: ((name: string) => boolean) | undefined,
  made: MadeSet,
): Record<string, string> {
  let attributes = NO_ATTRIBUTES;
  made.declaresNamespaces = false;
  made.space = undefined;
  for (let index = 0; index < count; index++) {
    const field = index * ATTRIBUTE_FIELDS;
    const attributeName = table.ascii(found[field] as number, found[field + 1] as number);
    if (ignoreAttribute?.(attributeName)) continue;
    if (attributeName.charCodeAt(0) === 0x78 /* x */ && attributeName.startsWith('xmlns')) {
      made.declaresNamespaces = true;
    }
    const valueStart = found[field + 2] as number;
    const valueEnd = found[field + 3] as number;
    const classes = found[field + 4] as number;
    if (classes & LESS_THAN) fail(`"<" inside the value of ${attributeName}`);
    if (attributes === NO_ATTRIBUTES) attributes = {};
    else if (Object.hasOwn(attributes, attributeName)) fail(`the attribute ${attributeName} appears twice`);
    let value: string;
    if (valueEnd - valueStart <= SHARED_MAX_LENGTH && (classes & DECODED) === 0) {
      value = table.ascii(valueStart, valueEnd);
    } else {
      value = decodeAttribute(UTF8.decode(bytes.subarray(valueStart, valueEnd)));
      if (value.length <= SHARED_MAX_LENGTH) {
        const known = decodedValues.get(value);
        if (known !== undefined) value = known;
        else decodedValues.set(value, value);
      }
    }
    attributes[attributeName] = value;
    if (attributeName === 'xml:space') made.space = value;
  }
  return attributes === NO_ATTRIBUTES ? attributes : Object.freeze(attributes);
}

function fail(message: string): never {
  throw new MalformedXmlError(message);
}

function sameAscii(bytes: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[start + i] !== text.charCodeAt(i)) return false;
  return true;
}

function startsWith(bytes: Uint8Array, at: number, prefix: string): boolean {
  return sameAscii(bytes, at, Math.min(bytes.length, at + prefix.length), prefix);
}

/** The first `first` `second` pair at or after `from`, or -1. */
function indexOfPair(bytes: Uint8Array, first: number, second: number, from: number): number {
  for (let at = bytes.indexOf(first, from); at !== -1; at = bytes.indexOf(first, at + 1)) {
    if (bytes[at + 1] === second) return at;
  }
  return -1;
}

/** The first occurrence of an ASCII `needle` at or after `from`, or -1. */
function indexOfAscii(bytes: Uint8Array, needle: string, from: number): number {
  const first = needle.charCodeAt(0);
  for (let at = bytes.indexOf(first, from); at !== -1; at = bytes.indexOf(first, at + 1)) {
    if (startsWith(bytes, at, needle)) return at;
  }
  return -1;
}

function isAllSpace(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpace(bytes[i] as number)) return false;
  return true;
}

/** XML 1.0 §2.11: CR LF and lone CR read as LF. */
function normalizeNewlines(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
}

/** Text may not contain "]]>" (§2.4). */
function checkText(text: string): string {
  if (text.indexOf('>') !== -1 && text.indexOf(']]>') !== -1) fail('"]]>" in text');
  return text;
}

function decodeText(raw: string): string {
  const text = checkText(normalizeNewlines(raw));
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
