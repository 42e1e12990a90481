// Seeded mutations of DOCX packages, for `npm run convert-fuzz` (and `sign-fuzz`) and
// test/services/convert/convert-fuzz.test.ts.
// Plain JavaScript with no Node API (fflate and the web's TextEncoder only), so the script and
// the workerd test make the same variant from the same (seed, index, bases).
//
// A variant is one base with one mutation (sometimes two or three, stacked). Mutations either
// edit the package's parts (flipped bytes inside an inflated XML part, extreme numbers in
// attributes, duplicated elements, deep nesting, deleted parts, retargeted relationships, long
// text, tampered images) and re-zip it, or edit the ZIP's own bytes (flips, header fields,
// truncation, slices). Part edits come first: once the ZIP's bytes are mangled, the parts are no
// longer there to edit.
import { unzipSync, zipSync } from 'fflate';
import { concatBytes, flipBytes, pickWeighted, positions, rngFor, spliceBytes } from './fuzz-kit.mjs';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const utf8 = (text) => encoder.encode(text);
const text = (bytes) => decoder.decode(bytes);

/** A base document: its bytes, and its parts when fflate can read it (null when it cannot). */
export function docxBase(name, bytes) {
  let parts = null;
  try {
    parts = new Map(Object.entries(unzipSync(bytes)));
  } catch {}
  return { name, bytes, parts };
}

// ---------------------------------------------------------------------------------------------
// Finding things in XML text (regular expressions over the text: a mutated part need not parse).

const xmlNames = (parts) => [...parts.keys()].filter((name) => /\.(xml|rels)$/i.test(name));

/** An XML part, word/document.xml half the time, or undefined. */
function pickXmlPart(rng, parts, filter = () => true) {
  const names = xmlNames(parts).filter((name) => filter(name, parts.get(name)));
  if (!names.length) return undefined;
  if (names.includes('word/document.xml') && rng.next() < 0.5) return 'word/document.xml';
  return rng.pick(names);
}

const escapeRegExp = (value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Start offsets of the elements named `qname` (at most `cap`). */
function elementStarts(source, qname, cap = 20000) {
  const out = [];
  const pattern = new RegExp(`<${escapeRegExp(qname)}(?=[\\s/>])`, 'g');
  for (const match of source.matchAll(pattern)) {
    out.push(match.index);
    if (out.length >= cap) break;
  }
  return out;
}

/** The end (exclusive) of the element starting at `start`, counting nested ones of the same name. */
function elementEnd(source, qname, start) {
  const pattern = new RegExp(`<(/?)${escapeRegExp(qname)}(?=[\\s/>])[^>]*?(/?)>`, 'g');
  pattern.lastIndex = start;
  let depth = 0;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    if (match[1]) depth--;
    else if (!match[2]) depth++;
    if (depth <= 0) return match.index + match[0].length;
  }
  return undefined;
}

/** Every attribute of every start tag: element and attribute local names, where the value is. */
function attributesOf(source, cap = 200000) {
  const out = [];
  for (const tag of source.matchAll(/<([A-Za-z_][\w:.-]*)(\s[^<>]*?)\/?>/g)) {
    const element = tag[1].replace(/^.*:/, '');
    const attributesAt = tag.index + 1 + tag[1].length;
    for (const attribute of tag[2].matchAll(/([A-Za-z_][\w:.-]*)\s*=\s*"([^"]*)"/g)) {
      if (attribute[1].startsWith('xmlns')) continue;
      const valueStart = attributesAt + attribute.index + attribute[0].indexOf('"') + 1;
      out.push({
        element,
        attribute: attribute[1].replace(/^.*:/, ''),
        qname: attribute[1],
        value: attribute[2],
        start: valueStart,
        end: valueStart + attribute[2].length,
      });
      if (out.length >= cap) return out;
    }
  }
  return out;
}

/**
 * Element/attribute pairs that size or place things (ECMA-376 Part 1 §17.6 sections, §17.3.1
 * paragraph and §17.3.2 run properties, §17.4 tables, §17.9 numbering, §20.4 drawing placement):
 * the numbers layout turns into loops and allocations.
 */
