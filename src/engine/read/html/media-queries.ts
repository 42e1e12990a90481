/**
 * Media queries (Media Queries 4 §2–4) evaluated as a printed page answers them: the media type
 * is print (so `print`, `all` and no type match; `screen`, `speech`… do not), and the features
 * describe the page: its content box for width and height, in CSS px (96 per inch, CSS Values 3
 * §5.2), a colour device (§6.1 color), with no hover or pointer (§7), light colour scheme (Media
 * Queries 5 §11.5). A feature this reader does not know, or a malformed query, does not match
 * (§3.2: a malformed query in a list is `not all`, the others still count).
 */
import type { CssNode } from 'css-tree';
import parse from 'css-tree/parser';

/** The printed page a query is asked about. */
export interface MediaEnvironment {
  /** The page's content box (page minus margins), CSS px. */
  width: number;
  height: number;
  /** The whole page, CSS px (device-width, device-height). */
  pageWidth: number;
  pageHeight: number;
}

/** Three-valued, as §3.2 evaluates conditions: undefined is "unknown" (false at the top). */
type Truth = boolean | undefined;

/** Initial font size of a printed page (CSS Fonts 4 §2.5 medium): what em and rem mean in a query (§1.3). */
const EM_PX = 16;
const LENGTH_PX: Record<string, number> = {
  px: 1,
  em: EM_PX,
  rem: EM_PX,
  ex: EM_PX / 2,
  ch: EM_PX / 2,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  q: 96 / 101.6,
  pt: 96 / 72,
  pc: 16,
};

/** Discrete features and the one value a printed page has for each (Media Queries 4 §6–7, 5 §11). */
const DISCRETE: Record<string, string> = {
  hover: 'none',
  'any-hover': 'none',
  pointer: 'none',
  'any-pointer': 'none',
  update: 'none',
  'overflow-block': 'paged',
  'overflow-inline': 'none',
  scan: 'progressive',
  'prefers-color-scheme': 'light',
  'prefers-reduced-motion': 'no-preference',
  'prefers-reduced-transparency': 'no-preference',
  'prefers-reduced-data': 'no-preference',
  'prefers-contrast': 'no-preference',
  'forced-colors': 'none',
  'inverted-colors': 'none',
  'color-gamut': 'srgb',
  'dynamic-range': 'standard',
  'video-dynamic-range': 'standard',
  scripting: 'enabled',
  'display-mode': 'browser',
};
/** Values a discrete feature is false for in a boolean context (§2.4.4: none, and no-preference). */
const FALSE_IN_BOOLEAN_CONTEXT = new Set(['none', 'no-preference']);

/** Whether a media query list (a @media prelude, a media attribute) matches; empty matches (§2.1). */
export function mediaMatches(list: string, environment: MediaEnvironment): boolean {
  const text = list.trim();
  if (text === '') return true;
  let queries: CssNode[];
  try {
    queries = queriesOf(parse(text, { context: 'mediaQueryList' }));
  } catch {
    // One malformed query spoils only itself (§3.2): each comma-separated part on its own.
    queries = [];
    for (const part of splitTopLevel(text)) {
      try {
        queries.push(...queriesOf(parse(part, { context: 'mediaQueryList' })));
      } catch {
        // not all
      }
    }
  }
  return queries.some((query) => queryMatches(query, environment));
}

function queriesOf(node: CssNode): CssNode[] {
  const out: CssNode[] = [];
  if (node.type === 'MediaQueryList') node.children.forEach((child) => void out.push(child));
  return out;
}

/** Splits on commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

function queryMatches(query: CssNode, environment: MediaEnvironment): boolean {
  if (query.type !== 'MediaQuery') return false;
  const type = query.mediaType?.toLowerCase();
  // `only` hides a query from old user agents and means nothing else (§2.2).
  let result: Truth = type === undefined || type === 'all' || type === 'print';
  if (result && query.condition) result = conditionTruth(query.condition, environment);
  if (query.modifier?.toLowerCase() === 'not') result = result === undefined ? undefined : !result;
  return result === true;
}

/** A <media-condition>: `not X`, `X and Y and …`, `X or Y or …` of features and nested conditions. */
function conditionTruth(node: CssNode, environment: MediaEnvironment): Truth {
  switch (node.type) {
    case 'Condition': {
      const items: CssNode[] = [];
      node.children.forEach((child) => void items.push(child));
      const first = items[0];
      if (first?.type === 'Identifier' && first.name.toLowerCase() === 'not') {
        const inner = items[1] ? conditionTruth(items[1], environment) : undefined;
        return inner === undefined ? undefined : !inner;
      }
      let result: Truth = items.length > 0 ? conditionTruth(items[0] as CssNode, environment) : undefined;
      for (let i = 1; i + 1 < items.length; i += 2) {
        const operator = items[i];
        const operand = conditionTruth(items[i + 1] as CssNode, environment);
        const or = operator?.type === 'Identifier' && operator.name.toLowerCase() === 'or';
        result = or ? kleeneOr(result, operand) : kleeneAnd(result, operand);
      }
      return result;
    }
    case 'Feature':
      return featureTruth(node.name.toLowerCase(), node.value ?? undefined, environment);
    case 'FeatureRange':
      return rangeTruth(node, environment);
    default:
      // <general-enclosed>: unknown (§3.1).
      return undefined;
  }
}

