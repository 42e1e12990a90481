/**
 * CSS values the reader understands, turned into the model's units: colours to 6-digit hex
 * (CSS Color 4 §4–6), lengths to points (CSS Values 3 §5: 1px = 0.75pt, 1in = 72pt), font sizes
 * (CSS Fonts 3 §3.5 absolute and relative keywords), and the first family of a font-family list.
 */

import { type Bounds, clamp, FONT_SIZE, OFFSET } from '../ooxml';

/** CSS Color 4 §6.1 named colours, name:hex pairs (148 names with the grey/gray twins). */
const NAMED =
  'aliceblue:f0f8ff,antiquewhite:faebd7,aqua:00ffff,aquamarine:7fffd4,azure:f0ffff,beige:f5f5dc,bisque:ffe4c4,black:000000,blanchedalmond:ffebcd,blue:0000ff,blueviolet:8a2be2,brown:a52a2a,burlywood:deb887,cadetblue:5f9ea0,chartreuse:7fff00,chocolate:d2691e,coral:ff7f50,cornflowerblue:6495ed,cornsilk:fff8dc,crimson:dc143c,cyan:00ffff,darkblue:00008b,darkcyan:008b8b,darkgoldenrod:b8860b,darkgray:a9a9a9,darkgreen:006400,darkgrey:a9a9a9,darkkhaki:bdb76b,darkmagenta:8b008b,darkolivegreen:556b2f,darkorange:ff8c00,darkorchid:9932cc,darkred:8b0000,darksalmon:e9967a,darkseagreen:8fbc8f,darkslateblue:483d8b,darkslategray:2f4f4f,darkslategrey:2f4f4f,darkturquoise:00ced1,darkviolet:9400d3,deeppink:ff1493,deepskyblue:00bfff,dimgray:696969,dimgrey:696969,dodgerblue:1e90ff,firebrick:b22222,floralwhite:fffaf0,forestgreen:228b22,fuchsia:ff00ff,gainsboro:dcdcdc,ghostwhite:f8f8ff,gold:ffd700,goldenrod:daa520,gray:808080,green:008000,greenyellow:adff2f,grey:808080,honeydew:f0fff0,hotpink:ff69b4,indianred:cd5c5c,indigo:4b0082,ivory:fffff0,khaki:f0e68c,lavender:e6e6fa,lavenderblush:fff0f5,lawngreen:7cfc00,lemonchiffon:fffacd,lightblue:add8e6,lightcoral:f08080,lightcyan:e0ffff,lightgoldenrodyellow:fafad2,lightgray:d3d3d3,lightgreen:90ee90,lightgrey:d3d3d3,lightpink:ffb6c1,lightsalmon:ffa07a,lightseagreen:20b2aa,lightskyblue:87cefa,lightslategray:778899,lightslategrey:778899,lightsteelblue:b0c4de,lightyellow:ffffe0,lime:00ff00,limegreen:32cd32,linen:faf0e6,magenta:ff00ff,maroon:800000,mediumaquamarine:66cdaa,mediumblue:0000cd,mediumorchid:ba55d3,mediumpurple:9370db,mediumseagreen:3cb371,mediumslateblue:7b68ee,mediumspringgreen:00fa9a,mediumturquoise:48d1cc,mediumvioletred:c71585,midnightblue:191970,mintcream:f5fffa,mistyrose:ffe4e1,moccasin:ffe4b5,navajowhite:ffdead,navy:000080,oldlace:fdf5e6,olive:808000,olivedrab:6b8e23,orange:ffa500,orangered:ff4500,orchid:da70d6,palegoldenrod:eee8aa,palegreen:98fb98,paleturquoise:afeeee,palevioletred:db7093,papayawhip:ffefd5,peachpuff:ffdab9,peru:cd853f,pink:ffc0cb,plum:dda0dd,powderblue:b0e0e6,purple:800080,rebeccapurple:663399,red:ff0000,rosybrown:bc8f8f,royalblue:4169e1,saddlebrown:8b4513,salmon:fa8072,sandybrown:f4a460,seagreen:2e8b57,seashell:fff5ee,sienna:a0522d,silver:c0c0c0,skyblue:87ceeb,slateblue:6a5acd,slategray:708090,slategrey:708090,snow:fffafa,springgreen:00ff7f,steelblue:4682b4,tan:d2b48c,teal:008080,thistle:d8bfd8,tomato:ff6347,turquoise:40e0d0,violet:ee82ee,wheat:f5deb3,white:ffffff,whitesmoke:f5f5f5,yellow:ffff00,yellowgreen:9acd32';

const NAMED_COLORS: ReadonlyMap<string, string> = new Map(
  NAMED.split(',').map((pair) => {
    const [name, hex] = pair.split(':') as [string, string];
    return [name, hex.toUpperCase()];
  }),
);

/**
 * A colour as 6-digit upper-case hex; null for transparent (an explicit "none"); undefined when
 * the value is not a colour this reader knows (currentColor, var(), hsl…: ignored).
 */
export function parseColor(value: string): string | null | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'transparent') return null;
  if (v.startsWith('#')) {
    const hex = v.slice(1);
    if (!/^[0-9a-f]+$/.test(hex)) return undefined;
    if (hex.length === 3 || hex.length === 4) {
      return [...hex.slice(0, 3)]
        .map((c) => c + c)
        .join('')
        .toUpperCase();
    }
    if (hex.length === 6 || hex.length === 8) return hex.slice(0, 6).toUpperCase();
    return undefined;
  }
  const rgb = /^rgba?\(\s*([^)]*)\)$/.exec(v);
  if (rgb) {
    const parts = (rgb[1] ?? '').split(/[\s,/]+/).filter((p) => p !== '');
    if (parts.length < 3) return undefined;
    // A fully transparent rgba() is no colour at all.
    if (parts[3] !== undefined && Number.parseFloat(parts[3]) === 0) return null;
    const channels = parts.slice(0, 3).map((p) => {
      const n = Number.parseFloat(p);
      const scaled = p.endsWith('%') ? (n * 255) / 100 : n;
      return Math.max(0, Math.min(255, Math.round(Number.isFinite(scaled) ? scaled : 0)));
    });
    return channels
      .map((c) => c.toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase();
  }
  return NAMED_COLORS.get(v);
}

