/**
 * Vertical sections (w:textDirection tbRl, ECMA-376 §17.6.20): text lines run top to bottom and
 * follow each other right to left. The section is flowed on a virtual page turned a quarter turn
 * (the physical height is the line length, the right margin comes first), then every item is
 * mapped onto the physical page: virtual (x, y) → (W − y, x). Latin text is drawn turned 90°
 * clockwise; East Asian characters are drawn upright, one per cell, centred on the line.
 */

import { type FontFace, scriptClassOf } from '../fonts';
import type { PageItem, PathCommand, TextItem } from '../layout';
import type { PageGeometry } from '../model';

/** The page the section is flowed on: the physical page turned a quarter turn clockwise. */
export function virtualPage(page: PageGeometry): PageGeometry {
  const { top, right, bottom, left } = page.margins;
  // The document grid's line pitch stays: in vertical text it spaces the columns.
  return {
    ...page,
    width: page.height,
    height: page.width,
    margins: { ...page.margins, top: right, right: bottom, bottom: left, left: top },
    vertical: true,
  };
}

/** Where an ideograph's em box sits about the baseline: Noto CJK draws from −0.12 em to 0.88 em. */
const EM_TOP = 0.88;
const EM_CENTRE = 0.38;
/** How far 、。，． move right and up: about half their cell. */
const RAISE = 0.55;

/** Brackets, the long vowel mark and the wave dash turn with the line (UAX #50 Tr/R). */
function turns(cp: number): boolean {
  return (
    (cp >= 0x3008 && cp <= 0x3011) ||
    (cp >= 0x3014 && cp <= 0x301b) ||
    cp === 0x30fc ||
    cp === 0xff08 ||
    cp === 0xff09 ||
    cp === 0xff3b ||
    cp === 0xff3d ||
    cp === 0xff5b ||
    cp === 0xff5d ||
    cp === 0xff5e
  );
}

/** Commas and full stops sit in the top right quarter of their cell rather than the bottom left. */
function raised(cp: number): boolean {
  return cp === 0x3001 || cp === 0x3002 || cp === 0xff0c || cp === 0xff0e;
}

/**
 * The vertical presentation forms of 、。，(U+FE11, U+FE12, U+FE10): the glyphs a CJK face draws
 * for them in vertical text, already in the top right of their cell, so they take no shift and
 * their box stays inside their own cell. They extract as 、。, under NFKC.
 */
const VERTICAL_FORMS: ReadonlyMap<number, string> = new Map([
  [0x3001, '\ufe11'],
  [0x3002, '\ufe12'],
  [0xff0c, '\ufe10'],
]);

/** East Asian characters stand upright in vertical text; everything else turns with the line. */
function upright(cp: number): boolean {
  return scriptClassOf(cp) === 'eastAsia' && !turns(cp);
}

function mapText(item: TextItem, width: number, faces: Record<string, FontFace>, out: PageItem[]): void {
  const face = faces[item.font];
  const spacing = item.characterSpacing ?? 0;
  const angle = (item.angle ?? 0) - 90;
  // Runs of characters that turn with the line stay one item; upright ones get one item each.
  let along = item.x;
  let run = '';
  let runStart = along;
  const flush = () => {
    if (run) out.push({ ...item, text: run, x: width - item.y, y: runStart, angle });
    run = '';
  };
  for (const char of item.text) {
    const cp = char.codePointAt(0) ?? 0;
    const advance = (face ? face.measure(char) * item.size : item.size) + spacing;
    if (item.angle || !upright(cp)) {
      if (!run) runStart = along;
      run += char;
    } else {
      flush();
      const form = VERTICAL_FORMS.get(cp);
      const vertical = form !== undefined && face?.hasGlyph(form.charCodeAt(0)) ? form : undefined;
      const shift = !vertical && raised(cp) ? RAISE * item.size : 0;
      const glyph: TextItem = {
        ...item,
        text: vertical ?? char,
        x: width - (item.y - EM_CENTRE * item.size) - (advance - spacing) / 2 + shift,
        y: along + EM_TOP * item.size - shift,
      };
      delete glyph.angle;
      out.push(glyph);
    }
    along += advance;
  }
  flush();
}

/** A virtual-page box on the physical page. */
function mapBox(box: { x: number; y: number; width: number; height: number }, width: number) {
  return { x: width - (box.y + box.height), y: box.x, width: box.height, height: box.width };
}

/** The items of a page flowed on virtualPage(page), placed on the physical page. */
export function verticalItems(items: PageItem[], page: PageGeometry, faces: Record<string, FontFace>): PageItem[] {
  return turnClockwise(items, page.width, faces);
}

/**
 * Items laid out on a frame turned a quarter turn, mapped back: (x, y) → (width − y, x), East
 * Asian characters upright and everything else turned clockwise. Vertical sections and tbRl
 * table cells (turned-cell.ts) share it.
 */
export function turnClockwise(items: PageItem[], width: number, faces: Record<string, FontFace>): PageItem[] {
  const out: PageItem[] = [];
  for (const item of items) {
    switch (item.kind) {
      case 'text':
        mapText(item, width, faces, out);
        break;
      case 'line':
        out.push({ ...item, x1: width - item.y1, y1: item.x1, x2: width - item.y2, y2: item.x2 });
        break;
      case 'rect':
      case 'link':
        out.push({ ...item, ...mapBox(item, width) });
        break;
      case 'image': {
        // Pictures stay upright: the same size, centred where the turned box lands.
        const box = mapBox(item, width);
        out.push({
          ...item,
          x: box.x + (box.width - item.width) / 2,
          y: box.y + (box.height - item.height) / 2,
        });
        break;
      }
      case 'path':
        out.push({
          ...item,
          commands: item.commands.map((c): PathCommand => {
            if (c.op === 'Z') return c;
            if (c.op === 'C')
              return { op: 'C', x1: width - c.y1, y1: c.x1, x2: width - c.y2, y2: c.x2, x: width - c.y, y: c.x };
            return { op: c.op, x: width - c.y, y: c.x };
          }),
        });
        break;
      case 'anchor':
        out.push({ ...item, y: 0 });
        break;
    }
  }
  return out;
}