function kleeneAnd(a: Truth, b: Truth): Truth {
  if (a === false || b === false) return false;
  return a === undefined || b === undefined ? undefined : true;
}

function kleeneOr(a: Truth, b: Truth): Truth {
  if (a === true || b === true) return true;
  return a === undefined || b === undefined ? undefined : false;
}

/** The page's value of a range feature (a number: px for lengths), undefined when unknown. */
function rangeValue(name: string, environment: MediaEnvironment): number | undefined {
  switch (name) {
    case 'width':
      return environment.width;
    case 'height':
      return environment.height;
    case 'device-width':
      return environment.pageWidth;
    case 'device-height':
      return environment.pageHeight;
    case 'aspect-ratio':
      return environment.width / Math.max(1e-6, environment.height);
    case 'device-aspect-ratio':
      return environment.pageWidth / Math.max(1e-6, environment.pageHeight);
    case 'color':
      // Bits per colour component (§6.1): an sRGB page.
      return 8;
    case 'color-index':
    case 'monochrome':
    case 'grid':
      return 0;
    case 'resolution':
      // dppx: a CSS px per device px, as Chromium lays out a printed page.
      return 1;
    default:
      return undefined;
  }
}

/** A query's value as the feature's number: lengths in px, ratios as a quotient, resolutions in dppx. */
function queryValue(node: CssNode | undefined, feature: string): number | undefined {
  if (!node) return undefined;
  if (node.type === 'Number') return Number.parseFloat(node.value);
  if (node.type === 'Ratio') {
    const left = queryValue(node.left, feature);
    const right = node.right ? queryValue(node.right, feature) : 1;
    return left === undefined || right === undefined || right === 0 ? undefined : left / right;
  }
  if (node.type === 'Dimension') {
    const n = Number.parseFloat(node.value);
    const unit = node.unit.toLowerCase();
    if (feature === 'resolution') {
      if (unit === 'dppx' || unit === 'x') return n;
      if (unit === 'dpi') return n / 96;
      if (unit === 'dpcm') return (n * 2.54) / 96;
      return undefined;
    }
    const factor = LENGTH_PX[unit];
    return factor === undefined ? undefined : n * factor;
  }
  return undefined;
}

function featureTruth(name: string, value: CssNode | undefined, environment: MediaEnvironment): Truth {
  if (name === 'orientation') {
    const actual = environment.height >= environment.width ? 'portrait' : 'landscape';
    if (!value) return true;
    return value.type === 'Identifier' ? value.name.toLowerCase() === actual : undefined;
  }
  const discrete = DISCRETE[name];
  if (discrete !== undefined) {
    if (!value) return !FALSE_IN_BOOLEAN_CONTEXT.has(discrete);
    return value.type === 'Identifier' ? value.name.toLowerCase() === discrete : undefined;
  }
  const prefix = /^(min|max)-/.exec(name)?.[1];
  const base = prefix ? name.slice(4) : name;
  const actual = rangeValue(base, environment);
  if (actual === undefined) return undefined;
  if (!value) return prefix ? undefined : actual !== 0;
  const wanted = queryValue(value, base);
  if (wanted === undefined) return undefined;
  if (prefix === 'min') return actual >= wanted - 1e-9;
  if (prefix === 'max') return actual <= wanted + 1e-9;
  return Math.abs(actual - wanted) < 1e-9;
}

/** `(width > 30em)`, `(400px <= width < 700px)` (§2.4.3). */
function rangeTruth(node: CssNode, environment: MediaEnvironment): Truth {
  if (node.type !== 'FeatureRange') return undefined;
  const nameOf = (n: CssNode | null | undefined) => (n?.type === 'Identifier' ? n.name.toLowerCase() : undefined);
  const compare = (a: number, op: string | null, b: number): Truth => {
    switch (op) {
      case '<':
        return a < b;
      case '<=':
        return a <= b + 1e-9;
      case '>':
        return a > b;
      case '>=':
        return a >= b - 1e-9;
      case '=':
        return Math.abs(a - b) < 1e-9;
      default:
        return undefined;
    }
  };
  const leftName = nameOf(node.left);
  if (leftName !== undefined && rangeValue(leftName, environment) !== undefined) {
    // feature op value
    const actual = rangeValue(leftName, environment) as number;
    const wanted = queryValue(node.middle as CssNode, leftName);
    return wanted === undefined ? undefined : compare(actual, node.leftComparison, wanted);
  }
  // value op feature [op value]
  const name = nameOf(node.middle as CssNode);
  const actual = name === undefined ? undefined : rangeValue(name, environment);
  if (name === undefined || actual === undefined) return undefined;
  const low = queryValue(node.left, name);
  if (low === undefined) return undefined;
  let result = compare(low, node.leftComparison, actual);
  if (node.right) {
    const high = queryValue(node.right, name);
    result = kleeneAnd(result, high === undefined ? undefined : compare(actual, node.rightComparison, high));
  }
  return result;
}
