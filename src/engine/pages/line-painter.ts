/**
 * Placed lines → display-list items: text, decorations (underline, strike), highlight and shading,
 * links, anchors, images, tab leaders, tracked-change markup and paragraph borders/shading. The
 * only stage that turns geometry into paint; it decides no positions of its own.
 */
import type { FontFace } from '../fonts';
import { type Fragment, floatingOrigin, type PageItem, type PlacedLine, sharesBorders, type TextItem } from '../layout';
import type { Border, DrawingInline, FieldInline, PageGeometry, RevisionMark, RunProperties } from '../model';
import { fieldSwitchFormat, formatNumber, hasNonWhiteSpace } from '../text';
import type { RenderedDrawing } from './display-list';
import { translateItems } from './translate-items';

/** Drawings laid out in their own frames, each once (drawing-layout.ts DrawingRenderer). */
export interface DrawingSource {
  render(inline: DrawingInline): RenderedDrawing;
}

export interface FieldValues {
  page: number;
  pageFormat: string;
  numPages: number;
  sectionPages: number;
  /** Page number of each bookmark, for PAGEREF. */
  bookmarkPages: Map<string, number>;
  /** The number format of each bookmark's page (its section's w:pgNumType), when not decimal. */
  bookmarkFormats?: Map<string, string>;
}

/** Markup colours of tracked changes, by author in order of appearance (Word's by-author palette). */
const AUTHOR_COLORS = ['C00000', '0070C0', '00A000', '7030A0', 'C55A11', '2E75B6'];

export class RevisionPalette {
  private readonly authors = new Map<string, string>();

  color(revision: RevisionMark): string {
    const key = revision.author ?? '';
    let color = this.authors.get(key);
    if (!color) {
      color = AUTHOR_COLORS[this.authors.size % AUTHOR_COLORS.length] ?? 'C00000';
      this.authors.set(key, color);
    }
    return color;
  }
}

function fieldText(fragment: Fragment, values: FieldValues): string {
  const field = fragment.box.field;
  return field ? fieldResult(field, values) : fragment.text;
}

/** What a field shows on a page with these values; Word's cached result where it is not known. */
export function fieldResult(field: FieldInline, values: FieldValues): string {
  const format = field.format ? fieldSwitchFormat(field.format) : undefined;
  switch (field.field) {
    case 'PAGE':
      return formatNumber(values.page, format ?? values.pageFormat);
    case 'NUMPAGES':
      return formatNumber(values.numPages, format ?? 'decimal');
    case 'SECTIONPAGES':
      return formatNumber(values.sectionPages, format ?? 'decimal');
    case 'PAGEREF': {
      // The page number as its page shows it (a bookmark in front matter numbered i, ii… or
      // أ، ب… reads so in the table of contents), unless the field says otherwise.
      const page = field.argument ? values.bookmarkPages.get(field.argument) : undefined;
      if (page === undefined) return field.cached;
      return formatNumber(page, format ?? values.bookmarkFormats?.get(field.argument ?? '') ?? 'decimal');
    }
  }
}

const LEADER_CHAR: Record<string, string> = { dot: '.', hyphen: '-', underscore: '_', heavy: '_', middleDot: '·' };

/**
 * The most characters one tab leader is drawn with. Tab stops are read within ±22 in (units.ts
 * OFFSET), so a leader of the smallest font's dots is some tens of thousands of them; this bounds
 * one whose glyph an embedded font makes next to nothing wide (a leader that long is drawn
 * shorter, at its stop, rather than as a string of billions: String.repeat's RangeError, a 500).
 */
const MAX_LEADER_CHARACTERS = 100_000;