const GEOMETRY = new Set([
  'pgSz:w',
  'pgSz:h',
  'pgMar:top',
  'pgMar:right',
  'pgMar:bottom',
  'pgMar:left',
  'pgMar:header',
  'pgMar:footer',
  'pgMar:gutter',
  'cols:num',
  'cols:space',
  'col:w',
  'col:space',
  'ind:left',
  'ind:right',
  'ind:start',
  'ind:end',
  'ind:hanging',
  'ind:firstLine',
  'ind:leftChars',
  'ind:firstLineChars',
  'tab:pos',
  'spacing:before',
  'spacing:after',
  'spacing:line',
  'spacing:val',
  'sz:val',
  'szCs:val',
  'kern:val',
  'position:val',
  'w:val',
  'gridCol:w',
  'tcW:w',
  'tblW:w',
  'tblInd:w',
  'gridSpan:val',
  'gridBefore:val',
  'gridAfter:val',
  'trHeight:val',
  'tblCellSpacing:w',
  'top:w',
  'left:w',
  'bottom:w',
  'right:w',
  'top:sz',
  'bottom:sz',
  'top:space',
  'bottom:space',
  'pgNumType:start',
  'lnNumType:countBy',
  'lnNumType:start',
  'numId:val',
  'ilvl:val',
  'start:val',
  'lvl:ilvl',
  'lvlRestart:val',
  'abstractNumId:val',
  'num:numId',
  'abstractNum:abstractNumId',
  'footnoteReference:id',
  'endnoteReference:id',
  'footnote:id',
  'extent:cx',
  'extent:cy',
  'ext:cx',
  'ext:cy',
  'off:x',
  'off:y',
  'docGrid:linePitch',
  'docGrid:charSpace',
  'framePr:w',
  'framePr:h',
  'framePr:x',
  'framePr:y',
  'framePr:lines',
  'outlineLvl:val',
  'sym:char',
  'simplePos:x',
  'simplePos:y',
  'anchor:distT',
  'anchor:relativeHeight',
  'srcRect:l',
  'srcRect:t',
  'srcRect:r',
  'srcRect:b',
  'fitText:val',
  'vMerge:val',
  'textDirection:val',
  'jc:val',
]);

const HUGE_DIGITS = '9'.repeat(100_000);
const HUGE_TEXT = 'x'.repeat(200_000);

/** Values that break number readers: the edges of int32, float64 and of strings. */
export const EXTREME_VALUES = [
  '0',
  '-1',
  '1',
  '2147483647',
  '-2147483648',
  '4294967295',
  '4294967296',
  '9007199254740992',
  '-9007199254740992',
  '1e308',
  '-1e308',
  '1e-308',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0.5',
  '-0.5',
  '12pt',
  '-99999in',
  '1e3mm',
  '0x7FFFFFFF',
  '+5',
  ' 7 ',
  '',
  'auto',
  '99999999999999999999999999999',
  '9'.repeat(400),
  HUGE_DIGITS,
  HUGE_TEXT,
];

// ---------------------------------------------------------------------------------------------
// Part mutations: (rng, parts, options) → a description, or undefined when the base has nothing
// for them to aim at. They replace entries of `parts` (never edit bytes in place: the base's
// parts are shared by every variant).

function setText(parts, name, source) {
  parts.set(name, utf8(source));
}

/** How many copies of `unit` characters fit in the growth allowed. */
const copiesWithin = (wanted, unit, options) =>
  Math.max(1, Math.min(wanted, Math.floor(options.maxGrowth / Math.max(1, unit))));

function xmlFlip(rng, parts) {
  const name = pickXmlPart(rng, parts, (_, bytes) => bytes.length > 0);
  if (!name) return undefined;
  const n = rng.range(1, 16);
  const flipped = flipBytes(rng, parts.get(name), n);
  parts.set(name, flipped.bytes);
  return `${name}: ${n} byte(s) at ${positions(flipped.at)}`;
}

