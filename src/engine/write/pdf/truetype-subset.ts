/**
 * A TrueType font program with only the glyphs a document shows, for FontFile2 (ISO 32000-1
 * §9.9): glyph i of the subset is the i-th id asked for (so CIDToGIDMap /Identity maps CIDs to
 * it), followed by the components of composite glyphs that were not asked for. An id asked for
 * may also be a shifted copy of a glyph (ShiftedGlyph), written as a composite glyph of one
 * component, the glyph, at an offset (glyf, "Composite glyph description", ARGS_ARE_XY_VALUES).
 *
 * Everything is copied from the file as it is, not decoded and encoded again: the glyph outlines
 * (with composite glyphs' component ids renumbered), their metrics, and the instruction tables.
 * Written are the tables a PDF reader uses for a CIDFontType2 (§9.9, "TrueType font programs"):
 * head, hhea, maxp, loca, glyf, hmtx, and cvt, fpgm and prep when the font has them.
 *
 * References: OpenType 1.9 (ISO/IEC 14496-22): Table directory; head (indexToLocFormat at 50,
 * checksumAdjustment at 8); hhea (numberOfHMetrics at 34); maxp (numGlyphs at 4); loca; hmtx;
 * glyf (composite glyph flags).
 */

interface TableRecord {
  offset: number;
  length: number;
}

/** A glyph drawn moved by (dx, dy) font units: the dot GPOS places that has no text (pdf-fonts.ts). */
export interface ShiftedGlyph {
  glyphId: number;
  dx: number;
  dy: number;
}

/** Composite glyph flags (glyf, "Composite glyph description"). */
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const ARGS_ARE_XY_VALUES = 0x0002;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

/** Tables a PDF reader needs, in the ascending tag order the directory must list them in. */
const TABLES = ['cvt ', 'fpgm', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'prep'] as const;

function tableDirectory(view: DataView): Map<string, TableRecord> {
  const tables = new Map<string, TableRecord>();
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(
      view.getUint8(at),
      view.getUint8(at + 1),
      view.getUint8(at + 2),
      view.getUint8(at + 3),
    );
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset + length > view.byteLength) throw new Error(`The font's ${tag} table runs past its end.`);
    tables.set(tag, { offset, length });
  }
  return tables;
}

function required(tables: Map<string, TableRecord>, tag: string): TableRecord {
  const table = tables.get(tag);
  if (!table) throw new Error(`The font has no ${tag} table.`);
  return table;
}

