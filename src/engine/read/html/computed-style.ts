/**
 * The cascaded value of each property on one element (CSS Cascade 4 §6): style sheet rules by
 * specificity then order, the style attribute over them, and !important declarations over all of
 * those (sheet, then attribute). Shorthands are expanded into the longhands the reader uses, in
 * cascade order, so a later longhand overrides an earlier shorthand and the reverse.
 * Inheritance is the block and inline builders' business: they carry inherited values down.
 */
import { type CssDeclaration, type CssRule, readStyleAttribute } from './css-rules';

/** Read-only: equal cascades share one map within a document (style-resolver.ts). */
export type DeclaredStyle = ReadonlyMap<string, string>;

const SIDES = ['top', 'right', 'bottom', 'left'] as const;
const BORDER_STYLES = new Set([
  'none',
  'hidden',
  'solid',
  'dashed',
  'dotted',
  'double',
  'groove',
  'ridge',
  'inset',
  'outset',
]);

/** The cascade of the rules an element matched (in any order) and its style attribute. */
export function declaredStyle(matched: readonly CssRule[], styleAttribute: string | undefined): DeclaredStyle {
  const sorted = [...matched].sort((a, b) => a.specificity - b.specificity || a.order - b.order);
  const inline = styleAttribute ? readStyleAttribute(styleAttribute) : [];
  const style = new Map<string, string>();
  for (const important of [false, true]) {
    for (const rule of sorted) for (const d of rule.declarations) if (d.important === important) apply(style, d);
    for (const d of inline) if (d.important === important) apply(style, d);
  }
  return style;
}

/** Splits a value on white space outside parentheses (rgb(1, 2, 3) stays one token). */
function tokens(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && /\s/.test(ch)) {
      if (current !== '') out.push(current);
      current = '';
    } else current += ch;
  }
  if (current !== '') out.push(current);
  return out;
}

/** CSS box shorthands (margin, padding, border-width…): 1–4 values to top, right, bottom, left. */
function boxValues(value: string): [string, string, string, string] | undefined {
  const t = tokens(value);
  if (t.length === 0 || t.length > 4) return undefined;
  const top = t[0] as string;
  const right = t[1] ?? top;
  const bottom = t[2] ?? top;
  const left = t[3] ?? right;
  return [top, right, bottom, left];
}

function borderParts(value: string): { width?: string; style?: string; color?: string } {
  const out: { width?: string; style?: string; color?: string } = {};
  for (const token of tokens(value)) {
    const t = token.toLowerCase();
    if (BORDER_STYLES.has(t)) out.style = t;
    else if (/^(thin|medium|thick)$/.test(t) || /^[\d.]/.test(t)) out.width = t;
    else out.color = token;
  }
  return out;
}

function apply(style: Map<string, string>, d: CssDeclaration): void {
  const { property, value } = d;
  switch (property) {
    case 'margin':
    case 'padding': {
      const box = boxValues(value);
      if (box)
        SIDES.forEach((side, i) => {
          style.set(`${property}-${side}`, box[i] as string);
        });
      return;
    }
    case 'border':
    case 'border-top':
    case 'border-right':
    case 'border-bottom':
    case 'border-left': {
      const parts = borderParts(value);
      const sides = property === 'border' ? SIDES : [property.slice(7)];
      for (const side of sides) {
        // A border shorthand resets what it leaves out to the initial values (CSS Backgrounds 3 §4.4).
        style.set(`border-${side}-style`, parts.style ?? 'none');
        style.set(`border-${side}-width`, parts.width ?? 'medium');
        style.set(`border-${side}-color`, parts.color ?? 'currentcolor');
      }
      return;
    }
    case 'border-width':
    case 'border-style':
    case 'border-color': {
      const box = boxValues(value);
      const what = property.slice(7);
      if (box)
        SIDES.forEach((side, i) => {
          style.set(`border-${side}-${what}`, box[i] as string);
        });
      return;
    }
    case 'background': {
      // Only the colour of the background shorthand matters on paper here.
      const color = tokens(value).find(
        (t) =>
          /^(#|rgb|[a-z]+$)/i.test(t) &&
          !/^(none|repeat|no-repeat|scroll|fixed|center|top|left|right|bottom)$/i.test(t),
      );
      style.set('background-color', color ?? 'transparent');
      return;
    }
    case 'text-decoration':
    case 'text-decoration-line':
      style.set('text-decoration-line', value);
      return;
    case 'page-break-before':
    case 'page-break-after':
    case 'page-break-inside':
      // Legacy aliases of break-before/after/inside (CSS Fragmentation 3 §3.4): always is page.
      style.set(property.slice(5), value.trim().toLowerCase() === 'always' ? 'page' : value);
      return;
    case 'font': {
      // font: [style] [weight] size[/line-height] family (CSS Fonts 3 §3.7).
      const m =
        /^(.*?)([\d.]+(?:px|pt|em|rem|%)|xx-small|x-small|small|medium|large|x-large|xx-large)(?:\/(\S+))?\s+(.+)$/i.exec(
          value.trim(),
        );
      if (!m) return;
      const prefix = (m[1] ?? '').toLowerCase();
      style.set('font-style', /\b(italic|oblique)\b/.test(prefix) ? 'italic' : 'normal');
      style.set('font-weight', /\b(bold|bolder|[6-9]00)\b/.test(prefix) ? 'bold' : 'normal');
      style.set('font-size', m[2] as string);
      if (m[3]) style.set('line-height', m[3]);
      style.set('font-family', m[4] as string);
      return;
    }
    default:
      style.set(property, value);
  }
}
