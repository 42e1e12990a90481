/**
 * EMF ([MS-EMF]) → MetafilePicture. The records are played on a GdiCanvas in order; picture units
 * are device pixels of the reference device (header szlDevice / szlMillimeters), and the picture
 * is the header's rclFrame (§2.2.9, in 0.01 mm) expressed in them. EMF+ records travel inside
 * EMR_COMMENT (§2.3.3) and are ignored: dual EMF+ files carry EMF records that draw the same.
 * Clip regions are ignored (the picture box is the clip). Unknown records are skipped.
 */

import type { MetafilePicture } from '../../model';
import type { PixelBudget } from '../images';
import { decodeAnsi } from './ansi-text';
import { dibToImage } from './dib-image';
import { colorRef, type DcState, GdiCanvas, type GdiObject, type Matrix, multiply, stockObject } from './gdi-canvas';

const MAX_RECORDS = 500_000;
const MAX_IMAGES = 64;

/** Millimetres per logical unit of the fixed map modes ([MS-EMF] §2.1.21 MapMode). */
const METRIC_MM: Record<number, number> = { 2: 0.1, 3: 0.01, 4: 0.254, 5: 0.0254, 6: 25.4 / 1440 };

export function isEmf(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 88 &&
    bytes[0] === 1 &&
    bytes[1] === 0 &&
    bytes[2] === 0 &&
    bytes[3] === 0 &&
    bytes[40] === 0x20 &&
    bytes[41] === 0x45 &&
    bytes[42] === 0x4d &&
    bytes[43] === 0x46
  );
}

/** The page transform of §3.1.1.1 (window → viewport, or a fixed map mode), then device → picture. */
function pageMatrix(mmPerPixel: [number, number], origin: [number, number]) {
  return (s: DcState): Matrix => {
    let sx = 1;
    let sy = 1;
    const metric = METRIC_MM[s.mapMode];
    if (metric !== undefined) {
      sx = metric / mmPerPixel[0];
      sy = -metric / mmPerPixel[1];
    } else if (s.mapMode === 7 || s.mapMode === 8) {
      sx = s.windowExt[0] !== 0 ? s.viewportExt[0] / s.windowExt[0] : 1;
      sy = s.windowExt[1] !== 0 ? s.viewportExt[1] / s.windowExt[1] : 1;
      if (s.mapMode === 7) {
        // MM_ISOTROPIC keeps one unit square: the smaller scale wins on both axes.
        const m = Math.min(Math.abs(sx), Math.abs(sy));
        sx = Math.sign(sx || 1) * m;
        sy = Math.sign(sy || 1) * m;
      }
    }
    return [
      sx,
      0,
      0,
      sy,
      s.viewportOrg[0] - s.windowOrg[0] * sx - origin[0],
      s.viewportOrg[1] - s.windowOrg[1] * sy - origin[1],
    ];
  };
}

function readPenStyle(style: number): 'solid' | 'dash' | 'dot' | 'dashdot' | 'dashdotdot' | 'none' {
  switch (style & 0x0f) {
    case 1:
      return 'dash';
    case 2:
      return 'dot';
    case 3:
      return 'dashdot';
    case 4:
      return 'dashdotdot';
    case 5:
      return 'none';
    default:
      return 'solid';
  }
}