function extremeNumber(rng, parts, options) {
  const name = pickXmlPart(rng, parts, (partName) => !partName.endsWith('.rels'));
  if (!name) return undefined;
  const source = text(parts.get(name));
  const all = attributesOf(source);
  const numeric = all.filter((a) => /^-?\d+(\.\d+)?$/.test(a.value));
  const geometry = numeric.filter((a) => GEOMETRY.has(`${a.element}:${a.attribute}`));
  const pool = geometry.length && rng.next() < 0.7 ? geometry : numeric.length ? numeric : all;
  // wp:posOffset and friends keep their number as element text (ECMA-376 Part 1 §20.4.3.3).
  const offsets = [...source.matchAll(/<wp:(posOffset)>(-?\d+)<\/wp:posOffset>/g)].map((m) => ({
    element: m[1],
    attribute: '(text)',
    qname: 'text',
    value: m[2],
    start: m.index + m[0].indexOf('>') + 1,
    end: m.index + m[0].indexOf('>') + 1 + m[2].length,
  }));
  const candidates = offsets.length && rng.next() < 0.15 ? offsets : pool;
  if (!candidates.length) return undefined;
  const value = rng.pick(EXTREME_VALUES);
  const first = rng.pick(candidates);
  const mode = rng.pick(['one', 'one', 'some', 'all']);
  let targets = [first];
  if (mode === 'some') targets = Array.from({ length: rng.range(2, 8) }, () => rng.pick(candidates));
  if (mode === 'all')
    targets = candidates.filter((a) => a.element === first.element && a.attribute === first.attribute);
  targets = [...new Set(targets)].sort((a, b) => a.start - b.start);
  targets = targets.slice(0, copiesWithin(targets.length, value.length, options));
  let out = '';
  let at = 0;
  for (const target of targets) {
    out += source.slice(at, target.start) + value;
    at = target.end;
  }
  setText(parts, name, out + source.slice(at));
  const shown = value.length > 24 ? `'${value.slice(0, 8)}…' (${value.length} chars)` : `'${value}'`;
  return `${name}: ${first.element}@${first.qname} ${first.value} -> ${shown} (${mode}: ${targets.length})`;
}

const DUPLICABLE = [
  'w:p',
  'w:r',
  'w:t',
  'w:tbl',
  'w:tr',
  'w:tc',
  'w:sectPr',
  'w:pPr',
  'w:rPr',
  'w:tab',
  'w:br',
  'w:drawing',
  'w:fldChar',
  'w:instrText',
  'w:footnoteReference',
  'w:footnote',
  'w:numPr',
  'w:lvl',
  'w:abstractNum',
  'w:num',
  'w:style',
  'w:hyperlink',
  'w:bookmarkStart',
  'w:sdt',
  'w:gridCol',
  'w:pgSz',
  'w:headerReference',
  'Relationship',
  'Override',
];

function duplicateElement(rng, parts, options) {
  const name = pickXmlPart(rng, parts);
  if (!name) return undefined;
  const source = text(parts.get(name));
  const present = DUPLICABLE.filter((qname) => source.includes(`<${qname}`));
  if (!present.length) return undefined;
  const qname = rng.pick(present);
  const starts = elementStarts(source, qname);
  if (!starts.length) return undefined;
  const start = rng.pick(starts);
  const end = elementEnd(source, qname, start);
  if (end === undefined) return undefined;
  const element = source.slice(start, end);
  const copies = copiesWithin(rng.pick([2, 10, 100, 1000, 10000]), element.length, options);
  setText(parts, name, source.slice(0, end) + element.repeat(copies) + source.slice(end));
  return `${name}: ${qname} at ${start} (${element.length} chars) copied ${copies} time(s)`;
}

function duplicateAttribute(rng, parts) {
  const name = pickXmlPart(rng, parts);
  if (!name) return undefined;
  const source = text(parts.get(name));
  const all = attributesOf(source, 20000);
  if (!all.length) return undefined;
  const target = rng.pick(all);
  const copy = ` ${target.qname}="${rng.pick(EXTREME_VALUES.slice(0, 12))}"`;
  setText(parts, name, source.slice(0, target.end + 1) + copy + source.slice(target.end + 1));
  return `${name}: ${target.element}@${target.qname} given twice`;
}

const WP = 'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const PIC = 'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** Block-level nestings (each wraps `<w:p/>`), as [open, close] per level. */
const BLOCK_NESTINGS = {
  table: ['<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc>', '<w:p/></w:tc></w:tr></w:tbl>'],
  sdt: ['<w:sdt><w:sdtContent>', '</w:sdtContent></w:sdt>'],
  customXml: ['<w:customXml w:element="deep">', '</w:customXml>'],
};

/** Inline nestings (each wraps a run), as [open, close] per level. */
const INLINE_NESTINGS = {
  hyperlink: ['<w:hyperlink w:anchor="deep">', '</w:hyperlink>'],
  smartTag: ['<w:smartTag w:element="deep">', '</w:smartTag>'],
  ins: ['<w:ins w:id="901" w:author="fuzz">', '</w:ins>'],
  fldSimple: ['<w:fldSimple w:instr=" PAGE ">', '</w:fldSimple>'],
  sdt: ['<w:sdt><w:sdtContent>', '</w:sdtContent></w:sdt>'],
  dir: ['<w:dir w:val="rtl">', '</w:dir>'],
};