/** HTML's legacy colour attributes (bgcolor, color): a name, or hex with or without '#'. */
export function parseLegacyColor(value: string): string | undefined {
  const v = value.trim();
  if (/^[0-9a-f]{6}$/i.test(v)) return v.toUpperCase();
  return parseColor(v) ?? undefined;
}

/** Points per CSS absolute unit (1 in = 72 pt = 96 px; CSS Values 4 §6.2.1). */
export const UNIT_POINTS: Readonly<Record<string, number>> = {
  px: 0.75,
  pt: 1,
  pc: 12,
  in: 72,
  cm: 72 / 2.54,
  mm: 72 / 25.4,
  q: 72 / 101.6,
};

export interface LengthContext {
  /** The element's font size in points, for em (and its parent's for font-size itself). */
  fontSize: number;
  /** The root font size, for rem. */
  rootFontSize?: number;
}

/**
 * A length in points; `percentOf` resolves %. Unitless 0 is 0; other unitless numbers are refused.
 * Within ±22 in, the bound Word puts on a document's lengths (engine/read/ooxml/units.ts OFFSET): what the
 * model takes from HTML it takes from DOCX, and `width: 99999999in` or `margin-left: 1000000000px` lays
 * out as Word would lay out the longest length it accepts.
 */
export function parseLength(value: string, context: LengthContext, percentOf?: number): number | undefined {
  return clamp(cssLength(value, context, percentOf), OFFSET);
}

/** parseLength, unbounded: font sizes have bounds of their own (parseFontSize). */
function cssLength(value: string, context: LengthContext, percentOf?: number): number | undefined {
  // One way to match each number (a fraction only after the point), so a failing match is linear.
  const m = /^(-?(?:\d+(?:\.\d*)?|\.\d+))([a-z%]*)$/i.exec(value.trim());
  if (!m) return undefined;
  const n = Number.parseFloat(m[1] ?? '');
  if (!Number.isFinite(n)) return undefined;
  const unit = (m[2] ?? '').toLowerCase();
  if (unit === '') return n === 0 ? 0 : undefined;
  if (unit === '%') return percentOf === undefined ? undefined : (n * percentOf) / 100;
  if (unit === 'em') return n * context.fontSize;
  if (unit === 'rem') return n * (context.rootFontSize ?? 12);
  if (unit === 'ex' || unit === 'ch') return n * context.fontSize * 0.5;
  const factor = UNIT_POINTS[unit];
  return factor === undefined ? undefined : n * factor;
}

/**
 * The font sizes CSS may set: Word's (engine/read/ooxml/units.ts FONT_SIZE) from 1 pt, the smallest a browser's
 * font-size takes here.
 */
const FONT_SIZE_POINTS: Bounds = { min: 1, max: FONT_SIZE.max };

/** CSS Fonts 3 §3.5: the absolute-size keywords, medium = 16px = 12pt and a 1.2 ratio. */
const FONT_SIZE_KEYWORDS: Record<string, number> = {
  'xx-small': 7,
  'x-small': 7.5,
  small: 10,
  medium: 12,
  large: 13.5,
  'x-large': 18,
  'xx-large': 24,
  'xxx-large': 36,
};

/** A font-size in points, relative values against the parent's size. */
export function parseFontSize(value: string, parentSize: number): number | undefined {
  const v = value.trim().toLowerCase();
  const keyword = FONT_SIZE_KEYWORDS[v];
  if (keyword !== undefined) return keyword;
  if (v === 'smaller') return parentSize / 1.2;
  if (v === 'larger') return parentSize * 1.2;
  const size = cssLength(v, { fontSize: parentSize }, parentSize);
  if (size === undefined || size <= 0) return undefined;
  // Word sizes are half-points between 1 and 1638 (ECMA-376 §17.18.80 ST_HpsMeasure).
  return clamp(Math.round(size * 2) / 2, FONT_SIZE_POINTS);
}

/** The face for a generic family (CSS Fonts 3 §3.1.1), as the engine bundles metric twins of these. */
const GENERIC_FAMILIES: Record<string, string> = {
  serif: 'Times New Roman',
  'sans-serif': 'Arial',
  monospace: 'Courier New',
  'ui-monospace': 'Courier New',
  'system-ui': 'Arial',
  'ui-sans-serif': 'Arial',
  'ui-serif': 'Times New Roman',
  cursive: 'Times New Roman',
  fantasy: 'Arial',
};

/** The first family of a font-family list, quotes stripped, generics mapped to a face. */
export function firstFontFamily(value: string): string | undefined {
  const first = value
    .split(',')[0]
    ?.trim()
    .replace(/^["']|["']$/g, '')
    .trim();
  if (!first || first.length > 64) return undefined;
  return GENERIC_FAMILIES[first.toLowerCase()] ?? first;
}

/** CSS font-weight: bold, bolder and 600 and above are bold (Word has only bold or not). */
export function isBoldWeight(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'bold' || v === 'bolder') return true;
  if (v === 'normal' || v === 'lighter') return false;
  const n = Number.parseFloat(v);
  return Number.isFinite(n) ? n >= 600 : undefined;
}
