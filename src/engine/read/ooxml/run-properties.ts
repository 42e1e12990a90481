import type { RunProperties, UnderlineStyle } from '../../model';
import { effectiveChildren } from './markup-compatibility';
import { type ThemeColors, themeColor } from './theme-colors';
import { type ThemeFonts, themeFont } from './theme-fonts';
import { clamp, FONT_SIZE, halfPoints, hexColor, OFFSET, onOff, twips } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * Run properties as one level of the cascade states them (w:rPr, ECMA-376 Part 1 §17.3.2): only
 * what the level sets is present. `null` means the level explicitly turns a property off
 * ("auto" colour, u="none", highlight="none"), which must override lower levels.
 */
export interface RunDelta {
  /** w:rStyle: the character style of a run (direct formatting only). */
  styleId?: string;
  ascii?: FontChoice;
  hAnsi?: FontChoice;
  eastAsia?: FontChoice;
  complex?: FontChoice;
  /** w:rFonts/@w:hint (§17.18.41 ST_Hint), inherited like the fonts themselves. */
  hint?: string;
  /** The w:lang/@w:eastAsia language, to pick a theme's script face and the CJK fallback face. */
  eastAsiaLanguage?: string;
  size?: number;
  bold?: boolean;
  italic?: boolean;
  sizeComplex?: number;
  boldComplex?: boolean;
  italicComplex?: boolean;
  rtl?: boolean;
  complexScript?: boolean;
  caps?: boolean;
  smallCaps?: boolean;
  strike?: boolean;
  doubleStrike?: boolean;
  hidden?: boolean;
  underline?: UnderlineStyle | null;
  underlineColor?: string | null;
  color?: string | null;
  highlight?: string | null;
  shading?: string | null;
  verticalAlign?: RunProperties['verticalAlign'];
  characterSpacing?: number;
  position?: number;
}

/** One w:rFonts slot: a face by name, or a theme reference, which wins at the same level (§17.3.2.26). */
export interface FontChoice {
  name?: string;
  theme?: string;
}

/**
 * Toggle properties (§17.7.3): in styles they flip the value inherited from other style types
 * rather than set it; in direct formatting they are absolute.
 */
export const TOGGLE_PROPERTIES = [
  'bold',
  'italic',
  'boldComplex',
  'italicComplex',
  'caps',
  'smallCaps',
  'strike',
  'doubleStrike',
  'hidden',
] as const;
export type ToggleProperty = (typeof TOGGLE_PROPERTIES)[number];

const TOGGLE_ELEMENTS: Record<string, ToggleProperty> = {
  'w:b': 'bold',
  'w:i': 'italic',
  'w:bCs': 'boldComplex',
  'w:iCs': 'italicComplex',
  'w:caps': 'caps',
  'w:smallCaps': 'smallCaps',
  'w:strike': 'strike',
  'w:dstrike': 'doubleStrike',
  'w:vanish': 'hidden',
};

/** ST_Underline (§17.18.99) onto the model's styles; heavy and long variants draw like their base. */
const UNDERLINES: Record<string, UnderlineStyle | null> = {
  single: 'single',
  words: 'words',
  double: 'double',
  thick: 'thick',
  dotted: 'dotted',
  dottedHeavy: 'dotted',
  dash: 'dash',
  dashedHeavy: 'dash',
  dashLong: 'dash',
  dashLongHeavy: 'dash',
  dotDash: 'dotDash',
  dashDotHeavy: 'dotDash',
  dotDotDash: 'dotDotDash',
  dashDotDotHeavy: 'dotDotDash',
  wave: 'wave',
  wavyHeavy: 'wave',
  wavyDouble: 'wave',
  none: null,
};

/** ST_HighlightColor (§17.18.40): the named highlighter colours. */
const HIGHLIGHTS: Record<string, string | null> = {
  black: '000000',
  blue: '0000FF',
  cyan: '00FFFF',
  green: '00FF00',
  magenta: 'FF00FF',
  red: 'FF0000',
  yellow: 'FFFF00',
  white: 'FFFFFF',
  darkBlue: '000080',
  darkCyan: '008080',
  darkGreen: '008000',
  darkMagenta: '800080',
  darkRed: '800000',
  darkYellow: '808000',
  darkGray: '808080',
  lightGray: 'C0C0C0',
  none: null,
};

const VERTICAL_ALIGN: Record<string, RunProperties['verticalAlign']> = {
  baseline: 'baseline',
  superscript: 'superscript',
  subscript: 'subscript',
};