function deepNesting(rng, parts) {
  const name = 'word/document.xml';
  if (!parts.has(name)) return undefined;
  const source = text(parts.get(name));
  const paragraphs = elementStarts(source, 'w:p');
  if (!paragraphs.length) return undefined;
  const start = rng.pick(paragraphs);
  const depth = rng.pick([4, 16, 60, 120, 300]);
  const kind = rng.pick(['block', 'block', 'inline', 'fields']);
  if (kind === 'block') {
    const which = rng.pick(Object.keys(BLOCK_NESTINGS));
    const [open, close] = BLOCK_NESTINGS[which];
    const nested = `${open.repeat(depth)}<w:p><w:r><w:t>deep</w:t></w:r></w:p>${close.repeat(depth)}`;
    setText(parts, name, source.slice(0, start) + nested + source.slice(start));
    return `${name}: ${which} nested ${depth} deep before the paragraph at ${start}`;
  }
  const end = elementEnd(source, 'w:p', start);
  if (end === undefined || source[end - 2] === '/') return undefined;
  const closeAt = source.lastIndexOf('</w:p>', end);
  let inner;
  let label;
  if (kind === 'fields') {
    // Fields nest (ECMA-376 Part 1 §17.16.2); an unbalanced begin is left open.
    const balanced = rng.next() < 0.5;
    const field =
      '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> IF 1 = 1 "</w:instrText></w:r>';
    const end = '<w:r><w:instrText>"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>';
    inner = `${field.repeat(depth)}<w:r><w:t>deep</w:t></w:r>${balanced ? end.repeat(depth) : ''}`;
    label = `${balanced ? 'balanced' : 'unclosed'} fields`;
  } else {
    const which = rng.pick(Object.keys(INLINE_NESTINGS));
    const [open, close] = INLINE_NESTINGS[which];
    inner = `${open.repeat(depth)}<w:r><w:t>deep</w:t></w:r>${close.repeat(depth)}`;
    label = which;
  }
  setText(parts, name, source.slice(0, closeAt) + inner + source.slice(closeAt));
  return `${name}: ${label} nested ${depth} deep in the paragraph at ${start}`;
}

function deletePart(rng, parts) {
  const names = [...parts.keys()];
  if (names.length < 2) return undefined;
  const core = names.filter((n) =>
    /^(\[Content_Types\]\.xml|_rels\/\.rels|word\/(document|styles|numbering|settings|fontTable|footnotes|endnotes)\.xml|word\/_rels\/document\.xml\.rels)$/.test(
      n,
    ),
  );
  const name = core.length && rng.next() < 0.6 ? rng.pick(core) : rng.pick(names);
  parts.delete(name);
  return `deleted ${name}`;
}

const RELATIONSHIP_TYPES = [
  'officeDocument',
  'styles',
  'numbering',
  'settings',
  'footnotes',
  'endnotes',
  'header',
  'footer',
  'image',
  'hyperlink',
  'theme',
  'fontTable',
  'comments',
].map((kind) => `http://schemas.openxmlformats.org/officeDocument/2006/relationships/${kind}`);

