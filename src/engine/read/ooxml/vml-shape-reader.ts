import {
  type FloatingPlacement,
  type Paragraph,
  type ParagraphProperties,
  plainRunProperties,
  type Shape,
  type ShapeGeometry,
} from '../../model';
import type { StoryContext } from './read-context';
import { hexColor } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * VML shapes and text boxes (ECMA-376 Part 4 §19.1: v:rect, v:roundrect, v:oval, v:shape with a
 * v:textbox) into the drawing model: box and position from the CSS-like style attribute
 * (position:absolute, margin-left/top, width/height, mso-position-*-relative), fill and stroke
 * from the shape's attributes, wrapping from w10:wrap. Old Word files (and Fallbacks) use them.
 */

const CSS_UNITS: Record<string, number> = { pt: 1, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, px: 0.75, pc: 12, '': 0.75 };

/** A CSS length ("12pt", "1.5in", "0") in points, or undefined. */
export function cssLength(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  // One way to match each number and space (as units.ts measure does), so a failing match is
  // linear in the value's length, however many digits or spaces a hostile style holds.
  const match = /^(-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+))\s*(pt|in|cm|mm|px|pc)?$/i.exec(value.trim());
  if (!match) return undefined;
  const number = Number(match[1]) * (CSS_UNITS[(match[2] ?? '').toLowerCase()] ?? 0.75);
  return Number.isFinite(number) ? number : undefined;
}

/** The declarations of a VML style attribute, by lower-cased property. */
export function cssDeclarations(style: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const declaration of (style ?? '').split(';')) {
    const colon = declaration.indexOf(':');
    if (colon === -1) continue;
    out.set(declaration.slice(0, colon).trim().toLowerCase(), declaration.slice(colon + 1).trim());
  }
  return out;
}

const NAMED: Record<string, string> = {
  white: 'FFFFFF',
  black: '000000',
  red: 'FF0000',
  blue: '0000FF',
  green: '008000',
  yellow: 'FFFF00',
  gray: '808080',
  silver: 'C0C0C0',
  navy: '000080',
  purple: '800080',
  maroon: '800000',
  teal: '008080',
  olive: '808000',
  lime: '00FF00',
  aqua: '00FFFF',
  fuchsia: 'FF00FF',
};

/** A VML colour ("#a7cae2", "#abc", "white", "#ff0 [13]"), or undefined. */
function vmlColor(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().split(/\s+/)[0] ?? '';
  if (text.startsWith('#')) {
    const hex = text.slice(1);
    if (hex.length === 3) return hexColor(hex.replace(/(.)/g, '$1$1'));
    return hexColor(hex);
  }
  return NAMED[text.toLowerCase()];
}

const VML_SHAPES: Record<string, ShapeGeometry> = {
  'v:rect': 'rect',
  'v:roundrect': 'roundRect',
  'v:oval': 'ellipse',
  'v:shape': 'rect',
};

export interface VmlDrawing {
  shape: Shape;
  width: number;
  height: number;
  floating?: FloatingPlacement;
}

/**
 * A VML shape as a drawing, or undefined when it is not one drawn here (pictures, shapes without
 * a size). A shape with a text path is WordArt (readWordArt).
 */