function decorations(
  out: PageItem[],
  props: RunProperties,
  x: number,
  baseline: number,
  width: number,
  size: number,
  underlinePosition: number,
  thickness: number,
  color: string,
  revision: RevisionMark | undefined,
): void {
  const underline =
    props.underline ?? (revision && (revision.kind === 'insert' || revision.kind === 'moveTo') ? 'single' : undefined);
  if (underline && width > 0) {
    const y = baseline - underlinePosition * size;
    const lineWidth = Math.max(0.5, (underline === 'thick' ? 2 : 1) * thickness * size);
    const lineColor = props.underlineColor ?? color;
    const dash =
      underline === 'dotted'
        ? [lineWidth, lineWidth * 2]
        : underline === 'dash'
          ? [lineWidth * 4, lineWidth * 2]
          : undefined;
    out.push({
      kind: 'line',
      x1: x,
      y1: y,
      x2: x + width,
      y2: y,
      width: lineWidth,
      color: lineColor,
      ...(dash ? { dash } : {}),
    });
    if (underline === 'double') {
      out.push({
        kind: 'line',
        x1: x,
        y1: y + lineWidth * 2,
        x2: x + width,
        y2: y + lineWidth * 2,
        width: lineWidth,
        color: lineColor,
      });
    }
  }
  const strike =
    props.strike || props.doubleStrike || (revision && (revision.kind === 'delete' || revision.kind === 'moveFrom'));
  if (strike && width > 0) {
    const y = baseline - size * 0.3;
    const lineWidth = Math.max(0.5, thickness * size);
    out.push({ kind: 'line', x1: x, y1: y, x2: x + width, y2: y, width: lineWidth, color });
    if (props.doubleStrike)
      out.push({
        kind: 'line',
        x1: x,
        y1: y - lineWidth * 2,
        x2: x + width,
        y2: y - lineWidth * 2,
        width: lineWidth,
        color,
      });
  }
}

export interface PaintOptions {
  /**
   * Whether tracked changes are drawn marked (the author's colour, inserted text underlined,
   * deleted struck, a change bar). Which changes show, and whether they carry marks at all, the
   * reader decided (revisions=markup is the only mode that leaves marks in the model), so the page's
   * text draws every mark it finds; a shape's text box draws its text without them.
   */
  markChanges: boolean;
  palette: RevisionPalette;
  /** Left edge of the page body, for change bars. */
  changeBarX: number;
  /** Every face a text item refers to, collected for the painter to embed. */
  faces: Record<string, FontFace>;
  /** Draws charts, shapes and SmartArt, and the page they go on (floating ones are placed on it). */
  drawings?: {
    renderer: DrawingSource;
    page: PageGeometry;
    under: PageItem[];
    /** Where page flow put floating drawings (those it placed; others are positioned here). */
    positions?: ReadonlyMap<DrawingInline, { x: number; y: number }>;
  };
}

