/**
 * EMF/WMF pictures onto the page: an image item whose id names a MetafilePicture becomes that
 * picture's paths, text and bitmaps, stretched from picture units onto the item's box. Done once
 * per page after painting, so every place that lays a picture out (inline, floating, in shapes,
 * headers) draws metafiles alike. Text is real text in the substituted face: its size comes from
 * the font height (a cell height divided by the face's ascent + descent, as GDI maps it), and
 * when the metafile gives the string's advance (a Dx array) the characters are spaced to fill it,
 * so that text keeps the width the picture was drawn for.
 */

import { eastAsianVariant, type FontFace, type FontSet } from '../fonts';
import type { ImageItem, PageItem, PathCommand } from '../layout';
import type { ImageResource, MetafilePicture, MetafileText } from '../model';

/** Thinnest stroke drawn, points: a cosmetic pen on a printer is about this wide. */
const MIN_STROKE = 0.25;

/** The text cut where the face changes: characters the font lacks go to a fallback face (fonts.fallback). */
function faceRuns(text: string, item: MetafileText, fonts: FontSet): { face: FontFace; text: string }[] {
  const primary = fonts.face(item.font);
  const variant = eastAsianVariant(item.font.family);
  const runs: { face: FontFace; text: string }[] = [];
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    const face = cp < 32 || primary.hasGlyph(cp) ? primary : (fonts.fallback(cp, item.font, variant) ?? primary);
    const last = runs[runs.length - 1];
    if (last && last.face === face) last.text += char;
    else runs.push({ face, text: char });
  }
  return runs;
}

function placeText(
  out: PageItem[],
  item: MetafileText,
  box: ImageItem,
  sx: number,
  sy: number,
  fonts: FontSet,
  faces: Record<string, FontFace>,
): void {
  const face = fonts.face(item.font);
  const size = (item.cellHeight ? item.size / Math.max(0.5, face.ascent + face.descent) : item.size) * sy;
  if (!(size > 0.5) || !Number.isFinite(size)) return;
  const runs = faceRuns(item.text, item, fonts);
  const count = [...item.text].length;
  const widths = runs.map((run) => run.face.measure(run.text) * size);
  const measured = widths.reduce((a, b) => a + b, 0);
  const target = item.width !== undefined ? item.width * sx : measured;
  // Spacing bounded to half an em either way: a Dx array that disagrees wildly is not followed.
  const spacing = count > 1 ? Math.max(-size / 2, Math.min(size / 2, (target - measured) / count)) : 0;
  const advance = measured + spacing * count;
  const along = item.align === 'center' ? -advance / 2 : item.align === 'right' ? -advance : 0;
  const down = item.valign === 'top' ? face.ascent * size : item.valign === 'bottom' ? -face.descent * size : 0;
  const radians = (item.angle * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  // Along the baseline is (cos, −sin) and down is (sin, cos) with y growing downwards.
  const x = box.x + item.x * sx + along * cos + down * sin;
  const y = box.y + item.y * sy - along * sin + down * cos;
  let offset = 0;
  runs.forEach((run, i) => {
    faces[run.face.key] = run.face;
    out.push({
      kind: 'text',
      x: x + offset * cos,
      y: y - offset * sin,
      font: run.face.key,
      size,
      color: item.color,
      text: run.text,
      ...(Math.abs(spacing) > 0.001 ? { characterSpacing: spacing } : {}),
      ...(Math.abs(item.angle) > 0.01 ? { angle: item.angle } : {}),
    });
    offset += (widths[i] ?? 0) + spacing * [...run.text].length;
  });
  if (item.underline && Math.abs(item.angle) <= 0.01) {
    const uy = y - face.underlinePosition * size;
    const width = Math.max(face.underlineThickness * size, 0.1);
    out.push({ kind: 'line', x1: x, y1: uy, x2: x + advance, y2: uy, width, color: item.color });
  }
}

/** The items that draw `picture` into `box`; bitmaps it holds are added to `images` under `id#n`. */
export function drawPicture(
  picture: MetafilePicture,
  box: ImageItem,
  fonts: FontSet,
  faces: Record<string, FontFace>,
  images: Record<string, ImageResource>,
): PageItem[] {
  const sx = box.width / picture.width;
  const sy = box.height / picture.height;
  if (!(sx > 0 && sy > 0 && Number.isFinite(sx) && Number.isFinite(sy))) return [];
  const X = (x: number) => box.x + x * sx;
  const Y = (y: number) => box.y + y * sy;
  const mean = Math.sqrt(sx * sy);
  const out: PageItem[] = [];
  let bitmaps = 0;
  for (const item of picture.items) {
    if (item.kind === 'path') {
      const commands: PathCommand[] = item.commands.map((c) =>
        c.op === 'Z'
          ? c
          : c.op === 'C'
            ? { op: 'C', x1: X(c.x1), y1: Y(c.y1), x2: X(c.x2), y2: Y(c.y2), x: X(c.x), y: Y(c.y) }
            : { op: c.op, x: X(c.x), y: Y(c.y) },
      );
      out.push({
        kind: 'path',
        commands,
        ...(item.fill !== undefined ? { fill: item.fill, ...(item.evenOdd ? { evenOdd: true } : {}) } : {}),
        ...(item.stroke !== undefined
          ? {
              stroke: item.stroke,
              strokeWidth: Math.max(MIN_STROKE, (item.strokeWidth ?? 0) * mean),
              ...(item.dash ? { dash: item.dash.map((d) => d * mean) } : {}),
            }
          : {}),
      });
    } else if (item.kind === 'text') {
      placeText(out, item, box, sx, sy, fonts, faces);
    } else {
      const key = `${box.image}#${bitmaps++}`;
      images[key] = item.image;
      out.push({
        kind: 'image',
        x: X(item.x),
        y: Y(item.y),
        width: item.width * sx,
        height: item.height * sy,
        image: key,
        ...(item.flipX ? { flipX: true } : {}),
        ...(item.flipY ? { flipY: true } : {}),
      });
    }
  }
  return out;
}

/** The page's items with every metafile picture drawn out; the same array when there is none. */
export function drawPictures(
  items: PageItem[],
  pictures: Record<string, MetafilePicture>,
  fonts: FontSet,
  faces: Record<string, FontFace>,
  images: Record<string, ImageResource>,
): PageItem[] {
  if (!items.some((item) => item.kind === 'image' && Object.hasOwn(pictures, item.image))) return items;
  return items.flatMap((item) => {
    if (item.kind !== 'image' || !Object.hasOwn(pictures, item.image)) return [item];
    const picture = pictures[item.image];
    return picture ? drawPicture(picture, item, fonts, faces, images) : [];
  });
}
