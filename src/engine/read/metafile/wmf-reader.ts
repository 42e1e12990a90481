/**
 * WMF ([MS-WMF]) → MetafilePicture. The picture is the placeable header's bounding box (§2.3.2.3
 * META_PLACEABLE), or without one the first window the records set; picture units are its logical
 * units. The window (SetWindowOrg/Ext) is mapped onto that box, as a program placing the picture
 * would set the viewport; viewport records are therefore ignored. Objects take the lowest free
 * slot of the object table (§3.1.4.1), which SelectObject and DeleteObject index. Clip regions
 * and raster operations other than copying are ignored; unknown records are skipped.
 */

import type { MetafilePicture } from '../../model';
import type { PixelBudget } from '../images';
import { decodeAnsi } from './ansi-text';
import { packedDibToImage } from './dib-image';
import { colorRef, type DcState, GdiCanvas, type GdiObject, type Matrix, type Pen } from './gdi-canvas';

const MAX_RECORDS = 500_000;
const MAX_IMAGES = 64;
const PLACEABLE_KEY = 0x9ac6cdd7;

export function isWmf(bytes: Uint8Array): boolean {
  if (bytes.length < 18) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) === PLACEABLE_KEY) return bytes.length >= 40;
  // META_HEADER: type 1 (memory) or 2 (disk), header size 9 words.
  const type = view.getUint16(0, true);
  return (type === 1 || type === 2) && view.getUint16(2, true) === 9;
}

function penStyle(style: number): Pen['style'] {
  return (['solid', 'dash', 'dot', 'dashdot', 'dashdotdot', 'none'] as const)[style & 0x0f] ?? 'solid';
}

