/**
 * The page a document prints on: the caller's paper and margins where given, else the document's
 * plain @page `size` and `margin` (CSS Paged Media 3 §7.1–7.2), else the defaults. The caller's
 * `landscape` turns whichever paper won to landscape.
 */
import type { CssDeclaration } from './css-rules';
import { parseLength } from './css-values';
import type { MediaEnvironment } from './media-queries';

/** A paper size in points (1/72 in), portrait or as given. */
export interface PaperSize {
  width: number;
  height: number;
}

/** Page margins in points. */
export interface PaperMargins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface PageGeometry {
  page: PaperSize;
  margins: PaperMargins;
}

/**
 * CSS Paged Media 3 §7.2.1 <page-size> keywords, in points (portrait): the papers @page names,
 * and the ones the API's pageSize takes by name. One table for both.
 */
const MM = 72 / 25.4;
export const PAPER_SIZES = {
  a5: { width: 148 * MM, height: 210 * MM },
  a4: { width: 210 * MM, height: 297 * MM },
  a3: { width: 297 * MM, height: 420 * MM },
  b5: { width: 176 * MM, height: 250 * MM },
  b4: { width: 250 * MM, height: 353 * MM },
  'jis-b5': { width: 182 * MM, height: 257 * MM },
  'jis-b4': { width: 257 * MM, height: 364 * MM },
  letter: { width: 612, height: 792 },
  legal: { width: 612, height: 1008 },
  ledger: { width: 792, height: 1224 },
} as const satisfies Record<string, PaperSize>;
const PAGE_SIZE_KEYWORDS: Readonly<Record<string, PaperSize>> = PAPER_SIZES;

/** The page context's font size for em in @page (CSS Paged Media 3 §7.1: the initial 16px). */
const PAGE_FONT_SIZE = 12;
/** Paper smaller than an inch or larger than Word's 22 in is not taken from CSS. */
const MIN_PAGE = 72;
const MAX_PAGE = 1584;

/** What @page says of the paper: a size, an orientation, both or neither. */
interface CssPageSize {
  size?: PaperSize;
  orientation?: 'portrait' | 'landscape';
}

/** `size: auto | <length>{1,2} | [<page-size> || portrait | landscape]` (§7.2). */
export function parsePageSize(value: string): CssPageSize | undefined {
  const tokens = value
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== '');
  if (tokens.length === 0 || tokens.length > 2) return undefined;
  if (tokens.length === 1 && tokens[0] === 'auto') return {};
  const lengths = tokens.map((t) => parseLength(t, { fontSize: PAGE_FONT_SIZE }));
  if (lengths.every((l) => l !== undefined)) {
    const width = lengths[0] as number;
    const height = (lengths[1] ?? width) as number;
    if (width < MIN_PAGE || height < MIN_PAGE || width > MAX_PAGE || height > MAX_PAGE) return undefined;
    return { size: { width, height } };
  }
  const out: CssPageSize = {};
  for (const token of tokens) {
    if (token === 'portrait' || token === 'landscape') {
      if (out.orientation) return undefined;
      out.orientation = token;
    } else if (PAGE_SIZE_KEYWORDS[token] && !out.size) out.size = PAGE_SIZE_KEYWORDS[token];
    else return undefined;
  }
  return out;
}

/** Portrait or landscape: the paper's sides swapped as needed. */
function oriented(size: PaperSize, orientation: 'portrait' | 'landscape' | undefined): PaperSize {
  if (orientation === undefined) return size;
  const long = Math.max(size.width, size.height);
  const short = Math.min(size.width, size.height);
  return orientation === 'landscape' ? { width: long, height: short } : { width: short, height: long };
}

export interface GeometryChoice {
  pageSize?: PaperSize;
  landscape?: boolean;
  margins?: PaperMargins;
  /** Margins when neither the caller nor @page gives them. */
  fallbackMargins: PaperMargins;
  /** Paper when neither the caller nor @page gives one. */
  fallbackSize: PaperSize;
}

/**
 * The page: caller ?? @page ?? default for the paper and, side by side, for the margins. When the
 * caller gives the paper, @page's size is ignored whole (its orientation too); the caller's
 * `landscape` turns the winner to landscape either way.
 */
export function pageGeometry(choice: GeometryChoice, declarations: readonly CssDeclaration[]): PageGeometry {
  let css: CssPageSize = {};
  const margins: Partial<PaperMargins> = {};
  for (const d of declarations) {
    if (d.property === 'size') css = parsePageSize(d.value) ?? css;
  }
  const paper = choice.pageSize ?? oriented(css.size ?? choice.fallbackSize, css.orientation);
  const page = choice.landscape ? oriented(paper, 'landscape') : paper;
  // Percentages: of the page's width for left and right, its height for top and bottom (§7.1).
  const side = (name: keyof PaperMargins, value: string) => {
    if (value.trim().toLowerCase() === 'auto') {
      delete margins[name];
      return;
    }
    const across = name === 'left' || name === 'right' ? page.width : page.height;
    const points = parseLength(value, { fontSize: PAGE_FONT_SIZE, rootFontSize: PAGE_FONT_SIZE }, across);
    if (points !== undefined && points >= 0 && points < across / 2) margins[name] = points;
  };
  for (const d of declarations) {
    if (d.property === 'margin') {
      const t = d.value.trim().split(/\s+/);
      if (t.length === 0 || t.length > 4) continue;
      const [top, right = top, bottom = top, left = right] = t as [string, string?, string?, string?];
      side('top', top);
      side('right', right);
      side('bottom', bottom);
      side('left', left);
    } else if (/^margin-(top|right|bottom|left)$/.test(d.property)) {
      side(d.property.slice(7) as keyof PaperMargins, d.value);
    }
  }
  const resolved: PaperMargins = choice.margins ?? {
    top: margins.top ?? choice.fallbackMargins.top,
    right: margins.right ?? choice.fallbackMargins.right,
    bottom: margins.bottom ?? choice.fallbackMargins.bottom,
    left: margins.left ?? choice.fallbackMargins.left,
  };
  return { page, margins: resolved };
}

/** The page as media queries see it (media-queries.ts): CSS px, 96 per inch (4/3 per point). */
export function mediaEnvironment(geometry: PageGeometry): MediaEnvironment {
  const px = 4 / 3;
  const { page, margins } = geometry;
  return {
    width: Math.max(0, page.width - margins.left - margins.right) * px,
    height: Math.max(0, page.height - margins.top - margins.bottom) * px,
    pageWidth: page.width * px,
    pageHeight: page.height * px,
  };
}