export function paintLine(out: PageItem[], placed: PlacedLine, values: FieldValues, options: PaintOptions): void {
  const { line, x: left, top } = placed;
  const baseline = top + line.baseline;
  // The line's items go straight into `out`; shading, which few lines have, goes in under them
  // at the end.
  const foreground = out;
  const start = out.length;
  let background: PageItem[] | undefined;
  // The last text item made, where it ends and its direction: fragments that continue it join it.
  let lastText: PageItem | undefined;
  let lastTextEnd = 0;
  let lastTextRtl = false;
  /** The face last put in options.faces. */
  let recordedFace: FontFace | undefined;
  for (const fragment of line.fragments) {
    const { box } = fragment;
    const x = left + fragment.x;
    const revision = options.markChanges ? box.revision : undefined;
    const color = revision ? options.palette.color(revision) : (box.props.color ?? '000000');
    if (box.kind === 'anchor' && box.anchor) {
      foreground.push({ kind: 'anchor', name: box.anchor, y: top });
      continue;
    }
    if (box.kind === 'image' && box.imageId) {
      foreground.push({
        kind: 'image',
        x,
        y: baseline - box.ascent,
        width: box.width,
        height: box.ascent,
        image: box.imageId,
      });
    }
    if (box.kind === 'drawing' && box.drawing && options.drawings) {
      paintDrawing(foreground, box.drawing, placed, x, baseline - box.ascent, options.drawings, options.faces);
      continue;
    }
    if (box.kind === 'math' && box.math) {
      // An equation's items are relative to its baseline (math-layout.ts), in the run's colour.
      for (const face of box.math.faces) options.faces[face.key] = face;
      for (const item of translateItems(box.math.items, x, baseline)) foreground.push(item);
    }
    const shade = box.props.highlight ?? box.props.shading;
    if (shade && fragment.width > 0 && box.kind !== 'image') {
      background ??= [];
      background.push({ kind: 'rect', x, y: top, width: fragment.width, height: line.height, fill: shade });
    }
    const y = baseline - box.rise;
    if (box.kind === 'text' || box.kind === 'field') {
      const text = box.kind === 'field' ? fieldText(fragment, values) : fragment.text;
      const width = box.kind === 'field' ? box.face.measure(text) * box.size : fragment.width;
      // `text.trim() !== ''` without building the trimmed string (trim removes what \s matches).
      if (hasNonWhiteSpace(text)) {
        // Recorded once per run of fragments in one face, not once per word.
        if (box.face !== recordedFace) {
          options.faces[box.face.key] = box.face;
          recordedFace = box.face;
        }
        const spacing = box.props.characterSpacing || undefined;
        // Neighbouring fragments of one style that touch become one text item: fewer, longer
        // strings make a smaller PDF and extract as words, not letters.
        const previous = foreground[foreground.length - 1];
        if (
          previous?.kind === 'text' &&
          previous === lastText &&
          previous.font === box.face.key &&
          previous.size === box.size &&
          previous.color === color &&
          previous.y === y &&
          previous.characterSpacing === spacing &&
          lastTextRtl === (fragment.rtl === true) &&
          Math.abs(lastTextEnd - x) < 0.01
        ) {
          // Items hold logical order: right-to-left text on the right comes first (bidi-reorder.ts).
          previous.text = fragment.rtl ? text + previous.text : previous.text + text;
          lastTextEnd = x + width;
        } else {
          const item: TextItem = { kind: 'text', x, y, font: box.face.key, size: box.size, color, text };
          if (spacing) item.characterSpacing = spacing;
          if (fragment.rtl) item.rtl = true;
          foreground.push(item);
          lastText = item;
          lastTextEnd = x + width;
          lastTextRtl = fragment.rtl === true;
        }
      }
      // Most text has no underline, strike or tracked change: nothing to draw.
      if (box.props.underline !== undefined || box.props.strike || box.props.doubleStrike || revision)
        decorations(
          foreground,
          box.props,
          x,
          y,
          width,
          box.size,
          box.face.underlinePosition,
          box.face.underlineThickness,
          color,
          revision,
        );
    }
    // Word underlines and strikes a tab across its whole advance, at the end of a paragraph too:
    // a run of underlined tabs is how forms draw their fill-in lines ("Name: ____"). Underlining
    // words only (w:u w:val="words", §17.18.99) leaves the gap a tab makes bare.
    if (box.kind === 'tab' && fragment.width > 0) {
      const props = box.props.underline === 'words' ? { ...box.props, underline: undefined } : box.props;
      decorations(
        foreground,
        props,
        x,
        y,
        fragment.width,
        box.size,
        box.face.underlinePosition,
        box.face.underlineThickness,
        color,
        revision,
      );
    }
    if (box.kind === 'tab' && fragment.leader && fragment.width > 0) {
      const ch = LEADER_CHAR[fragment.leader] ?? '.';
      const chWidth = box.face.measure(ch) * box.size;
      if (chWidth > 0) {
        const count = Math.min(MAX_LEADER_CHARACTERS, Math.floor((fragment.width - chWidth) / chWidth));
        if (count > 0) {
          options.faces[box.face.key] = box.face;
          // Flush against the text after the tab, at its stop: on the tab's right, or on its left
          // in a right-to-left line (a table of contents' dots run up to the page number there).
          const start = fragment.rtl ? x : x + fragment.width - count * chWidth;
          foreground.push({
            kind: 'text',
            x: start,
            y,
            font: box.face.key,
            size: box.size,
            color,
            text: ch.repeat(count),
          });
        }
      }
    }
    if (box.link && fragment.width > 0) {
      foreground.push({ kind: 'link', x, y: top, width: fragment.width, height: line.height, target: box.link });
    }
  }
  if (options.markChanges && line.revision) {
    const color = options.palette.color(line.revision);
    foreground.push({
      kind: 'line',
      x1: options.changeBarX - 10,
      y1: top,
      x2: options.changeBarX - 10,
      y2: top + line.height,
      width: 0.75,
      color,
    });
  }
  if (background) insertBefore(out, start, background);
}

/**
 * Puts `items` into `out` before index `at`, one by one: spread as arguments (splice(at, 0,
 * ...items)) a page's worth of them overflows the stack (200,000 shaded paragraphs of exact line
 * height 0 on one page were a 500).
 */
function insertBefore(out: PageItem[], at: number, items: readonly PageItem[]): void {
  const after = out.splice(at);
  for (const item of items) out.push(item);
  for (const item of after) out.push(item);
}

/**
 * A drawing in a line: at the box's place, or (floating) where its position says on the page.
 * Floating drawings behind the text go to the page's bottom layer.
 */