export function readVmlShape(element: XmlElement, story: StoryContext): VmlDrawing | undefined {
  const geometry = VML_SHAPES[element.name];
  if (geometry === undefined || child(element, 'v:imagedata')) return undefined;
  const textPath = child(element, 'v:textpath');
  if (textPath !== undefined) return readWordArt(element, textPath, story);
  const textbox = child(element, 'v:textbox');
  const content = child(textbox, 'w:txbxContent');
  // A plain v:shape is only drawn when it is a text box: its path is not interpreted.
  if (element.name === 'v:shape' && content === undefined) return undefined;
  const style = cssDeclarations(element.attributes.style);
  const attributes = element.attributes;
  // A horizontal rule (o:hr) spans the text width when its width is 0 (6.5 in, Letter's text width,
  // stands in: the column is not known while reading).
  const rule = attributes['o:hr'] === 't';
  const width = cssLength(style.get('width')) || (rule ? 468 : 0);
  const height = cssLength(style.get('height')) ?? 0;
  if (width <= 0 || height <= 0) return undefined;
  const shape: Shape = { geometry, x: 0, y: 0, width, height, rotation: 0, flipH: false, flipV: false };
  // VML fills white and strokes black 0.75 pt unless told otherwise (Part 4 §19.1.2.19 fill defaults).
  const filled = attributes.filled;
  const fillElement = child(element, 'v:fill');
  if (filled !== 'f' && filled !== 'false' && fillElement?.attributes.on !== 'f') {
    shape.fill = vmlColor(attributes.fillcolor ?? fillElement?.attributes.color) ?? 'FFFFFF';
  }
  const stroked = attributes.stroked;
  const strokeElement = child(element, 'v:stroke');
  if (stroked !== 'f' && stroked !== 'false' && strokeElement?.attributes.on !== 'f') {
    shape.stroke = {
      color: vmlColor(attributes.strokecolor ?? strokeElement?.attributes.color) ?? '000000',
      width: cssLength(attributes.strokeweight) ?? 0.75,
    };
  }
  if (content !== undefined) {
    const insets = (textbox?.attributes.inset ?? '').split(',');
    const inset = (i: number, fallback: number) => cssLength(insets[i]) ?? fallback;
    const anchor = style.get('v-text-anchor') ?? '';
    shape.text = {
      blocks: story.doc.readBlocks(content, story, undefined).blocks,
      insets: { left: inset(0, 7.2), top: inset(1, 3.6), right: inset(2, 7.2), bottom: inset(3, 3.6) },
      anchor: anchor.startsWith('middle') ? 'middle' : anchor.startsWith('bottom') ? 'bottom' : 'top',
    };
  }
  const out: VmlDrawing = { shape, width, height };
  if (style.get('position') === 'absolute') out.floating = vmlPlacement(style, element, story);
  else if (rule) out.floating = rulePlacement(attributes['o:hralign']);
  return out;
}

/** The text a WordArt text path draws (string), its lines split; '' when it draws none. */
export function wordArtText(element: XmlElement): string {
  const textPath = child(element, 'v:textpath');
  if (textPath === undefined || textPath.attributes.on === 'f' || textPath.attributes.on === 'false') return '';
  return (textPath.attributes.string ?? '').replace(/\r\n?/g, '\n');
}

/**
 * WordArt in VML (ECMA-376 Part 4 §19.1.2.22 textpath): a shape whose outline is its text. The
 * string, in the style's font-family, font-size (36 pt by default), font-weight and font-style,
 * fills the shape's box (fitshape; Word's WordArt shape types all set it), its ink only with trim;
 * the glyphs take the shape's fill and are outlined with its stroke (VML's defaults: white, and
 * black 0.75 pt). A gradient fill (v:fill type gradient) is drawn in one colour, the average of its
 * stops along the gradient. A text path that does not fit its shape (fitshape="f") is set at its
 * font size, centred in the box. The path's curve, shadow and 3-D extrusion are not drawn.
 */
