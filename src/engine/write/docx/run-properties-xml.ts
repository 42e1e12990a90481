/**
 * A run's w:rPr (ECMA-376 Part 1 §17.3.2.28): its character style, then only the direct
 * formatting that makes the model's resolved properties out of what the styles alone give.
 * Children follow CT_RPr's sequence (EG_RPrBase), which Word's validator enforces.
 */
import type { RunProperties } from '../../model';
import { shadingXml } from './border-xml';
import { toHalfPoints, toTwips } from './measures';
import { escapeAttribute } from './xml-escape';

/** ST_HighlightColor (§17.18.40) by the RGB value the reader gives it. */
const HIGHLIGHT_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['000000', 'black'],
  ['0000FF', 'blue'],
  ['00FFFF', 'cyan'],
  ['00FF00', 'green'],
  ['FF00FF', 'magenta'],
  ['FF0000', 'red'],
  ['FFFF00', 'yellow'],
  ['FFFFFF', 'white'],
  ['000080', 'darkBlue'],
  ['008080', 'darkCyan'],
  ['008000', 'darkGreen'],
  ['800080', 'darkMagenta'],
  ['800000', 'darkRed'],
  ['808000', 'darkYellow'],
  ['808080', 'darkGray'],
  ['C0C0C0', 'lightGray'],
];

/**
 * The highlighter colour named for an RGB value: highlight takes only the 16 named colours, so
 * another value (an HTML background, say) takes the nearest of them.
 */
export function highlightName(rgb: string): string {
  const target = rgbOf(rgb);
  let best = 'yellow';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [value, name] of HIGHLIGHT_NAMES) {
    const candidate = rgbOf(value);
    const distance = candidate.reduce((sum, channel, i) => sum + (channel - (target[i] as number)) ** 2, 0);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = name;
    }
  }
  return best;
}

function rgbOf(hex: string): number[] {
  return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) || 0);
}

/** An on/off element where it differs from the base: absolute in direct formatting (§17.7.3). */
function toggle(name: string, value: boolean | undefined, base: boolean | undefined): string {
  const on = value ?? false;
  if (on === (base ?? false)) return '';
  return on ? `<w:${name}/>` : `<w:${name} w:val="0"/>`;
}

/**
 * The children of w:rPr (without the element itself) that turn `base` (what the styles resolve
 * to) into `props`; `styleId` is written as w:rStyle first.
 */
export function runPropertiesChildren(props: RunProperties, base: RunProperties, styleId?: string): string {
  let xml = '';
  if (styleId !== undefined) xml += `<w:rStyle w:val="${escapeAttribute(styleId)}"/>`;
  xml += fontsXml(props, base);
  xml += toggle('b', props.bold, base.bold);
  xml += toggle('bCs', props.boldComplex, base.boldComplex);
  xml += toggle('i', props.italic, base.italic);
  xml += toggle('iCs', props.italicComplex, base.italicComplex);
  xml += toggle('caps', props.caps, base.caps);
  xml += toggle('smallCaps', props.smallCaps, base.smallCaps);
  xml += toggle('strike', props.strike, base.strike);
  xml += toggle('dstrike', props.doubleStrike, base.doubleStrike);
  xml += toggle('vanish', props.hidden, base.hidden);
  if (props.color !== base.color) xml += `<w:color w:val="${escapeAttribute(props.color ?? 'auto')}"/>`;
  if (props.characterSpacing !== base.characterSpacing) {
    xml += `<w:spacing w:val="${toTwips(props.characterSpacing)}"/>`;
  }
  if (props.position !== base.position) xml += `<w:position w:val="${toHalfPoints(props.position)}"/>`;
  if (props.size !== base.size) xml += `<w:sz w:val="${Math.max(1, toHalfPoints(props.size))}"/>`;
  if (props.sizeComplex !== base.sizeComplex) {
    // An unset complex size means "the same as size" in the model; say so explicitly.
    xml += `<w:szCs w:val="${Math.max(1, toHalfPoints(props.sizeComplex ?? props.size))}"/>`;
  }
  if (props.highlight !== base.highlight) {
    xml += `<w:highlight w:val="${props.highlight === undefined ? 'none' : highlightName(props.highlight)}"/>`;
  }
  if (props.underline !== base.underline || (props.underline && props.underlineColor !== base.underlineColor)) {
    const color = props.underline && props.underlineColor ? ` w:color="${escapeAttribute(props.underlineColor)}"` : '';
    xml += `<w:u w:val="${props.underline ?? 'none'}"${color}/>`;
  }
  if (props.shading !== base.shading) xml += shadingXml(props.shading);
  if (props.verticalAlign !== base.verticalAlign) xml += `<w:vertAlign w:val="${props.verticalAlign}"/>`;
  xml += toggle('rtl', props.rtl, base.rtl);
  xml += toggle('cs', props.complexScript, base.complexScript);
  // w:lang comes after w:cs in CT_RPr's sequence (§17.3.2.20; an HTML lang attribute).
  if (props.languageEastAsia !== undefined && props.languageEastAsia !== base.languageEastAsia) {
    xml += `<w:lang w:eastAsia="${escapeAttribute(props.languageEastAsia)}"/>`;
  }
  return xml;
}

/** `<w:rPr>…</w:rPr>`, or nothing when the run has neither a style nor direct formatting. */
export function runPropertiesXml(props: RunProperties, base: RunProperties, styleId?: string): string {
  const children = runPropertiesChildren(props, base, styleId);
  return children === '' ? '' : `<w:rPr>${children}</w:rPr>`;
}

/** w:rFonts (§17.3.2.26) with only the slots that differ. */
function fontsXml(props: RunProperties, base: RunProperties): string {
  let attributes = '';
  if (props.fontHintEastAsia !== base.fontHintEastAsia) {
    attributes += ` w:hint="${props.fontHintEastAsia ? 'eastAsia' : 'default'}"`;
  }
  if (props.font !== base.font) {
    const font = escapeAttribute(props.font);
    attributes += ` w:ascii="${font}" w:hAnsi="${font}"`;
  }
  if (props.fontEastAsia !== undefined && props.fontEastAsia !== base.fontEastAsia) {
    attributes += ` w:eastAsia="${escapeAttribute(props.fontEastAsia)}"`;
  }
  if (props.fontComplex !== undefined && props.fontComplex !== base.fontComplex) {
    attributes += ` w:cs="${escapeAttribute(props.fontComplex)}"`;
  }
  return attributes === '' ? '' : `<w:rFonts${attributes}/>`;
}