/** OpenType table checksum: the sum of its big-endian uint32s, zero-padded to a multiple of 4. */
function checksum(bytes: Uint8Array, start: number, length: number): number {
  let sum = 0;
  const end = start + length;
  let at = start;
  for (; at + 4 <= end; at += 4) {
    sum =
      (sum +
        (((bytes[at] as number) << 24) |
          ((bytes[at + 1] as number) << 16) |
          ((bytes[at + 2] as number) << 8) |
          (bytes[at + 3] as number))) >>>
      0;
  }
  if (at < end) {
    let last = 0;
    for (let k = 0; k < 4; k++) last = (last << 8) | (at + k < end ? (bytes[at + k] as number) : 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

/**
 * The subset of `font` (TrueType bytes) with `glyphIds` as its first glyphs, in that order;
 * `glyphIds[0]` should be 0 (.notdef). A negative id, -1 - i, is the copy `shifted[i]`.
 */
export function subsetTrueType(
  font: Uint8Array,
  glyphIds: readonly number[],
  shifted: readonly ShiftedGlyph[] = [],
): Uint8Array {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = tableDirectory(view);
  const head = required(tables, 'head');
  const hhea = required(tables, 'hhea');
  const maxp = required(tables, 'maxp');
  const hmtx = required(tables, 'hmtx');
  const loca = required(tables, 'loca');
  const glyf = required(tables, 'glyf');
  if (head.length < 54 || hhea.length < 36 || maxp.length < 6) throw new Error('The font has a truncated table.');
  const longLoca = view.getInt16(head.offset + 50) === 1;
  const numberOfHMetrics = Math.min(view.getUint16(hhea.offset + 34), hmtx.length >> 2);
  if (numberOfHMetrics === 0) throw new Error('The font has no horizontal metrics.');
  // Glyphs past what loca can locate are written empty.
  const numGlyphs = Math.min(view.getUint16(maxp.offset + 4), (loca.length >> (longLoca ? 2 : 1)) - 1);

  const glyphRange = (glyphId: number): [number, number] => {
    if (glyphId >= numGlyphs) return [0, 0];
    const start = longLoca ? view.getUint32(loca.offset + 4 * glyphId) : 2 * view.getUint16(loca.offset + 2 * glyphId);
    const end = longLoca
      ? view.getUint32(loca.offset + 4 * glyphId + 4)
      : 2 * view.getUint16(loca.offset + 2 * glyphId + 2);
    if (end <= start || end > glyf.length) return [0, 0];
    return [glyf.offset + start, glyf.offset + end];
  };

  // Glyphs in subset order; composites' components are appended as they are found.
  const order = [...glyphIds];
  const index = new Map<number, number>();
  order.forEach((glyphId, i) => {
    if (glyphId >= 0 && !index.has(glyphId)) index.set(glyphId, i);
  });
  const outlines: Uint8Array[] = [];
  /** The left side bearing of each shifted copy, by subset index (its outline's new xMin). */
  const shiftedBearings = new Map<number, number>();
  let glyfLength = 0;
  for (let i = 0; i < order.length; i++) {
    const id = order[i] as number;
    if (id < 0) {
      const copy = shifted[-1 - id];
      if (!copy) throw new Error(`No shifted glyph ${-1 - id} was given.`);
      let component = index.get(copy.glyphId);
      if (component === undefined) {
        component = order.length;
        order.push(copy.glyphId);
        index.set(copy.glyphId, component);
      }
      const outline = shiftedOutline(view, glyphRange(copy.glyphId), component, copy.dx, copy.dy);
      shiftedBearings.set(i, outline.length > 0 ? new DataView(outline.buffer).getInt16(2) : 0);
      outlines.push(outline);
      glyfLength += (outline.length + 3) & ~3;
      continue;
    }
    const [start, end] = glyphRange(id);
    let outline = font.subarray(start, end);
    if (end - start >= 10 && view.getInt16(start) < 0) {
      outline = outline.slice();
      const copy = new DataView(outline.buffer);
      let at = 10;
      for (;;) {
        if (at + 4 > outline.length) break;
        const flags = copy.getUint16(at);
        const component = copy.getUint16(at + 2);
        let renumbered = index.get(component);
        if (renumbered === undefined) {
          renumbered = order.length;
          order.push(component);
          index.set(component, renumbered);
        }
        copy.setUint16(at + 2, renumbered);
        at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
        if (flags & WE_HAVE_A_SCALE) at += 2;
        else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
        else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
        if (!(flags & MORE_COMPONENTS)) break;
      }
    }
    outlines.push(outline);
    glyfLength += (outline.length + 3) & ~3;
  }

  const count = order.length;
  const newGlyf = new Uint8Array(glyfLength);
  const newLoca = new Uint8Array(4 * (count + 1));
  const locaView = new DataView(newLoca.buffer);
  const newHmtx = new Uint8Array(4 * count);
  const hmtxView = new DataView(newHmtx.buffer);
  let offset = 0;
  outlines.forEach((outline, i) => {
    newGlyf.set(outline, offset);
    locaView.setUint32(4 * i, offset);
    offset += (outline.length + 3) & ~3;
    const id = order[i] as number;
    // A shifted copy advances as its glyph does (the painter's W is the glyph's advance).
    const glyphId = id < 0 ? (shifted[-1 - id]?.glyphId ?? 0) : id;
    const metric = Math.min(glyphId, numberOfHMetrics - 1);
    const advance = view.getUint16(hmtx.offset + 4 * metric);
    const bearingAt =
      glyphId < numberOfHMetrics
        ? hmtx.offset + 4 * glyphId + 2
        : hmtx.offset + 4 * numberOfHMetrics + 2 * (glyphId - numberOfHMetrics);
    const bearing = bearingAt + 2 <= hmtx.offset + hmtx.length ? view.getInt16(bearingAt) : 0;
    hmtxView.setUint16(4 * i, advance);
    hmtxView.setInt16(4 * i + 2, shiftedBearings.get(i) ?? bearing);
  });
  locaView.setUint32(4 * count, offset);

  const copied = (table: TableRecord) => font.slice(table.offset, table.offset + table.length);
  const newHead = copied(head);
  const headView = new DataView(newHead.buffer);
  headView.setUint32(8, 0); // checksumAdjustment, set below
  headView.setInt16(50, 1); // long loca offsets
  const newHhea = copied(hhea);
  new DataView(newHhea.buffer).setUint16(34, count);
  const newMaxp = copied(maxp);
  const maxpView = new DataView(newMaxp.buffer);
  maxpView.setUint16(4, count);
  if (shifted.length > 0 && newMaxp.length >= 32) {
    // maxp 1.0's composite limits (maxCompositePoints and -Contours at 10 and 12, from the simple
    // ones at 6 and 8; maxComponentElements at 28, maxComponentDepth at 30): a shifted copy is
    // one level above its glyph, which may itself be a composite.
    maxpView.setUint16(10, Math.max(maxpView.getUint16(10), maxpView.getUint16(6)));
    maxpView.setUint16(12, Math.max(maxpView.getUint16(12), maxpView.getUint16(8)));
    maxpView.setUint16(28, Math.max(maxpView.getUint16(28), 1));
    maxpView.setUint16(30, Math.min(0xffff, maxpView.getUint16(30) + 1));
  }

  const contents: Record<(typeof TABLES)[number], Uint8Array | undefined> = {
    'cvt ': tables.has('cvt ') ? copied(tables.get('cvt ') as TableRecord) : undefined,
    fpgm: tables.has('fpgm') ? copied(tables.get('fpgm') as TableRecord) : undefined,
    glyf: newGlyf,
    head: newHead,
    hhea: newHhea,
    hmtx: newHmtx,
    loca: newLoca,
    maxp: newMaxp,
    prep: tables.has('prep') ? copied(tables.get('prep') as TableRecord) : undefined,
  };
  const written = TABLES.filter((tag) => contents[tag] !== undefined);
  const numTables = written.length;
  let size = 12 + 16 * numTables;
  for (const tag of written) size += ((contents[tag] as Uint8Array).length + 3) & ~3;
  const out = new Uint8Array(size);
  const outView = new DataView(out.buffer);
  const entrySelector = Math.floor(Math.log2(numTables));
  outView.setUint32(0, 0x00010000);
  outView.setUint16(4, numTables);
  outView.setUint16(6, 16 * 2 ** entrySelector);
  outView.setUint16(8, entrySelector);
  outView.setUint16(10, 16 * numTables - 16 * 2 ** entrySelector);
  let at = 12 + 16 * numTables;
  let headAt = 0;
  written.forEach((tag, i) => {
    const data = contents[tag] as Uint8Array;
    out.set(data, at);
    const record = 12 + 16 * i;
    for (let k = 0; k < 4; k++) out[record + k] = tag.charCodeAt(k);
    outView.setUint32(record + 4, checksum(out, at, data.length));
    outView.setUint32(record + 8, at);
    outView.setUint32(record + 12, data.length);
    if (tag === 'head') headAt = at;
    at += (data.length + 3) & ~3;
  });
  outView.setUint32(headAt + 8, (0xb1b0afba - checksum(out, 0, out.length)) >>> 0);
  return out;
}

/**
 * A composite glyph of one component, the glyph at `range` (subset index `component`) moved by
 * (dx, dy): its bounding box moved as well; nothing for an empty glyph.
 */
function shiftedOutline(
  view: DataView,
  [start, end]: [number, number],
  component: number,
  dx: number,
  dy: number,
): Uint8Array {
  if (end - start < 10) return new Uint8Array(0);
  const out = new Uint8Array(18);
  const copy = new DataView(out.buffer);
  const int16 = (value: number) => Math.max(-0x8000, Math.min(0x7fff, value));
  copy.setInt16(0, -1); // numberOfContours: a composite
  copy.setInt16(2, int16(view.getInt16(start + 2) + dx));
  copy.setInt16(4, int16(view.getInt16(start + 4) + dy));
  copy.setInt16(6, int16(view.getInt16(start + 6) + dx));
  copy.setInt16(8, int16(view.getInt16(start + 8) + dy));
  copy.setUint16(10, ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES);
  copy.setUint16(12, component);
  copy.setInt16(14, int16(dx));
  copy.setInt16(16, int16(dy));
  return out;
}