function readWordArt(element: XmlElement, textPath: XmlElement, story: StoryContext): VmlDrawing | undefined {
  const text = wordArtText(element);
  if (text.trim() === '') return undefined;
  const style = cssDeclarations(element.attributes.style);
  const width = cssLength(style.get('width')) ?? 0;
  const height = cssLength(style.get('height')) ?? 0;
  if (width <= 0 || height <= 0) {
    story.doc.warn(`A WordArt text path without a size ("${text.slice(0, 40)}") is left out.`);
    return undefined;
  }
  const attributes = element.attributes;
  const font = cssDeclarations(textPath.attributes.style);
  const family = (font.get('font-family') ?? '').split(',')[0]?.replace(/["']/g, '').trim() || 'Arial';
  const weight = font.get('font-weight') ?? '';
  const fill = wordArtFill(element);
  const stroked = attributes.stroked;
  const strokeElement = child(element, 'v:stroke');
  const outline =
    stroked !== 'f' && stroked !== 'false' && strokeElement?.attributes.on !== 'f'
      ? {
          color: vmlColor(attributes.strokecolor ?? strokeElement?.attributes.color) ?? '000000',
          width: cssLength(attributes.strokeweight ?? strokeElement?.attributes.weight) ?? 0.75,
        }
      : undefined;
  const props = plainRunProperties(
    { font: family, size: cssLength(font.get('font-size')) || 36 },
    {
      bold: weight === 'bold' || Number(weight) >= 600,
      italic: font.get('font-style') === 'italic',
      color: fill ?? '000000',
    },
  );
  const paragraph: ParagraphProperties = {
    align: 'center',
    indent: { left: 0, right: 0, firstLine: 0 },
    spacing: { before: 0, after: 0, line: 1, lineRule: 'auto' },
    tabs: [],
    keepNext: false,
    keepLines: false,
    widowControl: false,
    pageBreakBefore: false,
    contextualSpacing: false,
    borders: {},
    rtl: false,
    snapToGrid: false,
  };
  const blocks: Paragraph[] = text.split('\n').map((line) => ({
    kind: 'paragraph',
    props: paragraph,
    markProps: props,
    inlines: line === '' ? [] : [{ kind: 'text', text: line, props }],
  }));
  const fitShape = textPath.attributes.fitshape;
  const shape: Shape = {
    geometry: 'rect',
    x: 0,
    y: 0,
    width,
    height,
    rotation: Number.parseFloat(style.get('rotation') ?? '') || 0,
    flipH: false,
    flipV: false,
    text: {
      blocks,
      insets: { left: 0, top: 0, right: 0, bottom: 0 },
      anchor: 'middle',
      ...(fitShape === 'f' || fitShape === 'false'
        ? {}
        : { fit: { trim: textPath.attributes.trim === 't' || textPath.attributes.trim === 'true' } }),
      ...(outline ? { outline } : {}),
      ...(fill === undefined ? { unfilled: true } : {}),
    },
  };
  const out: VmlDrawing = { shape, width, height };
  if (style.get('position') === 'absolute') out.floating = vmlPlacement(style, element, story);
  return out;
}

/**
 * The colour WordArt's glyphs are filled with (undefined: not filled): the shape's fillcolor, or
 * for a gradient the average colour along it (v:fill colors, §19.1.2.5: "position colour" stops,
 * positions as fractions or 16.16 fixed point with an f; without them, fillcolor to color2).
 */
function wordArtFill(element: XmlElement): string | undefined {
  const attributes = element.attributes;
  const fill = child(element, 'v:fill');
  if (attributes.filled === 'f' || attributes.filled === 'false' || fill?.attributes.on === 'f') return undefined;
  const base = vmlColor(attributes.fillcolor ?? fill?.attributes.color) ?? 'FFFFFF';
  const type = fill?.attributes.type ?? '';
  if (fill === undefined || !type.startsWith('gradient')) return base;
  const stops: [number, string][] = [];
  for (const entry of (fill.attributes.colors ?? '').split(';')) {
    const [position, color] = entry.trim().split(/\s+/);
    const hex = vmlColor(color);
    if (position === undefined || hex === undefined) continue;
    const at = position.endsWith('f') ? Number(position.slice(0, -1)) / 65536 : Number(position);
    if (Number.isFinite(at)) stops.push([Math.min(1, Math.max(0, at)), hex]);
  }
  if (stops.length === 0) stops.push([0, base], [1, vmlColor(fill.attributes.color2) ?? 'FFFFFF']);
  return averageColor(stops.sort((a, b) => a[0] - b[0]));
}

/** The mean colour of a linear gradient's stops over [0, 1] (the ends extend to the edges). */
function averageColor(stops: [number, string][]): string {
  const rgb = (hex: string) => [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const sum = [0, 0, 0];
  const first = stops[0] as [number, string];
  const last = stops[stops.length - 1] as [number, string];
  const add = (color: number[], weight: number) => {
    for (let c = 0; c < 3; c++) sum[c] = (sum[c] as number) + (color[c] as number) * weight;
  };
  add(rgb(first[1]), first[0]);
  add(rgb(last[1]), 1 - last[0]);
  for (let i = 1; i < stops.length; i++) {
    const [a, from] = stops[i - 1] as [number, string];
    const [b, to] = stops[i] as [number, string];
    const [p, q] = [rgb(from), rgb(to)];
    add(
      p.map((v, c) => (v + (q[c] as number)) / 2),
      b - a,
    );
  }
  return sum
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
    .toUpperCase();
}

/**
 * A horizontal rule keeps its paragraph a line of text tall (as Word and LibreOffice show it): it
 * floats at the middle of the line instead of being a 2 pt tall line of its own.
 */
function rulePlacement(align: string | undefined): FloatingPlacement {
  return {
    x: { from: 'column', offset: 0, align: align === 'left' ? 'left' : align === 'right' ? 'right' : 'center' },
    y: { from: 'line', offset: 6 },
    behindText: false,
    wrap: 'none',
    side: 'both',
    distance: { top: 0, bottom: 0, left: 0, right: 0 },
  };
}

/**
 * Where an absolutely positioned VML shape or picture sits (VML's CSS: position:absolute with
 * margin-left/top from the mso-position-*-relative edge, ECMA-376 Part 4 §19.1.2.19 style).
 */
export function vmlPlacement(style: Map<string, string>, element: XmlElement, story: StoryContext): FloatingPlacement {
  const hRelative = style.get('mso-position-horizontal-relative') ?? 'text';
  const vRelative = style.get('mso-position-vertical-relative') ?? 'text';
  const wrapType = child(element, 'w10:wrap')?.attributes.type;
  const inHeader = /(^|\/)(header|footer)[^/]*$/i.test(story.partName);
  let wrap: FloatingPlacement['wrap'] = 'none';
  if (wrapType === 'topAndBottom') wrap = 'topAndBottom';
  else if (wrapType === 'square' || wrapType === 'tight' || wrapType === 'through') wrap = 'square';
  if (inHeader) wrap = 'none';
  const side = child(element, 'w10:wrap')?.attributes.side;
  const placement: FloatingPlacement = {
    x: {
      from:
        hRelative === 'page'
          ? 'page'
          : hRelative === 'margin'
            ? 'margin'
            : hRelative === 'char'
              ? 'character'
              : 'column',
      offset: (cssLength(style.get('margin-left')) ?? 0) + (cssLength(style.get('left')) ?? 0),
    },
    y: {
      from:
        vRelative === 'page' ? 'page' : vRelative === 'margin' ? 'margin' : vRelative === 'line' ? 'line' : 'paragraph',
      offset: (cssLength(style.get('margin-top')) ?? 0) + (cssLength(style.get('top')) ?? 0),
    },
    behindText: Number(style.get('z-index')) < 0,
    wrap,
    side: side === 'left' || side === 'right' ? side : side === 'largest' ? 'largest' : 'both',
    distance: {
      top: cssLength(style.get('mso-wrap-distance-top')) ?? 0,
      bottom: cssLength(style.get('mso-wrap-distance-bottom')) ?? 0,
      left: cssLength(style.get('mso-wrap-distance-left')) ?? 9,
      right: cssLength(style.get('mso-wrap-distance-right')) ?? 9,
    },
  };
  const h = style.get('mso-position-horizontal');
  if (h === 'center' || h === 'left' || h === 'right') placement.x.align = h;
  const v = style.get('mso-position-vertical');
  if (v === 'center' || v === 'top' || v === 'bottom') placement.y.align = v;
  return placement;
}