function swapRelationships(rng, parts, options) {
  const rels = [...parts.keys()].filter((n) => n.endsWith('.rels'));
  if (!rels.length) return undefined;
  const name =
    rels.includes('word/_rels/document.xml.rels') && rng.next() < 0.7 ? 'word/_rels/document.xml.rels' : rng.pick(rels);
  const source = text(parts.get(name));
  const attributes = attributesOf(source).filter((a) => a.element === 'Relationship');
  const targets = attributes.filter((a) => a.attribute === 'Target');
  if (!targets.length) return undefined;
  const edits = [];
  const mode = rng.pick(['swap', 'swap', 'retarget', 'retype', 'same-id', 'external']);
  if (mode === 'swap') {
    if (targets.length < 2) return undefined;
    const a = rng.pick(targets);
    const b = rng.pick(targets.filter((t) => t !== a));
    edits.push([a, b.value], [b, a.value]);
  } else if (mode === 'retarget') {
    const a = rng.pick(targets);
    const partNames = [...parts.keys()];
    const value = rng.pick([
      'missing.xml',
      '../../../../etc/passwd',
      '/word/document.xml',
      'document.xml',
      '',
      '.',
      'word/',
      '%2e%2e/%2e%2e/x.xml',
      'http://127.0.0.1/x.png',
      `media/${'a'.repeat(copiesWithin(5000, 1, options))}.png`,
      `/${rng.pick(partNames)}`,
      name.replace(/_rels\/|\.rels$/g, ''),
    ]);
    edits.push([a, value]);
  } else if (mode === 'retype') {
    const types = attributes.filter((a) => a.attribute === 'Type');
    if (!types.length) return undefined;
    edits.push([rng.pick(types), rng.pick(RELATIONSHIP_TYPES)]);
  } else if (mode === 'same-id') {
    const ids = attributes.filter((a) => a.attribute === 'Id');
    if (ids.length < 2) return undefined;
    const a = rng.pick(ids);
    edits.push([a, rng.pick(ids.filter((b) => b !== a)).value]);
  } else {
    const a = rng.pick(targets);
    edits.push([a, `${a.value}" TargetMode="External`]);
  }
  edits.sort((x, y) => y[0].start - x[0].start);
  let out = source;
  for (const [attribute, value] of edits) out = out.slice(0, attribute.start) + value + out.slice(attribute.end);
  setText(parts, name, out);
  return `${name}: ${mode} ${edits.map(([a, v]) => `${a.qname} '${shorten(a.value)}' -> '${shorten(v)}'`).join(', ')}`;
}

/** A long value by its end, where a relationship type or target says what it is. */
const shorten = (value) => (value.length > 48 ? `…${value.slice(-44)}` : value);

function truncatePart(rng, parts) {
  const names = [...parts.keys()].filter((n) => parts.get(n).length > 0);
  if (!names.length) return undefined;
  const name = names.includes('word/document.xml') && rng.next() < 0.4 ? 'word/document.xml' : rng.pick(names);
  const bytes = parts.get(name);
  const at = rng.next() < 0.2 ? 0 : rng.int(bytes.length);
  parts.set(name, bytes.slice(0, at));
  return `${name} cut at ${at} of ${bytes.length}`;
}

/** Texts that stress line breaking and shaping: one unbroken word, spaces, marks, scripts, XML-illegal references. */
const LONG_TEXTS = [
  ['unbroken word', 'x'],
  ['spaces', ' '],
  ['tabs', '\t'],
  ['combining marks', 'a\u0301\u0302\u0303'],
  ['emoji', '\u{1F600}\u200D\u{1F469}'],
  ['Arabic', '\u0645\u0631\u062D\u0628\u0627 '],
  ['Thai', '\u0E2A\u0E27\u0E31\u0E2A\u0E14\u0E35'],
  ['CJK', '\u6587\u5B57'],
  ['soft hyphens', 'ab\u00AD'],
  ['zero-width spaces', 'a\u200B'],
  ['bidi controls', '\u202E\u2067a'],
];

function longText(rng, parts, options) {
  const name = pickXmlPart(rng, parts, (_, bytes) => text(bytes).includes('<w:t'));
  if (!name) return undefined;
  const source = text(parts.get(name));
  const runs = [...source.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)];
  if (!runs.length) return undefined;
  const run = rng.pick(runs);
  const at = run.index + run[0].indexOf('>') + 1;
  let inserted;
  let label;
  if (rng.next() < 0.15) {
    // Not Chars (XML 1.0 §2.2): the parser must refuse them.
    inserted = rng.pick(['&#0;', '&#xD800;', '&#xFFFF;', '&#x1;', '\u0001', '&#x110000;']);
    label = `character ${inserted.replace('\u0001', 'U+0001')}`;
  } else {
    const [kind, unit] = rng.pick(LONG_TEXTS);
    const length = rng.pick([1000, 10000, 100000, 400000]);
    const copies = copiesWithin(Math.ceil(length / unit.length), unit.length * 3, options);
    inserted = unit.repeat(copies);
    label = `${kind} × ${copies}`;
  }
  setText(parts, name, source.slice(0, at) + inserted + source.slice(at + run[1].length));
  return `${name}: text at ${at} replaced by ${label}`;
}

