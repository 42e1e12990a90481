import type { RunProperties, ShapeStroke } from '../../model';
import type { ThemeColors } from './theme-colors';
import type { ThemeFonts } from './theme-fonts';
import { emu, hexColor } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * DrawingML colours, fills, outlines and run properties (ECMA-376 Part 1 §20.1.2.3 colours,
 * §20.1.8 fills, §20.1.2.2.24 a:ln, §21.1.2.3.9 a:rPr), shared by charts, shapes and SmartArt.
 */

export interface DrawingStyleContext {
  colors: ThemeColors;
  fonts: ThemeFonts;
}

/** a:schemeClr names (ST_SchemeColorVal, §20.1.10.54) → the theme slot names of ThemeColors. */
const SCHEME: Record<string, string> = {
  tx1: 'text1',
  tx2: 'text2',
  bg1: 'background1',
  bg2: 'background2',
  dk1: 'dark1',
  dk2: 'dark2',
  lt1: 'light1',
  lt2: 'light2',
  hlink: 'hyperlink',
  folHlink: 'followedHyperlink',
};

/** Office's default palette, for documents without a theme part. */
const DEFAULT_SCHEME: Record<string, string> = {
  text1: '000000',
  dark1: '000000',
  background1: 'FFFFFF',
  light1: 'FFFFFF',
  text2: '44546A',
  dark2: '44546A',
  background2: 'E7E6E6',
  light2: 'E7E6E6',
  accent1: '4472C4',
  accent2: 'ED7D31',
  accent3: 'A5A5A5',
  accent4: 'FFC000',
  accent5: '5B9BD5',
  accent6: '70AD47',
  hyperlink: '0563C1',
  followedHyperlink: '954F72',
};

const PRESET: Record<string, string> = {
  black: '000000',
  white: 'FFFFFF',
  red: 'FF0000',
  green: '008000',
  blue: '0000FF',
  yellow: 'FFFF00',
  gray: '808080',
  grey: '808080',
  darkGray: 'A9A9A9',
  lightGray: 'D3D3D3',
  orange: 'FFA500',
};

/** A theme slot's colour ("accent1", "text1"…), from the theme or Office's defaults. */
export function schemeColor(colors: ThemeColors, name: string): string {
  const slot = SCHEME[name] ?? name;
  return colors[slot] ?? DEFAULT_SCHEME[slot] ?? '000000';
}

/**
 * The colour of a colour-choice element's child (a:srgbClr, a:schemeClr, a:sysClr, a:prstClr,
 * a:scrgbClr) with its transforms (lumMod/lumOff, tint, shade; §20.1.2.3), or undefined.
 * `placeholder` stands for a:schemeClr val="phClr" (a style matrix's colour).
 */
export function colorOf(
  parent: XmlElement | undefined,
  context: DrawingStyleContext,
  placeholder?: string,
): string | undefined {
  if (parent === undefined) return undefined;
  for (const element of parent.children) {
    let base: string | undefined;
    switch (element.name) {
      case 'a:srgbClr':
        base = hexColor(element.attributes.val);
        break;
      case 'a:schemeClr': {
        const name = element.attributes.val ?? '';
        base = name === 'phClr' ? placeholder : schemeColor(context.colors, name);
        break;
      }
      case 'a:sysClr':
        base = hexColor(element.attributes.lastClr) ?? (element.attributes.val === 'window' ? 'FFFFFF' : '000000');
        break;
      case 'a:prstClr':
        base = PRESET[element.attributes.val ?? ''] ?? '000000';
        break;
      case 'a:scrgbClr': {
        const channel = (v: string | undefined) => Math.round((Number(v ?? 0) / 100000) * 255);
        base = [element.attributes.r, element.attributes.g, element.attributes.b]
          .map((v) =>
            Math.max(0, Math.min(255, channel(v)))
              .toString(16)
              .padStart(2, '0'),
          )
          .join('')
          .toUpperCase();
        break;
      }
      default:
        continue;
    }
    return base === undefined ? undefined : transform(base, element);
  }
  return undefined;
}