export function readWmf(
  bytes: Uint8Array,
  warn: (message: string) => void,
  pixels?: PixelBudget,
): MetafilePicture | undefined {
  if (!isWmf(bytes)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i16 = (at: number) => view.getInt16(at, true);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const placeable = u32(0) === PLACEABLE_KEY;
  const start = placeable ? 22 : 0;
  const headerWords = u16(start + 2);
  const objectCount = u16(start + 10);
  let box: [number, number, number, number] | undefined;
  let unitsPerInch = 1440;
  if (placeable) {
    const [l, t, r, b] = [i16(6), i16(8), i16(10), i16(12)];
    box = [Math.min(l, r), Math.min(t, b), Math.max(l, r), Math.max(t, b)];
    if (u16(14) > 0) unitsPerInch = u16(14);
  }
  const first = start + headerWords * 2;

  // Without a placeable header the picture is the window the records set first.
  if (!box) {
    let org: [number, number] = [0, 0];
    for (let at = first, n = 0; at + 6 <= bytes.length && n < MAX_RECORDS; n++) {
      const words = u32(at);
      const fn = u16(at + 4);
      if (words < 3 || at + words * 2 > bytes.length || fn === 0) break;
      if (fn === 0x020b && words >= 5) org = [i16(at + 8), i16(at + 6)];
      if (fn === 0x020c && words >= 5) {
        const [w, h] = [i16(at + 8), i16(at + 6)];
        box = [
          Math.min(org[0], org[0] + w),
          Math.min(org[1], org[1] + h),
          Math.max(org[0], org[0] + w),
          Math.max(org[1], org[1] + h),
        ];
        break;
      }
      at += words * 2;
    }
  }
  if (!box || !(box[2] > box[0] && box[3] > box[1])) {
    warn('it gives no picture size');
    return undefined;
  }
  const frame = box;
  const width = frame[2] - frame[0];
  const height = frame[3] - frame[1];
  const pageMatrix = (s: DcState): Matrix => {
    if (!s.windowSet || s.windowExt[0] === 0 || s.windowExt[1] === 0) return [1, 0, 0, 1, -frame[0], -frame[1]];
    const sx = width / Math.abs(s.windowExt[0]);
    const sy = height / Math.abs(s.windowExt[1]);
    // A negative extent flips its axis: the window's origin is then at the box's far side.
    const ax = s.windowExt[0] < 0 ? -sx : sx;
    const ay = s.windowExt[1] < 0 ? -sy : sy;
    return [ax, 0, 0, ay, -s.windowOrg[0] * ax + (ax < 0 ? width : 0), -s.windowOrg[1] * ay + (ay < 0 ? height : 0)];
  };
  const canvas = new GdiCanvas(pageMatrix, unitsPerInch / 96);
  const table: (GdiObject | null)[] = new Array(Math.min(objectCount, 65535)).fill(null);
  const create = (object: GdiObject | null) => {
    const free = table.indexOf(null);
    // A writer that under-counts its objects still gets them: the table grows, within bounds.
    if (free >= 0) table[free] = object ?? { kind: 'brush', brush: {} };
    else if (table.length < 65535) table.push(object ?? { kind: 'brush', brush: {} });
  };
  let images = 0;
  const points = (at: number, count: number, end: number): Int16Array | undefined => {
    if (count < 0 || at + count * 4 > end) return undefined;
    const out = new Int16Array(count * 2);
    for (let k = 0; k < count * 2; k++) out[k] = i16(at + 2 * k);
    return out;
  };
  const image = (at: number, end: number) => {
    if (images >= MAX_IMAGES || at >= end) return undefined;
    images++;
    return packedDibToImage(bytes.subarray(at, end), pixels);
  };

  let at = first;
  let records = 0;
  while (at + 6 <= bytes.length && records++ < MAX_RECORDS && !canvas.full) {
    const words = u32(at);
    const fn = u16(at + 4);
    if (fn === 0) break; // META_EOF
    if (words < 3 || at + words * 2 > bytes.length) {
      warn('a record runs past its end; the rest is left out');
      break;
    }
    const end = at + words * 2;
    const p = at + 6;
    const has = (length: number) => p + length <= end;
    const s = canvas.state;
    switch (fn) {
      case 0x0201: // META_SETBKCOLOR
        if (has(4)) s.bkColor = colorRef(u32(p));
        break;
      case 0x0209: // META_SETTEXTCOLOR
        if (has(4)) s.textColor = colorRef(u32(p));
        break;
      case 0x012e: // META_SETTEXTALIGN
        if (has(2)) s.textAlign = u16(p);
        break;
      case 0x0106: // META_SETPOLYFILLMODE
        if (has(2)) s.evenOdd = u16(p) !== 2;
        break;
      case 0x0103: // META_SETMAPMODE
        if (has(2)) s.mapMode = u16(p);
        break;
      case 0x020b: // META_SETWINDOWORG: y, x
        if (has(4)) s.windowOrg = [i16(p + 2), i16(p)];
        canvas.changed();
        break;
      case 0x020c: // META_SETWINDOWEXT: y, x
        if (has(4)) {
          s.windowExt = [i16(p + 2), i16(p)];
          s.windowSet = true;
        }
        canvas.changed();
        break;
      case 0x020f: // META_OFFSETWINDOWORG
        if (has(4)) s.windowOrg = [s.windowOrg[0] + i16(p + 2), s.windowOrg[1] + i16(p)];
        canvas.changed();
        break;
      case 0x0410: // META_SCALEWINDOWEXT: yDenom, yNum, xDenom, xNum
        if (has(8) && i16(p) !== 0 && i16(p + 4) !== 0) {
          s.windowExt = [(s.windowExt[0] * i16(p + 6)) / i16(p + 4), (s.windowExt[1] * i16(p + 2)) / i16(p)];
          canvas.changed();
        }
        break;
      case 0x0214: // META_MOVETO: y, x
        if (has(4)) canvas.moveTo(i16(p + 2), i16(p));
        break;
      case 0x0213: // META_LINETO
        if (has(4)) canvas.lineTo(i16(p + 2), i16(p));
        break;
      case 0x0324: // META_POLYGON
      case 0x0325: {
        // META_POLYLINE
        const pts = has(2) ? points(p + 2, i16(p), end) : undefined;
        if (pts) canvas.poly(pts, fn === 0x0324);
        break;
      }
      case 0x0538: {
        // META_POLYPOLYGON: counts, then all the points.
        if (!has(2)) break;
        const polygons = u16(p);
        if (!has(2 + polygons * 2)) break;
        let cursor = p + 2 + polygons * 2;
        const list: Int16Array[] = [];
        for (let k = 0; k < polygons; k++) {
          const count = u16(p + 2 + 2 * k);
          const pts = points(cursor, count, end);
          if (!pts) break;
          list.push(pts);
          cursor += count * 4;
        }
        canvas.polyPoly(list, true);
        break;
      }
      case 0x041b: // META_RECTANGLE: bottom, right, top, left
      case 0x0418: // META_ELLIPSE
        if (has(8)) {
          const [b, r, t, l] = [i16(p), i16(p + 2), i16(p + 4), i16(p + 6)];
          if (fn === 0x0418) canvas.ellipse(l, t, r, b);
          else canvas.rectangle(l, t, r, b);
        }
        break;
      case 0x061c: // META_ROUNDRECT: height, width, bottom, right, top, left
        if (has(12)) canvas.roundRect(i16(p + 10), i16(p + 8), i16(p + 6), i16(p + 4), i16(p + 2), i16(p));
        break;
      case 0x0817: // META_ARC
      case 0x081a: // META_PIE
      case 0x0830: // META_CHORD
        if (has(16))
          canvas.arc(
            [i16(p + 14), i16(p + 12), i16(p + 10), i16(p + 8)],
            [i16(p + 6), i16(p + 4)],
            [i16(p + 2), i16(p)],
            fn === 0x0817 ? 'arc' : fn === 0x081a ? 'pie' : 'chord',
          );
        break;
      case 0x001e: // META_SAVEDC
        canvas.save();
        break;
      case 0x0127: // META_RESTOREDC
        if (has(2)) canvas.restore(i16(p));
        break;
      case 0x012d: // META_SELECTOBJECT
        if (has(2)) canvas.select(table[u16(p)] ?? undefined);
        break;
      case 0x01f0: // META_DELETEOBJECT
        if (has(2) && u16(p) < table.length) table[u16(p)] = null;
        break;
      case 0x02fa: // META_CREATEPENINDIRECT: style, width (x, y), colour
        if (has(10))
          create({ kind: 'pen', pen: { style: penStyle(u16(p)), width: i16(p + 2), color: colorRef(u32(p + 6)) } });
        else create(null);
        break;
      case 0x02fc: // META_CREATEBRUSHINDIRECT: style, colour, hatch; hatched fills solid.
        if (has(6)) create({ kind: 'brush', brush: { color: u16(p) === 1 ? undefined : colorRef(u32(p + 2)) } });
        else create(null);
        break;
      case 0x02fb: {
        // META_CREATEFONTINDIRECT (§2.2.1.2 Font)
        if (!has(18)) {
          create(null);
          break;
        }
        let family = '';
        for (let k = 0; k < 32 && has(18 + k + 1); k++) {
          const code = bytes[p + 18 + k] ?? 0;
          if (code === 0) break;
          family += String.fromCharCode(code);
        }
        create({
          kind: 'font',
          font: {
            height: i16(p),
            escapement: i16(p + 4),
            weight: i16(p + 8),
            italic: (bytes[p + 10] ?? 0) !== 0,
            underline: (bytes[p + 11] ?? 0) !== 0,
            charset: bytes[p + 13] ?? 0,
            family: family.trim(),
          },
        });
        break;
      }
      case 0x00f7: // META_CREATEPALETTE
      case 0x01f9: // META_CREATEPATTERNBRUSH
      case 0x0142: // META_DIBCREATEPATTERNBRUSH: patterns are not drawn (hollow).
      case 0x06ff: // META_CREATEREGION
        create(null);
        break;
      case 0x0521: {
        // META_TEXTOUT: length, string (padded to a word), y, x
        if (!has(2)) break;
        const length = i16(p);
        const padded = length + (length & 1);
        if (length <= 0 || !has(2 + padded + 4)) break;
        const text = decodeAnsi(bytes.subarray(p + 2, p + 2 + length), s.font.charset);
        canvas.text(i16(p + 2 + padded + 2), i16(p + 2 + padded), text, undefined);
        break;
      }
      case 0x0a32: {
        // META_EXTTEXTOUT: y, x, length, options, [rectangle], string, [dx]
        if (!has(8)) break;
        const length = i16(p + 4);
        const options = u16(p + 6);
        // The rectangle is there with ETO_OPAQUE or ETO_CLIPPED ([MS-WMF] §2.3.3.5).
        let cursor = p + 8 + (options & 0x06 ? 8 : 0);
        if (options & 0x02 && has(16)) canvas.fillBackground(i16(p + 8), i16(p + 10), i16(p + 12), i16(p + 14));
        if (length <= 0 || cursor + length > end) break;
        const text = decodeAnsi(bytes.subarray(cursor, cursor + length), s.font.charset);
        cursor += length + (length & 1);
        let advance: number | undefined;
        if (cursor + length * 2 <= end) {
          advance = 0;
          for (let k = 0; k < length; k++) advance += i16(cursor + 2 * k);
        }
        canvas.text(i16(p + 2), i16(p), text, advance);
        break;
      }
      case 0x0f43: // META_STRETCHDIB: rop, usage, src h/w/y/x, dest h, w, y, x, DIB
        if (has(22)) {
          const dib = image(p + 22, end);
          if (dib) canvas.image(i16(p + 20), i16(p + 18), i16(p + 16), i16(p + 14), dib);
        }
        break;
      case 0x0b41: // META_DIBSTRETCHBLT (with a bitmap): rop, src h/w/y/x, dest h, w, y, x, DIB
        if (has(20) && words > (fn >> 8) + 3) {
          const dib = image(p + 20, end);
          if (dib) canvas.image(i16(p + 18), i16(p + 16), i16(p + 14), i16(p + 12), dib);
        }
        break;
      case 0x0940: // META_DIBBITBLT (with a bitmap): rop, src y/x, h, w, dest y, x, DIB
        if (has(16) && words > (fn >> 8) + 3) {
          const dib = image(p + 16, end);
          if (dib) canvas.image(i16(p + 14), i16(p + 12), i16(p + 10), i16(p + 8), dib);
        }
        break;
      default:
        break;
    }
    at = end;
  }
  return { format: 'wmf', width, height, items: canvas.items };
}