const RUN_CONTENT = [
  '<w:br w:type="page"/>',
  '<w:br w:type="column"/>',
  '<w:br/>',
  '<w:tab/>',
  '<w:ptab w:relativeTo="margin" w:alignment="right" w:leader="dot"/>',
  '<w:sym w:font="Symbol" w:char="F0FF"/>',
  '<w:sym w:font="Wingdings" w:char="FFFFFFFF"/>',
  '<w:footnoteReference w:id="12345"/>',
  '<w:endnoteReference w:id="-5"/>',
  '<w:fldChar w:fldCharType="end"/>',
  '<w:fldChar w:fldCharType="separate"/>',
  '<w:cr/>',
  '<w:noBreakHyphen/>',
  '<w:softHyphen/>',
  '<w:pgNum/>',
  '<w:object/>',
  `<w:drawing><wp:inline ${WP}><wp:extent cx="9223372036854775807" cy="-1"/><wp:docPr id="1" name="x"/><a:graphic ${A}><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic ${PIC}><pic:blipFill><a:blip ${R} r:embed="rIdMissing"/></pic:blipFill><pic:spPr><a:xfrm><a:ext cx="1" cy="1"/></a:xfrm></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>`,
];

function insertRunContent(rng, parts, options) {
  const name = pickXmlPart(rng, parts, (_, bytes) => text(bytes).includes('</w:r>'));
  if (!name) return undefined;
  const source = text(parts.get(name));
  const ends = [...source.matchAll(/<\/w:r>/g)].map((m) => m.index);
  const at = rng.pick(ends);
  const snippet = rng.pick(RUN_CONTENT);
  const copies = copiesWithin(rng.pick([1, 10, 1000, 20000]), snippet.length, options);
  setText(parts, name, source.slice(0, at) + snippet.repeat(copies) + source.slice(at));
  return `${name}: ${snippet.slice(0, 60)} × ${copies} in the run ending at ${at}`;
}

function declaration(rng, parts) {
  const name = pickXmlPart(rng, parts);
  if (!name) return undefined;
  const source = text(parts.get(name));
  const body = source.replace(/^\uFEFF?\s*<\?xml[^?]*\?>/, '');
  const root = /<([A-Za-z_][\w:.-]*)/.exec(body)?.[1] ?? 'w:document';
  const replacement = rng.pick([
    '<?xml version="1.0" encoding="UTF-16"?>',
    '<?xml version="1.0" encoding="ISO-8859-1"?>',
    '<?xml version="1.0" encoding="bogus"?>',
    '<?xml version="1.1"?>',
    '<?xml version="2.0"?>',
    '\uFEFF<?xml version="1.0" encoding="UTF-8"?>',
    '',
    '   <?xml version="1.0"?>',
    `<?xml version="1.0"?><!DOCTYPE ${root} [<!ENTITY a "aaaaaaaaaa">]>`,
    `<?xml version="1.0"?><!DOCTYPE ${root} SYSTEM "file:///etc/passwd">`,
    '<?xml version="1.0"?><?fuzz processing instruction?><!-- comment -->',
  ]);
  setText(parts, name, replacement + body);
  return `${name}: declaration -> ${JSON.stringify(replacement.slice(0, 80))}`;
}

// CRC-32 (ISO 3309, as PNG §5.5 uses it), to keep a tampered PNG chunk's checksum right.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const DIMENSIONS = [0, 1, 65535, 65536, 0x7fffffff, 0xffffffff, 100000];