function paintDrawing(
  out: PageItem[],
  inline: DrawingInline,
  placed: PlacedLine,
  x: number,
  top: number,
  drawings: NonNullable<PaintOptions['drawings']>,
  faces: Record<string, FontFace>,
): void {
  const rendered = drawings.renderer.render(inline);
  for (const face of rendered.faces) faces[face.key] = face;
  let origin = drawings.positions?.get(inline) ?? { x, y: top };
  if (inline.floating && !drawings.positions?.has(inline)) {
    let paragraphTop = placed.top;
    for (let i = 0; i < placed.index; i++) paragraphTop -= placed.laid.lines[i]?.height ?? 0;
    origin = floatingOrigin(inline, drawings.page, {
      columnX: placed.x,
      columnWidth: placed.columnWidth,
      characterX: x,
      lineTop: placed.top,
      paragraphTop,
    });
  }
  const items = translateItems(rendered.items, origin.x, origin.y);
  const layer = inline.floating?.behindText ? drawings.under : out;
  for (const item of items) layer.push(item);
}

function borderLine(out: PageItem[], border: Border | undefined, x1: number, y1: number, x2: number, y2: number): void {
  if (!border || border.style === 'nil' || border.style === 'none' || border.width <= 0) return;
  out.push({
    kind: 'line',
    x1,
    y1,
    x2,
    y2,
    width: border.width,
    color: border.color ?? '000000',
    ...(border.style === 'dotted' ? { dash: [1, 2] } : border.style === 'dashed' ? { dash: [3, 2] } : {}),
  });
}

/**
 * Shading of each run of consecutive lines of one paragraph on a page (§17.3.1.31), and the borders
 * of each border group: a paragraph, or adjacent paragraphs with the same borders, drawn as one box
 * with the between border where one paragraph meets the next (§17.3.1.24, §17.3.1.5; layout's
 * sharesBorders).
 */
export function paintParagraphFrames(out: PageItem[], lines: PlacedLine[]): void {
  // Shading goes under the layer's text, the last paragraph's first: gathered and put in front
  // once, as unshifting each one moved the whole layer every time.
  const shades: PageItem[] = [];
  let i = 0;
  while (i < lines.length) {
    const first = lines[i];
    if (!first) break;
    let j = i;
    while (j + 1 < lines.length && lines[j + 1]?.laid === first.laid) j++;
    const last = lines[j];
    const { props } = first.laid.paragraph;
    if (last && props.shading) {
      const { x1, x2 } = boxEdges(first);
      const y1 = first.top - (props.borders.top?.space ?? 0);
      const y2 = last.top + last.line.height + (props.borders.bottom?.space ?? 0);
      shades.push({ kind: 'rect', x: x1, y: y1, width: x2 - x1, height: y2 - y1, fill: props.shading });
    }
    i = j + 1;
  }
  if (shades.length > 0) insertBefore(out, 0, shades.reverse());
  i = 0;
  while (i < lines.length) {
    const first = lines[i];
    if (!first) break;
    const { borders } = first.laid.paragraph.props;
    /** Where one paragraph of the group meets the next: the first line of the next. */
    const joins: PlacedLine[] = [];
    let j = i;
    for (;;) {
      const current = lines[j];
      const next = lines[j + 1];
      if (!current || !next) break;
      if (next.laid === current.laid) j++;
      else if (
        next.x === current.x &&
        current.index === current.laid.lines.length - 1 &&
        next.index === 0 &&
        sharesBorders(current.laid.paragraph, next.laid.paragraph)
      ) {
        joins.push(next);
        j++;
      } else break;
    }
    const last = lines[j];
    if (last && (borders.top || borders.bottom || borders.left || borders.right || borders.between)) {
      const { x1, x2 } = boxEdges(first);
      const y1 = first.top - (borders.top?.space ?? 0);
      const y2 = last.top + last.line.height + (borders.bottom?.space ?? 0);
      if (first.index === 0) borderLine(out, borders.top, x1, y1, x2, y1);
      if (last.index === last.laid.lines.length - 1) borderLine(out, borders.bottom, x1, y2, x2, y2);
      for (const join of joins) {
        const y = join.top - (borders.between?.space ?? 0);
        borderLine(out, borders.between, x1, y, x2, y);
      }
      borderLine(out, borders.left, x1, y1, x1, y2);
      borderLine(out, borders.right, x2, y1, x2, y2);
    }
    i = j + 1;
  }
}

/** The left and right edges of a paragraph's box: its indents, widened by its side borders' distance. */
function boxEdges(line: PlacedLine): { x1: number; x2: number } {
  const { indent, borders } = line.laid.paragraph.props;
  return {
    x1: line.x + indent.left - (borders.left?.space ?? 0),
    x2: line.x + line.columnWidth - indent.right + (borders.right?.space ?? 0),
  };
}