export function readEmf(
  bytes: Uint8Array,
  warn: (message: string) => void,
  pixels?: PixelBudget,
): MetafilePicture | undefined {
  if (!isEmf(bytes)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i32 = (at: number) => view.getInt32(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const bounds = [i32(8), i32(12), i32(16), i32(20)] as const;
  const frame = [i32(24), i32(28), i32(32), i32(36)] as const;
  const device = [i32(72), i32(76)] as const;
  const millimetres = [i32(80), i32(84)] as const;
  const mmPerPixel: [number, number] =
    device[0] > 0 && device[1] > 0 && millimetres[0] > 0 && millimetres[1] > 0
      ? [millimetres[0] / device[0], millimetres[1] / device[1]]
      : [25.4 / 96, 25.4 / 96];
  // rclFrame is inclusive-exclusive in 0.01 mm; a writer that left it empty still has rclBounds.
  let box: [number, number, number, number] = [
    (frame[0] * 0.01) / mmPerPixel[0],
    (frame[1] * 0.01) / mmPerPixel[1],
    (frame[2] * 0.01) / mmPerPixel[0],
    (frame[3] * 0.01) / mmPerPixel[1],
  ];
  if (!(box[2] > box[0] && box[3] > box[1])) box = [bounds[0], bounds[1], bounds[2] + 1, bounds[3] + 1];
  const width = box[2] - box[0];
  const height = box[3] - box[1];
  if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) {
    warn('its header gives it no size');
    return undefined;
  }
  const canvas = new GdiCanvas(pageMatrix(mmPerPixel, [box[0], box[1]]), 1);
  const objects = new Map<number, GdiObject>();
  let images = 0;
  let emfPlusOnly = false;

  /** count points of 16- or 32-bit coordinates at `at`, bounded by the record's end. */
  const points = (at: number, count: number, wide: boolean, end: number): Int32Array | undefined => {
    const step = wide ? 8 : 4;
    if (count < 0 || at + count * step > end) return undefined;
    const out = new Int32Array(count * 2);
    for (let k = 0; k < count * 2; k++) out[k] = wide ? i32(at + 4 * k) : view.getInt16(at + 2 * k, true);
    return out;
  };
  const polyPoly = (start: number, end: number, wide: boolean): Int32Array[] | undefined => {
    const polygons = u32(start + 24);
    const total = u32(start + 28);
    if (start + 32 + polygons * 4 > end) return undefined;
    const all = points(start + 32 + polygons * 4, total, wide, end);
    if (!all) return undefined;
    const out: Int32Array[] = [];
    let used = 0;
    for (let k = 0; k < polygons; k++) {
      const count = u32(start + 32 + 4 * k);
      if (used + count > total) return undefined;
      out.push(all.subarray(used * 2, (used + count) * 2));
      used += count;
    }
    return out;
  };
  const bitmap = (start: number, end: number, offInfo: number, cbInfo: number, offBits: number, cbBits: number) => {
    if (images >= MAX_IMAGES || cbInfo === 0) return undefined;
    if (offInfo + cbInfo > end - start || offBits + cbBits > end - start) return undefined;
    images++;
    return dibToImage(
      bytes.subarray(start + offInfo, start + offInfo + cbInfo),
      bytes.subarray(start + offBits, start + offBits + cbBits),
      pixels,
    );
  };

  let at = 0;
  let records = 0;
  while (at + 8 <= bytes.length && records++ < MAX_RECORDS && !canvas.full) {
    const type = u32(at);
    const size = u32(at + 4);
    if (size < 8 || size % 4 !== 0 || at + size > bytes.length) {
      warn('a record runs past its end; the rest is left out');
      break;
    }
    const end = at + size;
    const s = canvas.state;
    const has = (length: number) => at + length <= end;
    switch (type) {
      case 14: // EMR_EOF
        at = bytes.length;
        continue;
      case 2: // EMR_POLYBEZIER
      case 85: {
        const p = has(28) ? points(at + 28, u32(at + 24), type === 2, end) : undefined;
        if (p) canvas.polyBezier(p);
        break;
      }
      case 3: // EMR_POLYGON
      case 4: // EMR_POLYLINE
      case 86:
      case 87: {
        const p = has(28) ? points(at + 28, u32(at + 24), type < 85, end) : undefined;
        if (p) canvas.poly(p, type === 3 || type === 86);
        break;
      }
      case 5: // EMR_POLYBEZIERTO
      case 6: // EMR_POLYLINETO
      case 88:
      case 89: {
        const p = has(28) ? points(at + 28, u32(at + 24), type < 85, end) : undefined;
        if (p) canvas.polyTo(p, type === 5 || type === 88);
        break;
      }
      case 7: // EMR_POLYPOLYLINE
      case 8: // EMR_POLYPOLYGON
      case 90:
      case 91: {
        const p = has(32) ? polyPoly(at, end, type < 85) : undefined;
        if (p) canvas.polyPoly(p, type === 8 || type === 91);
        break;
      }
      case 9: // EMR_SETWINDOWEXTEX
        if (has(16)) s.windowExt = [i32(at + 8), i32(at + 12)];
        s.windowSet = true;
        canvas.changed();
        break;
      case 10: // EMR_SETWINDOWORGEX
        if (has(16)) s.windowOrg = [i32(at + 8), i32(at + 12)];
        canvas.changed();
        break;
      case 11: // EMR_SETVIEWPORTEXTEX
        if (has(16)) s.viewportExt = [i32(at + 8), i32(at + 12)];
        canvas.changed();
        break;
      case 12: // EMR_SETVIEWPORTORGEX
        if (has(16)) s.viewportOrg = [i32(at + 8), i32(at + 12)];
        canvas.changed();
        break;
      case 31: // EMR_SCALEVIEWPORTEXTEX
      case 32: // EMR_SCALEWINDOWEXTEX
        if (has(24) && i32(at + 12) !== 0 && i32(at + 20) !== 0) {
          const ext = type === 31 ? s.viewportExt : s.windowExt;
          const scaled: [number, number] = [
            (ext[0] * i32(at + 8)) / i32(at + 12),
            (ext[1] * i32(at + 16)) / i32(at + 20),
          ];
          if (type === 31) s.viewportExt = scaled;
          else s.windowExt = scaled;
          canvas.changed();
        }
        break;
      case 17: // EMR_SETMAPMODE
        if (has(12)) s.mapMode = u32(at + 8);
        canvas.changed();
        break;
      case 19: // EMR_SETPOLYFILLMODE: 1 ALTERNATE, 2 WINDING
        if (has(12)) s.evenOdd = u32(at + 8) !== 2;
        break;
      case 22: // EMR_SETTEXTALIGN
        if (has(12)) s.textAlign = u32(at + 8);
        break;
      case 24: // EMR_SETTEXTCOLOR
        if (has(12)) s.textColor = colorRef(u32(at + 8));
        break;
      case 25: // EMR_SETBKCOLOR
        if (has(12)) s.bkColor = colorRef(u32(at + 8));
        break;
      case 27: // EMR_MOVETOEX
        if (has(16)) canvas.moveTo(i32(at + 8), i32(at + 12));
        break;
      case 33: // EMR_SAVEDC
        canvas.save();
        break;
      case 34: // EMR_RESTOREDC
        if (has(12)) canvas.restore(i32(at + 8));
        break;
      case 35: // EMR_SETWORLDTRANSFORM
      case 36: {
        // EMR_MODIFYWORLDTRANSFORM: 1 identity, 2 left-multiply, 3 right-multiply, 4 set (§2.1.24).
        if (!has(32)) break;
        const xform: Matrix = [0, 1, 2, 3, 4, 5].map((k) => view.getFloat32(at + 8 + 4 * k, true)) as Matrix;
        if (!xform.every(Number.isFinite)) break;
        const mode = type === 35 ? 4 : has(36) ? u32(at + 32) : 0;
        if (mode === 1) s.world = [1, 0, 0, 1, 0, 0];
        else if (mode === 2) s.world = multiply(xform, s.world);
        else if (mode === 3) s.world = multiply(s.world, xform);
        else if (mode === 4) s.world = xform;
        canvas.changed();
        break;
      }
      case 37: // EMR_SELECTOBJECT
        if (has(12)) {
          const index = u32(at + 8);
          canvas.select(index & 0x80000000 ? stockObject(index & 0x7fffffff) : objects.get(index));
        }
        break;
      case 38: // EMR_CREATEPEN: LogPen (§2.2.19)
        if (has(28))
          objects.set(u32(at + 8), {
            kind: 'pen',
            pen: { style: readPenStyle(u32(at + 12)), width: i32(at + 16), color: colorRef(u32(at + 24)) },
          });
        break;
      case 95: // EMR_EXTCREATEPEN: LogPenEx (§2.2.20); cosmetic pens are one pixel wide.
        if (has(48)) {
          const style = u32(at + 28);
          const geometric = (style & 0x00010000) !== 0;
          objects.set(u32(at + 8), {
            kind: 'pen',
            pen: {
              style: u32(at + 36) === 1 ? 'none' : readPenStyle(style),
              width: geometric ? u32(at + 32) : 0,
              color: colorRef(u32(at + 40)),
            },
          });
        }
        break;
      case 39: // EMR_CREATEBRUSHINDIRECT: LogBrush (§2.2.12); hatched brushes fill solid.
        if (has(24)) {
          const style = u32(at + 12);
          objects.set(u32(at + 8), {
            kind: 'brush',
            brush: { color: style === 1 ? undefined : colorRef(u32(at + 16)) },
          });
        }
        break;
      case 93: // EMR_CREATEMONOBRUSH
      case 94: // EMR_CREATEDIBPATTERNBRUSHPT: a pattern we do not draw; hollow rather than a guess.
        if (has(12)) objects.set(u32(at + 8), { kind: 'brush', brush: {} });
        break;
      case 82: // EMR_EXTCREATEFONTINDIRECTW: LogFont (§2.2.13) at 12.
        if (has(104)) {
          let family = '';
          for (let k = 0; k < 32; k++) {
            const code = view.getUint16(at + 40 + 2 * k, true);
            if (code === 0) break;
            family += String.fromCharCode(code);
          }
          objects.set(u32(at + 8), {
            kind: 'font',
            font: {
              height: i32(at + 12),
              escapement: i32(at + 20),
              weight: i32(at + 28),
              italic: (bytes[at + 32] ?? 0) !== 0,
              underline: (bytes[at + 33] ?? 0) !== 0,
              charset: bytes[at + 35] ?? 0,
              family: family.trim(),
            },
          });
        }
        break;
      case 40: // EMR_DELETEOBJECT
        if (has(12)) objects.delete(u32(at + 8));
        break;
      case 42: // EMR_ELLIPSE
      case 43: // EMR_RECTANGLE
        if (has(24)) {
          const [l, t, r, b] = [i32(at + 8), i32(at + 12), i32(at + 16), i32(at + 20)];
          if (type === 42) canvas.ellipse(l, t, r, b);
          else canvas.rectangle(l, t, r, b);
        }
        break;
      case 44: // EMR_ROUNDRECT
        if (has(32))
          canvas.roundRect(i32(at + 8), i32(at + 12), i32(at + 16), i32(at + 20), i32(at + 24), i32(at + 28));
        break;
      case 45: // EMR_ARC
      case 46: // EMR_CHORD
      case 47: // EMR_PIE
      case 55: // EMR_ARCTO (drawn as an arc)
        if (has(40))
          canvas.arc(
            [i32(at + 8), i32(at + 12), i32(at + 16), i32(at + 20)],
            [i32(at + 24), i32(at + 28)],
            [i32(at + 32), i32(at + 36)],
            type === 46 ? 'chord' : type === 47 ? 'pie' : 'arc',
          );
        break;
      case 54: // EMR_LINETO
        if (has(16)) canvas.lineTo(i32(at + 8), i32(at + 12));
        break;
      case 57: // EMR_SETARCDIRECTION: 2 = AD_CLOCKWISE
        if (has(12)) s.clockwise = u32(at + 8) === 2;
        break;
      case 59: // EMR_BEGINPATH
        canvas.beginPath();
        break;
      case 60: // EMR_ENDPATH
        canvas.endPath();
        break;
      case 61: // EMR_CLOSEFIGURE
        canvas.closeFigure();
        break;
      case 62: // EMR_FILLPATH
        canvas.paintPath(true, false);
        break;
      case 63: // EMR_STROKEANDFILLPATH
        canvas.paintPath(true, true);
        break;
      case 64: // EMR_STROKEPATH
        canvas.paintPath(false, true);
        break;
      case 67: // EMR_SELECTCLIPPATH: the path becomes a clip, which is not drawn.
      case 68: // EMR_ABORTPATH
        canvas.abortPath();
        break;
      case 83: // EMR_EXTTEXTOUTA
      case 84: {
        // EMR_EXTTEXTOUTW: EmrText at 36 (§2.2.5); offsets are from the record's start.
        if (!has(60)) break;
        const count = u32(at + 44);
        const offString = u32(at + 48);
        const options = u32(at + 52);
        // ETO_NO_RECT: the optional rectangle is absent and offDx moves up.
        const offDx = options & 0x100 ? u32(at + 56) : has(76) ? u32(at + 72) : 0;
        const wide = type === 84;
        if (count > size || offString + count * (wide ? 2 : 1) > size) break;
        // ETO_GLYPH_INDEX: the codes are glyph ids of the original font, which we cannot map.
        if (options & 0x10) break;
        let text = '';
        if (wide)
          for (let k = 0; k < count; k++) text += String.fromCharCode(view.getUint16(at + offString + 2 * k, true));
        else text = decodeAnsi(bytes.subarray(at + offString, at + offString + count), s.font.charset);
        let advance: number | undefined;
        const dxStep = options & 0x2000 ? 8 : 4;
        if (offDx > 0 && offDx + count * dxStep <= size) {
          advance = 0;
          for (let k = 0; k < count; k++) advance += i32(at + offDx + dxStep * k);
        }
        if (options & 0x02 && !(options & 0x100))
          canvas.fillBackground(i32(at + 56), i32(at + 60), i32(at + 64), i32(at + 68));
        canvas.text(i32(at + 36), i32(at + 40), text.replace(/\0+$/, ''), advance);
        break;
      }
      case 76: // EMR_BITBLT
        if (has(100)) {
          const [x, y, w, h] = [i32(at + 24), i32(at + 28), i32(at + 32), i32(at + 36)];
          const image = bitmap(at, end, u32(at + 84), u32(at + 88), u32(at + 92), u32(at + 96));
          if (image) canvas.image(x, y, w, h, image);
          else if (u32(at + 88) === 0 && (u32(at + 40) === 0x00f00021 || u32(at + 40) === 0x00000042)) {
            // PATCOPY / BLACKNESS without a bitmap fill the rectangle with the brush.
            const fill = u32(at + 40) === 0x00000042 ? '000000' : s.brush.color;
            if (fill !== undefined) {
              const saved = s.pen;
              const brush = s.brush;
              s.pen = { ...saved, style: 'none' };
              s.brush = { color: fill };
              canvas.rectangle(x, y, x + w, y + h);
              s.pen = saved;
              s.brush = brush;
            }
          }
        }
        break;
      case 77: // EMR_STRETCHBLT
        if (has(108)) {
          const image = bitmap(at, end, u32(at + 84), u32(at + 88), u32(at + 92), u32(at + 96));
          if (image) canvas.image(i32(at + 24), i32(at + 28), i32(at + 32), i32(at + 36), image);
        }
        break;
      case 81: // EMR_STRETCHDIBITS
        if (has(80)) {
          const image = bitmap(at, end, u32(at + 48), u32(at + 52), u32(at + 56), u32(at + 60));
          if (image) canvas.image(i32(at + 24), i32(at + 28), i32(at + 72), i32(at + 76), image);
        }
        break;
      case 80: // EMR_SETDIBITSTODEVICE
        if (has(76)) {
          const image = bitmap(at, end, u32(at + 48), u32(at + 52), u32(at + 56), u32(at + 60));
          if (image) canvas.image(i32(at + 24), i32(at + 28), i32(at + 40), i32(at + 44), image);
        }
        break;
      case 70: // EMR_COMMENT: an EMF+ header ([MS-EMFPLUS] §2.3.3.3) says whether EMF records follow.
        if (has(20) && u32(at + 12) === 0x2b464d45 && view.getUint16(at + 16, true) === 0x4001) {
          emfPlusOnly = (view.getUint16(at + 18, true) & 1) === 0;
        }
        break;
      default:
        break;
    }
    at = end;
  }
  // An EMF+-only file draws with records this reader ignores; its EMF records may draw nothing.
  if (emfPlusOnly && canvas.items.length === 0) warn('it is drawn with EMF+ records only, which are not read');
  return { format: 'emf', width, height, items: canvas.items };
}