function tamperImage(rng, parts) {
  const names = [...parts.keys()].filter((n) => /^word\/media\//.test(n) && parts.get(n).length > 32);
  if (!names.length) return undefined;
  const name = rng.pick(names);
  const bytes = new Uint8Array(parts.get(name));
  const view = new DataView(bytes.buffer);
  const isPng = bytes[0] === 0x89 && bytes[1] === 0x50 && text(bytes.subarray(12, 16)) === 'IHDR';
  if (isPng && rng.next() < 0.7) {
    // IHDR (PNG §11.2.2): width and height at 16 and 20, CRC after the 13 data bytes.
    const width = rng.pick(DIMENSIONS);
    const height = rng.pick(DIMENSIONS);
    view.setUint32(16, width);
    view.setUint32(20, height);
    view.setUint32(29, crc32(bytes.subarray(12, 29)));
    parts.set(name, bytes);
    return `${name}: PNG declares ${width} × ${height}`;
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && rng.next() < 0.7) {
    // The first SOFn marker (ITU T.81 §B.2.2): height and width at +5 and +7, 16 bits each.
    for (let i = 2; i + 9 < bytes.length; i++) {
      if (
        bytes[i] === 0xff &&
        bytes[i + 1] >= 0xc0 &&
        bytes[i + 1] <= 0xcf &&
        ![0xc4, 0xc8, 0xcc].includes(bytes[i + 1])
      ) {
        const height = rng.pick([0, 1, 65535]);
        const width = rng.pick([0, 1, 65535]);
        view.setUint16(i + 5, height);
        view.setUint16(i + 7, width);
        parts.set(name, bytes);
        return `${name}: JPEG SOF declares ${width} × ${height}`;
      }
    }
  }
  const flipped = flipBytes(rng, bytes, rng.range(1, 8), [0, Math.min(bytes.length, 64)]);
  parts.set(name, flipped.bytes);
  return `${name}: header bytes flipped at ${positions(flipped.at)}`;
}

// ---------------------------------------------------------------------------------------------
// ZIP mutations: (rng, bytes) → { bytes, description }, or undefined.

const SIGNATURES = {
  local: [0x50, 0x4b, 0x03, 0x04],
  central: [0x50, 0x4b, 0x01, 0x02],
  end: [0x50, 0x4b, 0x05, 0x06],
};

/** The fields of ZIP records (APPNOTE.TXT §4.3.7, §4.3.12, §4.3.16), as [name, offset, width]. */
const ZIP_FIELDS = {
  local: [
    ['flags', 6, 2],
    ['method', 8, 2],
    ['crc', 14, 4],
    ['compressed size', 18, 4],
    ['size', 22, 4],
    ['name length', 26, 2],
    ['extra length', 28, 2],
  ],
  central: [
    ['flags', 8, 2],
    ['method', 10, 2],
    ['crc', 16, 4],
    ['compressed size', 20, 4],
    ['size', 24, 4],
    ['name length', 28, 2],
    ['extra length', 30, 2],
    ['comment length', 32, 2],
    ['local header offset', 42, 4],
  ],
  end: [
    ['entries on disk', 8, 2],
    ['entries', 10, 2],
    ['directory size', 12, 4],
    ['directory offset', 16, 4],
    ['comment length', 20, 2],
  ],
};

function recordsOf(bytes, signature) {
  const out = [];
  for (let i = 0; i + 4 <= bytes.length; i++) {
    if (
      bytes[i] === signature[0] &&
      bytes[i + 1] === signature[1] &&
      bytes[i + 2] === signature[2] &&
      bytes[i + 3] === signature[3]
    ) {
      out.push(i);
    }
  }
  return out;
}

function zipField(rng, bytes) {
  const kind = rng.pick(['local', 'central', 'central', 'end']);
  const records = recordsOf(bytes, SIGNATURES[kind]);
  if (!records.length) return undefined;
  const at = rng.pick(records);
  const [field, offset, width] = rng.pick(ZIP_FIELDS[kind]);
  if (at + offset + width > bytes.length) return undefined;
  const copy = new Uint8Array(bytes);
  const view = new DataView(copy.buffer);
  const old = width === 2 ? view.getUint16(at + offset, true) : view.getUint32(at + offset, true);
  const max = width === 2 ? 0xffff : 0xffffffff;
  const value =
    field === 'method'
      ? rng.pick([0, 1, 9, 12, 14, 99, 0xffff])
      : rng.pick([0, 1, max, max >>> 1, (max >>> 1) + 1, (old + 1) & max, (old - 1) & max, rng.int(max)]);
  if (width === 2) view.setUint16(at + offset, value, true);
  else view.setUint32(at + offset, value >>> 0, true);
  return { bytes: copy, description: `${kind} record at ${at}: ${field} ${old} -> ${value}` };
}

const ZIP_MUTATIONS = [
  {
    name: 'zip-flip',
    weight: 4,
    apply: (rng, bytes) => {
      const n = rng.range(1, 32);
      const flipped = flipBytes(rng, bytes, n);
      return { bytes: flipped.bytes, description: `${n} byte(s) at ${positions(flipped.at)}` };
    },
  },
  { name: 'zip-field', weight: 4, apply: zipField },
  {
    name: 'truncate',
    weight: 3,
    apply: (rng, bytes) => {
      // Half the cuts in the last 4 KiB, where the central directory is.
      const at = rng.next() < 0.5 ? Math.max(0, bytes.length - 1 - rng.int(4096)) : rng.int(bytes.length);
      return { bytes: bytes.slice(0, at), description: `cut at ${at} of ${bytes.length}` };
    },
  },
  {
    name: 'zip-slice',
    weight: 2,
    apply: (rng, bytes) => {
      const start = rng.int(bytes.length);
      const length = rng.range(1, Math.max(1, Math.min(bytes.length - start, rng.pick([1, 16, 512, 8192]))));
      if (rng.next() < 0.5) {
        return {
          bytes: spliceBytes(bytes, start, start + length, new Uint8Array()),
          description: `removed [${start}, +${length})`,
        };
      }
      const to = rng.int(bytes.length + 1);
      return {
        bytes: spliceBytes(bytes, to, to, bytes.slice(start, start + length)),
        description: `[${start}, +${length}) copied to ${to}`,
      };
    },
  },
  {
    name: 'zip-garbage',
    weight: 1,
    apply: (rng, bytes) => {
      const garbage = rng.bytes(rng.range(1, 2048));
      const before = rng.next() < 0.5;
      return {
        bytes: before ? concatBytes(garbage, bytes) : concatBytes(bytes, garbage),
        description: `${garbage.length} random byte(s) ${before ? 'before' : 'after'} the ZIP`,
      };
    },
  },
];

const PART_MUTATIONS = [
  { name: 'xml-flip', weight: 4, apply: xmlFlip },
  { name: 'extreme-number', weight: 10, apply: extremeNumber },
  { name: 'duplicate-element', weight: 4, apply: duplicateElement },
  { name: 'duplicate-attribute', weight: 1, apply: duplicateAttribute },
  { name: 'deep-nesting', weight: 3, apply: deepNesting },
  { name: 'delete-part', weight: 3, apply: deletePart },
  { name: 'swap-relationships', weight: 3, apply: swapRelationships },
  { name: 'truncate-part', weight: 2, apply: truncatePart },
  { name: 'long-text', weight: 2, apply: longText },
  { name: 'run-content', weight: 3, apply: insertRunContent },
  { name: 'declaration', weight: 1, apply: declaration },
  { name: 'image', weight: 1, apply: tamperImage },
];

const ALL = [
  ...PART_MUTATIONS.map((m) => ({ ...m, kind: 'part' })),
  ...ZIP_MUTATIONS.map((m) => ({ ...m, kind: 'zip' })),
];

export const MUTATION_NAMES = ALL.map((m) => m.name);

/** The package again as a ZIP (a fixed time stamp, so a variant's bytes are the same every run). */
function rezip(parts, level) {
  return zipSync(Object.fromEntries(parts), { level, mtime: new Date('2026-01-01T00:00:00Z') });
}

/**
 * Variant `index` of a run seeded with `seed`: a base drawn from `bases` (docxBase results, in a
 * fixed order) and one mutation, sometimes two or three stacked. `maxGrowth` bounds, in
 * characters, what one mutation adds (copies of an element, a long text), so a variant stays a
 * document that is small to send, however much it asks of the worker.
 */
export function makeDocxVariant(bases, seed, index, { maxGrowth = 8 * 1024 * 1024 } = {}) {
  const rng = rngFor(seed, index);
  const base = rng.pick(bases);
  return { index, base: base.name, ...mutateDocx(rng, base, { maxGrowth }) };
}

/**
 * `base` (a docxBase result) with one mutation, sometimes two or three stacked, drawn with `rng`:
 * the package's bytes and what was done. makeDocxVariant's, for a fuzz that draws more than a
 * DOCX from the same generator (`npm run sign-fuzz`).
 */
export function mutateDocx(rng, base, { maxGrowth = 8 * 1024 * 1024 } = {}) {
  const options = { maxGrowth };
  let parts = base.parts ? new Map(base.parts) : null;
  let partsChanged = false;
  let bytes = base.bytes;
  const steps = [];
  const rounds = rng.next() < 0.85 ? 1 : rng.range(2, 3);
  for (let round = 0; round < rounds; round++) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const mutation = pickWeighted(rng, ALL);
      if (mutation.kind === 'part') {
        if (!parts) continue;
        const description = mutation.apply(rng, parts, options);
        if (!description) continue;
        partsChanged = true;
        steps.push(`${mutation.name} (${description})`);
        break;
      }
      if (parts && partsChanged) bytes = rezip(parts, rng.pick([6, 6, 0, 9]));
      parts = null;
      const result = mutation.apply(rng, bytes);
      if (!result) continue;
      bytes = result.bytes;
      steps.push(`${mutation.name} (${result.description})`);
      break;
    }
  }
  if (parts && partsChanged) bytes = rezip(parts, rng.pick([6, 6, 0, 9]));
  return { bytes, mutation: steps.join(' + ') || 'none' };
}