/** Applies a colour's lumMod/lumOff (in HSL), tint and shade children (§20.1.2.3.20–34). */
function transform(hex: string, element: XmlElement): string {
  let [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  for (const op of element.children) {
    const value = Number(op.attributes.val) / 100000;
    if (!Number.isFinite(value)) continue;
    if (op.name === 'a:lumMod' || op.name === 'a:lumOff') {
      const [h, s, l] = toHsl(r, g, b);
      const lightness = op.name === 'a:lumMod' ? l * value : l + value;
      [r, g, b] = fromHsl(h, s, Math.max(0, Math.min(1, lightness)));
    } else if (op.name === 'a:tint') {
      [r, g, b] = [r, g, b].map((c) => 1 - (1 - c) * value) as [number, number, number];
    } else if (op.name === 'a:shade') {
      [r, g, b] = [r, g, b].map((c) => c * value) as [number, number, number];
    }
  }
  return [r, g, b]
    .map((c) =>
      Math.round(Math.max(0, Math.min(1, c)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
    .toUpperCase();
}

function toHsl(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h: number;
  if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return [h / 6, s, l];
}

function fromHsl(h: number, s: number, l: number): [number, number, number] {
  if (s === 0) return [l, l, l];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t0: number) => {
    let t = t0;
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)];
}

/**
 * The fill of shape properties (c:spPr, wps:spPr): a colour for a:solidFill (a gradient's first
 * stop), 'none' for a:noFill, undefined when unspecified (the caller's default applies).
 */
export function fillOf(spPr: XmlElement | undefined, context: DrawingStyleContext): string | 'none' | undefined {
  if (spPr === undefined) return undefined;
  if (child(spPr, 'a:noFill')) return 'none';
  const solid = child(spPr, 'a:solidFill');
  if (solid) return colorOf(solid, context);
  const gradient = child(child(spPr, 'a:gradFill'), 'a:gsLst');
  if (gradient) return colorOf(child(gradient, 'a:gs'), context);
  if (child(spPr, 'a:pattFill')) return colorOf(child(child(spPr, 'a:pattFill'), 'a:fgClr'), context);
  return undefined;
}

const DASHES: Record<string, number[]> = {
  dash: [4, 3],
  sysDash: [3, 1],
  dot: [1, 1],
  sysDot: [1, 1],
  lgDash: [8, 3],
  dashDot: [4, 3, 1, 3],
  sysDashDot: [3, 1, 1, 1],
  lgDashDot: [8, 3, 1, 3],
};

/**
 * An outline (a:ln, §20.1.2.2.24): 'none' for a:noFill, the stroke when it has a colour, or
 * undefined when unspecified. Dash lengths are multiples of the width (ST_PresetLineDashVal).
 */
export function strokeOf(
  ln: XmlElement | undefined,
  context: DrawingStyleContext,
  fallbackColor?: string,
): ShapeStroke | 'none' | undefined {
  if (ln === undefined) return undefined;
  if (child(ln, 'a:noFill')) return 'none';
  const color = fillOf(ln, context);
  const width = emu(ln.attributes.w) ?? 0.75;
  const resolved = color === 'none' ? undefined : (color ?? fallbackColor);
  if (resolved === undefined) return undefined;
  const dash = DASHES[child(ln, 'a:prstDash')?.attributes.val ?? ''];
  return { color: resolved, width, ...(dash ? { dash: dash.map((d) => d * Math.max(width, 0.5)) } : {}) };
}

/**
 * Run properties from DrawingML text properties (a:defRPr / a:rPr: sz in hundredths of a point,
 * b, i, a:solidFill, a:latin typeface with "+mn-lt"/"+mj-lt" theme references), over `base`.
 */
export function drawingRunProps(
  rPr: XmlElement | undefined,
  base: RunProperties,
  context: DrawingStyleContext,
): RunProperties {
  if (rPr === undefined) return base;
  const props: RunProperties = { ...base };
  const size = Number(rPr.attributes.sz);
  if (Number.isFinite(size) && size > 0) props.size = size / 100;
  if (rPr.attributes.b !== undefined) props.bold = rPr.attributes.b === '1' || rPr.attributes.b === 'true';
  if (rPr.attributes.i !== undefined) props.italic = rPr.attributes.i === '1' || rPr.attributes.i === 'true';
  if (rPr.attributes.u !== undefined && rPr.attributes.u !== 'none') props.underline = 'single';
  const fill = fillOf(rPr, context);
  if (fill !== undefined && fill !== 'none') props.color = fill;
  const typeface = child(rPr, 'a:latin')?.attributes.typeface;
  if (typeface) {
    const theme = typeface.startsWith('+mj')
      ? context.fonts.major
      : typeface.startsWith('+mn')
        ? context.fonts.minor
        : undefined;
    const face = typeface.startsWith('+') ? theme?.latin : typeface;
    if (face) props.font = face;
  }
  return props;
}