/** Reads one w:rPr. Unknown children (w:kern, w:lang/@w:val…) are ignored. */
export function readRunDelta(rPr: XmlElement | undefined, colors: ThemeColors): RunDelta {
  const delta: RunDelta = {};
  if (rPr === undefined) return delta;
  // Word 2010+ wraps some properties in mc:AlternateContent (w14 fonts, w16se emoji faces).
  // Indexed, not for…of (its iterator showed among the reader's allocations).
  const properties = effectiveChildren(rPr);
  for (let i = 0; i < properties.length; i++) {
    const property = properties[i] as XmlElement;
    const name = property.name;
    const attributes = property.attributes;
    const toggle = TOGGLE_ELEMENTS[name];
    if (toggle !== undefined) {
      delta[toggle] = onOff(attributes['w:val']);
      continue;
    }
    switch (name) {
      case 'w:rStyle':
        if (attributes['w:val']) delta.styleId = attributes['w:val'];
        break;
      case 'w:rFonts':
        readFonts(attributes, delta);
        break;
      // Sizes within Word's 1 to 3,276 half-points (units.ts FONT_SIZE); 0 or less is no size.
      case 'w:sz': {
        const size = halfPoints(attributes['w:val']);
        if (size !== undefined && size > 0) delta.size = clamp(size, FONT_SIZE) as number;
        break;
      }
      case 'w:szCs': {
        const size = halfPoints(attributes['w:val']);
        if (size !== undefined && size > 0) delta.sizeComplex = clamp(size, FONT_SIZE) as number;
        break;
      }
      case 'w:rtl':
        delta.rtl = onOff(attributes['w:val']);
        break;
      case 'w:cs':
        delta.complexScript = onOff(attributes['w:val']);
        break;
      case 'w:color': {
        const color = colorValue(attributes, colors, 'w:val', 'w:themeColor');
        if (color !== undefined) delta.color = color;
        break;
      }
      case 'w:u': {
        // w:val is required (§17.3.2.40); writers that omit it mean only the colour, and Word and
        // LibreOffice draw no underline then, so an absent value sets no style.
        const value = attributes['w:val'];
        const style = value === undefined ? undefined : UNDERLINES[value];
        if (style !== undefined) delta.underline = style;
        const color = colorValue(attributes, colors, 'w:color', 'w:themeColor');
        if (color !== undefined) delta.underlineColor = color;
        break;
      }
      case 'w:highlight': {
        const highlight = HIGHLIGHTS[attributes['w:val'] ?? ''];
        if (highlight !== undefined) delta.highlight = highlight;
        break;
      }
      case 'w:shd': {
        const shading = readShading(property, colors);
        if (shading !== undefined) delta.shading = shading;
        break;
      }
      case 'w:vertAlign': {
        const align = VERTICAL_ALIGN[attributes['w:val'] ?? ''];
        if (align) delta.verticalAlign = align;
        break;
      }
      case 'w:spacing': {
        // Word expands or condenses by at most 1,584 pt (§17.3.2.35).
        const spacing = clamp(twips(attributes['w:val']), OFFSET);
        if (spacing !== undefined) delta.characterSpacing = spacing;
        break;
      }
      case 'w:position': {
        // Raised or lowered by at most 1,584 pt (§17.3.2.24).
        const position = clamp(halfPoints(attributes['w:val']), OFFSET);
        if (position !== undefined) delta.position = position;
        break;
      }
      case 'w:lang':
        if (attributes['w:eastAsia']) delta.eastAsiaLanguage = attributes['w:eastAsia'];
        break;
    }
  }
  return delta;
}

function readFonts(attributes: Readonly<Record<string, string>>, delta: RunDelta): void {
  const slot = (nameAttribute: string, themeAttribute: string): FontChoice | undefined => {
    const theme = attributes[themeAttribute];
    if (theme) return { theme };
    const name = attributes[nameAttribute];
    return name ? { name } : undefined;
  };
  const ascii = slot('w:ascii', 'w:asciiTheme');
  const hAnsi = slot('w:hAnsi', 'w:hAnsiTheme');
  const eastAsia = slot('w:eastAsia', 'w:eastAsiaTheme');
  const complex = slot('w:cs', 'w:cstheme');
  if (ascii) delta.ascii = ascii;
  if (hAnsi) delta.hAnsi = hAnsi;
  if (eastAsia) delta.eastAsia = eastAsia;
  if (complex) delta.complex = complex;
  const hint = attributes['w:hint'];
  if (hint) delta.hint = hint;
}

/**
 * A colour attribute: the RGB value when given, else the theme colour (§17.3.2.6), else null for
 * "auto" (the model's undefined). Undefined when the attribute says nothing usable.
 */
function colorValue(
  attributes: Readonly<Record<string, string>>,
  colors: ThemeColors,
  valueAttribute: string,
  themeAttribute: string,
): string | null | undefined {
  const value = attributes[valueAttribute];
  const rgb = hexColor(value);
  if (rgb) return rgb;
  const theme = attributes[themeAttribute];
  if (theme) {
    const resolved = themeColor(colors, theme, attributes['w:themeTint'], attributes['w:themeShade']);
    if (resolved) return resolved;
  }
  return value === 'auto' ? null : undefined;
}

/**
 * The colour a w:shd paints (§17.3.5 / ST_Shd §17.18.78): the fill, with the pattern colour laid
 * over it at the pattern's density ("pct25" = 25 %, "solid" = 100 %). Null for "nil" and for an
 * automatic fill with a clear pattern (no shading).
 */
export function readShading(shd: XmlElement, colors: ThemeColors): string | null | undefined {
  const attributes = shd.attributes;
  const pattern = attributes['w:val'] ?? 'clear';
  if (pattern === 'nil') return null;
  const fill =
    hexColor(attributes['w:fill']) ??
    (attributes['w:themeFill']
      ? themeColor(colors, attributes['w:themeFill'], attributes['w:themeFillTint'], attributes['w:themeFillShade'])
      : undefined);
  const density = patternDensity(pattern);
  if (density === 0) return fill ?? null;
  const foreground = hexColor(attributes['w:color']) ?? '000000';
  if (density === 1) return foreground;
  return blend(fill ?? 'FFFFFF', foreground, density);
}

function patternDensity(pattern: string): number {
  if (pattern === 'clear') return 0;
  if (pattern === 'solid') return 1;
  const match = /^pct(\d+)$/.exec(pattern);
  if (match) return Number(match[1]) / 100;
  // Stripes and crosses cover roughly a quarter to a half of the area; too fine to draw.
  return 0;
}

function blend(background: string, foreground: string, amount: number): string {
  let out = '';
  for (let i = 0; i < 6; i += 2) {
    const b = Number.parseInt(background.slice(i, i + 2), 16);
    const f = Number.parseInt(foreground.slice(i, i + 2), 16);
    out += Math.round(b + (f - b) * amount)
      .toString(16)
      .padStart(2, '0');
  }
  return out.toUpperCase();
}

/** Word's built-in defaults when no docDefaults say otherwise (§17.7.5.2: Times New Roman, 10 pt). */
const FALLBACK_FONT = 'Times New Roman';
const FALLBACK_SIZE = 10;

/**
 * The model's run properties from a fully merged delta (every level already applied, toggles
 * already combined): theme fonts resolved, "null = off" turned into undefined.
 */
export function toRunProperties(delta: RunDelta, fonts: ThemeFonts): RunProperties {
  const latin = pickFont(delta.ascii, fonts) ?? pickFont(delta.hAnsi, fonts) ?? FALLBACK_FONT;
  // Every field, in RUN_KEYS' order (property-interner.ts), the optional ones undefined when
  // unset: run properties of one shape, which layout reads for every word and fragment. Added
  // only where they applied, they came in many shapes, and every site reading them was slower.
  const properties: RunProperties = {
    font: latin,
    size: delta.size ?? FALLBACK_SIZE,
    bold: delta.bold ?? false,
    italic: delta.italic ?? false,
    strike: delta.strike ?? false,
    doubleStrike: delta.doubleStrike ?? false,
    caps: delta.caps ?? false,
    smallCaps: delta.smallCaps ?? false,
    verticalAlign: delta.verticalAlign ?? 'baseline',
    characterSpacing: delta.characterSpacing ?? 0,
    position: delta.position ?? 0,
    hidden: delta.hidden ?? false,
    fontEastAsia: pickFont(delta.eastAsia, fonts, scriptOf(delta.eastAsiaLanguage)),
    fontComplex: pickFont(delta.complex, fonts),
    sizeComplex: delta.sizeComplex,
    boldComplex: delta.boldComplex ? true : undefined,
    italicComplex: delta.italicComplex ? true : undefined,
    rtl: delta.rtl ? true : undefined,
    complexScript: delta.complexScript ? true : undefined,
    fontHintEastAsia: delta.hint === 'eastAsia' ? true : undefined,
    languageEastAsia: delta.eastAsiaLanguage,
    underline: delta.underline || undefined,
    underlineColor: (delta.underline && delta.underlineColor) || undefined,
    color: delta.color || undefined,
    highlight: delta.highlight || undefined,
    shading: delta.shading || undefined,
  };
  return properties;
}

/**
 * The w:hAnsi face of a merged delta (§17.3.2.26), theme fonts resolved: the face Word sets
 * characters above U+007F in (outside the East Asian and complex-script ranges), which the model's
 * single Latin `font` (w:ascii first) does not keep. The reader asks for it when such characters
 * may be symbol-font codes (engine/text/symbol-fonts.ts).
 */
export function hAnsiFont(delta: RunDelta, fonts: ThemeFonts): string | undefined {
  return pickFont(delta.hAnsi, fonts);
}

function pickFont(choice: FontChoice | undefined, fonts: ThemeFonts, script?: string): string | undefined {
  if (choice === undefined) return undefined;
  if (choice.theme !== undefined) return themeFont(fonts, choice.theme, script) ?? choice.name;
  return choice.name;
}

/** The theme's script tag (a:font/@script) for an East Asian language tag. */
function scriptOf(language: string | undefined): string | undefined {
  if (language === undefined) return undefined;
  const primary = language.slice(0, 2).toLowerCase();
  if (primary === 'ja') return 'Jpan';
  if (primary === 'ko') return 'Hang';
  if (primary === 'zh') return /-(TW|HK|MO)$/i.test(language) ? 'Hant' : 'Hans';
  return undefined;
}

/** The direct-formatting reading of an rPr's tracked change: the properties before the change. */
export function previousRunProperties(rPr: XmlElement | undefined): XmlElement | undefined {
  return child(child(rPr, 'w:rPrChange'), 'w:rPr');
}
