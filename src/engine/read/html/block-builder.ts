/**
 * The tree walk: elements to blocks and inlines. Block-level elements (HTML §15.3 rendering, the
 * user agent style sheet's display: block) end the paragraph before them and start their own;
 * inline elements add formatting to the runs inside them. Recursion is capped at MAX_DEPTH:
 * deeper elements give their text only, so hostile nesting costs one iterative text walk.
 */

import type { Block, ListDefinition, RunProperties } from '../../model';
import { formatNumber } from '../../text';
import { CHARACTER_STYLES, PARAGRAPH_STYLES } from '../markup';
import type { RunDelta, StyleCascade } from '../ooxml';
import { fragmentOf } from './bookmark-names';
import type { DeclaredStyle } from './computed-style';
import type { CssRule } from './css-rules';
import { firstFontFamily, isBoldWeight, parseColor, parseFontSize, parseLegacyColor, parseLength } from './css-values';
import type { BlockFormat, BlockWalker, RunFormat, WalkContext, WhiteSpaceMode } from './format-context';
import { type FootnoteSources, isBackLink, noteTarget } from './html-notes';
import {
  attribute,
  type ChildNode,
  type Element,
  HIDDEN_ELEMENTS,
  isElement,
  isText,
  tagName,
  textContent,
} from './html-tree';
import { FlowBuilder } from './inline-builder';
import {
  bulletFor,
  LEVEL_INDENT,
  levelDefinition,
  listStyleFormat,
  MAX_LIST_LEVEL,
  newListDefinition,
  orderedFormat,
} from './list-numbering';
import { readMathMl } from './mathml-reader';
import { colorAdjustOf, textColorForWhiteBackground } from './print-colors';
import type { RunStyles } from './run-styles';
import { StyleResolver } from './style-resolver';
import { buildTable } from './table-builder';

/** Elements deeper than this give their text only (hostile nesting). */
export const MAX_DEPTH = 200;
/** Tables nested deeper than this are flattened: their cells' content becomes paragraphs. */
export const MAX_TABLE_DEPTH = 8;
/** No indent beyond nine list levels' worth. */
const MAX_INDENT = LEVEL_INDENT * (MAX_LIST_LEVEL + 1);
const HEADING_TAG = /^h[1-6]$/;

/** HTML §15.3.3–15.3.8: elements the user agent style sheet displays as blocks. */
const BLOCK_TAGS = new Set([
  'html',
  'body',
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'address',
  'blockquote',
  'figure',
  'figcaption',
  'pre',
  'listing',
  'xmp',
  'plaintext',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hgroup',
  'dl',
  'dt',
  'dd',
  'center',
  'details',
  'summary',
  'fieldset',
  'legend',
  'form',
  'search',
  'dialog',
  'caption',
  'li',
  'optgroup',
]);

export interface LoadedImageRef {
  imageId: string;
  /** Natural size, CSS px (the loader's, else the pixel count). */
  pixelWidth: number;
  pixelHeight: number;
  /** No natural width and height, only their ratio (image-loader-contract.ts NaturalSize). */
  ratioOnly?: boolean;
}

export interface WalkerSetup {
  cascade: StyleCascade;
  runStyles: RunStyles;
  rules: readonly CssRule[];
  bookmarks: ReadonlyMap<string, string>;
  notes: FootnoteSources;
  images: ReadonlyMap<string, LoadedImageRef | undefined>;
  lists: Record<string, ListDefinition>;
  /** Paint every background (the caller asked); otherwise only print-color-adjust: exact ones. */
  printBackground: boolean;
  /** A link's href made absolute against the document base URL (urls.ts); absent: as written. */
  resolveUrl?: (href: string) => string;
  /** A table the source gives no borders at all is drawn with a light grid (Markdown's), not bare (HTML's). */
  gridUnstyledTables: boolean;
}

const JUSTIFICATION: Record<string, string> = {
  left: 'left',
  start: 'left',
  right: 'right',
  end: 'right',
  center: 'center',
  justify: 'both',
};

export class HtmlWalker implements BlockWalker {
  /** Footnote marks by the note's list item id, numbered in order of first reference. */
  readonly noteMarks = new Map<string, string>();
  private readonly claimedLevels = new Set<string>();
  private listCount = 0;
  private readonly styles: StyleResolver;

  private readonly setup: WalkerSetup;

  constructor(setup: WalkerSetup) {
    this.setup = setup;
    this.styles = new StyleResolver(setup.rules);
  }

  /** The element's cascaded style (style-resolver.ts). */
  styleOf(element: Element): DeclaredStyle {
    return this.styles.styleOf(element);
  }

  /** The size the paragraph style gives text, for em and % until CSS sets one. */
  styleFontSize(styleId: string): number {
    return this.styleRun(styleId).size;
  }

  private styleRun(styleId: string): RunProperties {
    return this.setup.cascade.runProperties(undefined, styleId, undefined, undefined);
  }

  /** Walks `element`'s children into a new flow and returns its blocks. */
  flowOf(element: Element, context: WalkContext, depth: number, force = false): Block[] {
    const flow = new FlowBuilder(this.setup.runStyles);
    this.visitChildren(element, context, flow, depth);
    const blocks = flow.finish(context.block);
    if (blocks.length === 0 && force) {
      flow.flush(context.block, true);
      return flow.blocks;
    }
    return blocks;
  }

  visitChildren(element: Element, context: WalkContext, flow: FlowBuilder, depth: number): void {
    for (const child of element.children) this.visit(child as ChildNode, context, flow, depth);
  }

  visit(node: ChildNode, context: WalkContext, flow: FlowBuilder, depth: number): void {
    if (isText(node)) {
      flow.addText(node.data, context.whiteSpace, context.run, context.block);
      return;
    }
    if (!isElement(node)) return;
    const tag = tagName(node);
    if (HIDDEN_ELEMENTS.has(tag) || this.setup.notes.dropped.has(node)) return;
    if (depth > MAX_DEPTH) {
      flow.addText(textContent(node), context.whiteSpace, context.run, context.block);
      return;
    }
    const style = this.styleOf(node);
    const display = style.get('display')?.toLowerCase();
    if (display === 'none' || attribute(node, 'hidden') !== undefined) return;
    if (style.get('visibility') === 'hidden') return;
    context = withLanguage(node, context);
    const bookmark = this.bookmarkOf(node);
    switch (tag) {
      case 'br':
        flow.addBreak(context.run, context.block);
        return;
      case 'wbr':
      case 'option':
        return;
      case 'hr':
        flow.addRule(context.block);
        return;
      case 'img':
        if (bookmark) flow.addBookmark(bookmark);
        this.image(node, style, context, flow);
        return;
      case 'input':
      case 'select':
      case 'textarea':
        this.formControl(node, tag, context, flow);
        return;
      case 'table':
        if (context.block.tableDepth < MAX_TABLE_DEPTH) {
          const inner = this.blockContext(node, tag, style, context);
          flow.flush(context.block);
          breakBefore(style, flow);
          if (bookmark) flow.addBookmark(bookmark);
          flow.flush(context.block);
          const first = flow.blocks.length;
          for (const block of buildTable(node, style, inner, depth, this)) flow.addBlock(block, context.block);
          breakInside(style, flow, first);
          breakAfter(style, flow);
          return;
        }
        break;
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir':
        this.list(node, tag, style, context, flow, depth, bookmark);
        return;
      case 'math':
        if (bookmark) flow.addBookmark(bookmark);
        this.math(node, context, flow, depth);
        return;
    }
    const blockLike =
      display === 'block' ||
      display === 'list-item' ||
      display === 'table' ||
      display === 'flex' ||
      display === 'grid' ||
      ((BLOCK_TAGS.has(tag) || tag === 'table' || tag === 'tr' || tag === 'td' || tag === 'th') &&
        display !== 'inline' &&
        display !== 'inline-block');
    if (blockLike) {
      const inner = this.blockContext(node, tag, style, context);
      flow.flush(context.block);
      breakBefore(style, flow);
      if (bookmark) flow.addBookmark(bookmark);
      const before = flow.blocks.length;
      this.visitChildren(node, inner, flow, depth + 1);
      // A heading is part of the document's outline (HTML §4.3.11) even when it shows nothing we
      // can draw (a logo in SVG, a title a script fills in): it stays an empty Heading paragraph.
      flow.flush(inner.block, HEADING_TAG.test(tag) && flow.blocks.length === before);
      breakInside(style, flow, before);
      breakAfter(style, flow);
      return;
    }
    this.inline(node, tag, style, context, flow, depth, bookmark);
  }

  private bookmarkOf(element: Element): string | undefined {
    const id = attribute(element, 'id') ?? (tagName(element) === 'a' ? attribute(element, 'name') : undefined);
    return id === undefined ? undefined : this.setup.bookmarks.get(id);
  }

  /** The context inside a block-level element: its paragraph style, indents and CSS. */
  blockContext(element: Element, tag: string, style: DeclaredStyle, context: WalkContext): WalkContext {
    const block: BlockFormat = { ...context.block };
    delete block.before;
    delete block.after;
    let whiteSpace = context.whiteSpace;
    let inPre = context.inPre;
    let run = context.run;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) block.styleId = PARAGRAPH_STYLES.heading[Number(heading[1]) - 1] as string;
    else if (tag === 'pre' || tag === 'listing' || tag === 'xmp' || tag === 'plaintext') {
      block.styleId = PARAGRAPH_STYLES.code;
      whiteSpace = 'pre';
      inPre = true;
    } else if (tag === 'blockquote') {
      block.quoteDepth++;
      block.indentLeft += 18;
      if (block.styleId === PARAGRAPH_STYLES.normal || block.styleId === PARAGRAPH_STYLES.listParagraph)
        block.styleId = PARAGRAPH_STYLES.quote;
    } else if (tag === 'figcaption') block.styleId = PARAGRAPH_STYLES.caption;
    else if (tag === 'caption') {
      // The UA style sheet centres a table's caption (HTML Living Standard §15.3.8).
      block.styleId = PARAGRAPH_STYLES.caption;
      block.justification = 'center';
    } else if (tag === 'center') block.justification = 'center';
    else if (tag === 'dd') block.indentLeft += LEVEL_INDENT;
    else if (tag === 'address') run = { ...run, delta: { ...run.delta, italic: true } };
    else if (tag === 'dt' || tag === 'summary' || tag === 'legend')
      run = { ...run, delta: { ...run.delta, bold: true } };
    const align = attribute(element, 'align')?.toLowerCase();
    if (align && JUSTIFICATION[align]) block.justification = JUSTIFICATION[align];
    const fontSize = block.styleId !== context.block.styleId ? this.styleFontSize(block.styleId) : context.fontSize;
    const inner: WalkContext = { ...context, block, whiteSpace, inPre, run, fontSize };
    this.colorAdjust(style, inner);
    // The body's side margins and padding are the page's already (body-box.ts), and its
    // background is the whole page's (CSS 2.1 §14.2, html-reader.ts), not a strip per block.
    this.applyBlockCss(style, inner, tag !== 'body');
    this.applyInheritedCss(style, inner);
    inner.block.indentLeft = Math.min(inner.block.indentLeft, MAX_INDENT);
    return inner;
  }

  /** Non-inherited box properties of a block: margins and padding as spacing, background, indent. */
  /** `ownBox` false: the body, whose side margins and background belong to the page. */
  private applyBlockCss(style: DeclaredStyle, context: WalkContext, ownBox = true): void {
    const block = context.block;
    const length = (name: string) => {
      const v = style.get(name);
      return v === undefined ? undefined : parseLength(v, { fontSize: context.fontSize }, block.available);
    };
    const vertical = (margin: string, padding: string) => {
      const m = length(margin);
      const p = length(padding);
      if (m === undefined && p === undefined) return undefined;
      return Math.max(0, Math.min(1584, (m ?? 0) + (p ?? 0)));
    };
    const before = vertical('margin-top', 'padding-top');
    if (before !== undefined) block.before = before;
    const after = vertical('margin-bottom', 'padding-bottom');
    if (after !== undefined) block.after = after;
    const left = ownBox ? (length('margin-left') ?? 0) + (length('padding-left') ?? 0) : 0;
    if (left > 0) block.indentLeft += left;
    const background = style.get('background-color');
    if (ownBox && background !== undefined && this.printsBackground(context)) {
      const color = parseColor(background);
      if (color === null) delete block.shading;
      else if (color !== undefined) block.shading = color;
    }
  }

  /**
   * Whether an element's backgrounds print (CSS Color Adjust 1 §3.2): the caller asked for them,
   * or print-color-adjust is exact on it or inherited from an ancestor. `style`: the element's own
   * declarations, when the context is its parent's (a table cell).
   */
  /** See WalkerSetup.gridUnstyledTables. */
  get gridsUnstyledTables(): boolean {
    return this.setup.gridUnstyledTables;
  }

  printsBackground(context: WalkContext, style?: DeclaredStyle): boolean {
    if (this.setup.printBackground) return true;
    const own = style ? colorAdjustOf(style) : undefined;
    return own === undefined ? context.exactColors === true : own === 'exact';
  }

  /**
   * Carries print-color-adjust down (an inherited property). Where it changes, the inherited text
   * colour is printed again from the colour the CSS gave: darkened or not.
   */
  private colorAdjust(style: DeclaredStyle, context: WalkContext): void {
    const v = colorAdjustOf(style);
    if (v === undefined || (v === 'exact') === (context.exactColors === true)) return;
    context.exactColors = v === 'exact';
    const specified = context.specifiedColor;
    if (specified === undefined) return;
    const color = this.printedTextColor(specified, context);
    if (color !== context.run.delta.color) context.run = withDelta(context.run, { color });
  }

  /** A text colour as printed: too light to read on white is darkened when backgrounds are left out. */
  private printedTextColor(color: string, context: WalkContext): string {
    return this.printsBackground(context) ? color : textColorForWhiteBackground(color);
  }

  /** Inherited properties (CSS 2.1 §6.2): text-align, line-height, white-space and the font ones. */
  applyInheritedCss(style: DeclaredStyle, context: WalkContext): void {
    // Most elements declare nothing: their context is the parent's.
    if (style.size === 0) return;
    this.colorAdjust(style, context);
    const block = context.block;
    const align = style.get('text-align')?.toLowerCase();
    if (align && JUSTIFICATION[align]) block.justification = JUSTIFICATION[align];
    const lineHeight = style.get('line-height')?.trim().toLowerCase();
    if (lineHeight !== undefined) {
      if (lineHeight === 'normal') delete block.line;
      else if (/^[\d.]+$/.test(lineHeight)) {
        const n = Number.parseFloat(lineHeight);
        if (n > 0 && n < 100) block.line = { line: n, lineRule: 'auto' };
      } else if (lineHeight.endsWith('%') || lineHeight.endsWith('em')) {
        const n = Number.parseFloat(lineHeight) / (lineHeight.endsWith('%') ? 100 : 1);
        if (n > 0 && n < 100) block.line = { line: n, lineRule: 'auto' };
      } else {
        const points = parseLength(lineHeight, { fontSize: context.fontSize });
        if (points !== undefined && points > 0 && points < 1584) block.line = { line: points, lineRule: 'atLeast' };
      }
    }
    const whiteSpace = style.get('white-space')?.trim().toLowerCase();
    if (whiteSpace !== undefined) context.whiteSpace = whiteSpaceMode(whiteSpace, context.whiteSpace);
    const changed = this.runCss(style, context);
    if (changed) {
      context.run = { ...context.run, delta: changed.delta };
      context.fontSize = changed.fontSize;
    }
  }

  /** The run formatting CSS adds; undefined when it adds none (the run format object is kept). */
  private runCss(style: DeclaredStyle, context: WalkContext): { delta: RunDelta; fontSize: number } | undefined {
    // Copied on the first change only: most declarations are not run formatting.
    let delta: RunDelta | undefined;
    let fontSize = context.fontSize;
    const set = <K extends keyof RunDelta>(key: K, value: RunDelta[K]) => {
      delta ??= { ...context.run.delta };
      delta[key] = value;
    };
    for (const [property, value] of style) {
      switch (property) {
        case 'color': {
          const color = parseColor(value);
          if (color !== undefined) {
            set('color', color === null ? null : this.printedTextColor(color, context));
            if (color === null) delete context.specifiedColor;
            else context.specifiedColor = color;
          }
          break;
        }
        case 'background-color': {
          // On inline boxes only: a block's background is the paragraph's shading.
          break;
        }
        case 'font-family': {
          const family = firstFontFamily(value);
          if (family) {
            set('ascii', { name: family });
            set('hAnsi', { name: family });
            set('complex', { name: family });
          }
          break;
        }
        case 'font-size': {
          const size = parseFontSize(value, context.fontSize);
          if (size !== undefined) {
            set('size', size);
            set('sizeComplex', size);
            fontSize = size;
          }
          break;
        }
        case 'font-weight': {
          const bold = isBoldWeight(value);
          if (bold !== undefined) {
            set('bold', bold);
            set('boldComplex', bold);
          }
          break;
        }
        case 'font-style': {
          const italic = /italic|oblique/i.test(value);
          set('italic', italic);
          set('italicComplex', italic);
          break;
        }
        case 'text-decoration-line': {
          const v = value.toLowerCase();
          if (v.includes('none')) {
            set('underline', null);
            set('strike', false);
          }
          if (v.includes('underline')) set('underline', 'single');
          if (v.includes('line-through')) set('strike', true);
          break;
        }
        case 'vertical-align': {
          const v = value.trim().toLowerCase();
          if (v === 'super') set('verticalAlign', 'superscript');
          else if (v === 'sub') set('verticalAlign', 'subscript');
          else if (v === 'baseline') set('verticalAlign', 'baseline');
          break;
        }
        case 'text-transform': {
          const v = value.trim().toLowerCase();
          if (v === 'uppercase') set('caps', true);
          else if (v === 'none') set('caps', false);
          break;
        }
        case 'font-variant':
        case 'font-variant-caps':
          set('smallCaps', /small-caps/i.test(value));
          break;
        case 'letter-spacing': {
          const spacing = parseLength(value, { fontSize });
          if (spacing !== undefined) set('characterSpacing', Math.max(-100, Math.min(100, spacing)));
          break;
        }
      }
    }
    return delta ? { delta, fontSize } : undefined;
  }

  private inline(
    element: Element,
    tag: string,
    style: DeclaredStyle,
    context: WalkContext,
    flow: FlowBuilder,
    depth: number,
    bookmark: string | undefined,
  ): void {
    let run = context.run;
    let fontSize = context.fontSize;
    switch (tag) {
      case 'b':
      case 'strong':
        run = withDelta(run, { bold: true, boldComplex: true });
        break;
      case 'i':
      case 'em':
      case 'cite':
      case 'dfn':
      case 'var':
        run = withDelta(run, { italic: true, italicComplex: true });
        break;
      case 'u':
      case 'ins':
        run = withDelta(run, { underline: 'single' });
        break;
      case 's':
      case 'strike':
      case 'del':
        run = withDelta(run, { strike: true });
        break;
      case 'sup':
        run = withDelta(run, { verticalAlign: 'superscript' });
        break;
      case 'sub':
        run = withDelta(run, { verticalAlign: 'subscript' });
        break;
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt':
        if (!context.inPre) {
          if (run.characterStyle === CHARACTER_STYLES.hyperlink)
            run = withDelta(run, { ascii: { name: 'Courier New' }, hAnsi: { name: 'Courier New' } });
          else run = { ...run, characterStyle: CHARACTER_STYLES.code };
        }
        break;
      case 'mark':
        // The user agent sheet's `mark { background: yellow; color: black }` (HTML §15.3.4): the
        // background like any other, the black text whether or not it prints (the page's CSS wins).
        run = withDelta(run, { color: '000000' });
        if (this.printsBackground(context, style)) run = withDelta(run, { highlight: 'FFFF00' });
        break;
      case 'small':
        fontSize = Math.max(1, Math.round(fontSize * 0.83 * 2) / 2);
        run = withDelta(run, { size: fontSize, sizeComplex: fontSize });
        break;
      case 'big':
        fontSize = Math.round(fontSize * 1.2 * 2) / 2;
        run = withDelta(run, { size: fontSize, sizeComplex: fontSize });
        break;
      case 'font': {
        const color = attribute(element, 'color');
        const parsed = color ? parseLegacyColor(color) : undefined;
        if (parsed) run = withDelta(run, { color: this.printedTextColor(parsed, context) });
        const face = attribute(element, 'face');
        const family = face ? firstFontFamily(face) : undefined;
        if (family) run = withDelta(run, { ascii: { name: family }, hAnsi: { name: family } });
        const size = Number.parseInt(attribute(element, 'size') ?? '', 10);
        const sizes = [7.5, 10, 12, 13.5, 18, 24, 36];
        if (Number.isFinite(size)) {
          fontSize = sizes[Math.max(1, Math.min(7, size)) - 1] as number;
          run = withDelta(run, { size: fontSize, sizeComplex: fontSize });
        }
        break;
      }
      case 'a': {
        const noteId = noteTarget(element, this.setup.notes.items);
        if (noteId !== undefined && !context.inNote) {
          let mark = this.noteMarks.get(noteId);
          if (mark === undefined) {
            mark = String(this.noteMarks.size + 1);
            this.noteMarks.set(noteId, mark);
          }
          if (bookmark) flow.addBookmark(bookmark);
          flow.addNote(run, context.block, mark, mark);
          return;
        }
        if (context.inNote && isBackLink(element)) return;
        const href = attribute(element, 'href');
        const link = href === undefined ? undefined : this.linkTarget(href);
        if (link) run = { ...run, link, characterStyle: CHARACTER_STYLES.hyperlink };
        break;
      }
    }
    if (style.size === 0 && run === context.run && fontSize === context.fontSize) {
      // Most inline elements (a span, a link without a target) change nothing: their children
      // are walked in the parent's context, which is immutable, instead of an equal copy.
      if (bookmark) flow.addBookmark(bookmark);
      if (tag === 'q') flow.addText('\u201C', context.whiteSpace, context.run, context.block);
      this.visitChildren(element, context, flow, depth + 1);
      if (tag === 'q') flow.addText('\u201D', context.whiteSpace, context.run, context.block);
      return;
    }
    // The block is copied only to take applyInheritedCss's changes, which an inline box drops.
    const inner: WalkContext = {
      ...context,
      block: style.size === 0 ? context.block : { ...context.block },
      run,
      fontSize,
    };
    this.applyInheritedCss(style, inner);
    // An inline box's background shades its runs (the block's shading is the paragraph's).
    const background = style.get('background-color');
    if (background !== undefined && this.printsBackground(inner)) {
      const color = parseColor(background);
      if (color !== undefined) inner.run = { ...inner.run, delta: { ...inner.run.delta, shading: color } };
    }
    if (bookmark) flow.addBookmark(bookmark);
    if (tag === 'q') flow.addText('\u201C', inner.whiteSpace, inner.run, inner.block);
    // Inline elements do not change paragraph-level properties of the paragraph they sit in.
    inner.block = context.block;
    this.visitChildren(element, inner, flow, depth + 1);
    if (tag === 'q') flow.addText('\u201D', inner.whiteSpace, inner.run, inner.block);
  }

  /**
   * http(s) and mailto links go out as URLs (relative ones made absolute by resolveUrl, urls.ts),
   * #fragments to bookmarks; anything else is no link.
   */
  private linkTarget(href: string): RunFormat['link'] {
    const h = this.setup.resolveUrl?.(href) ?? href.trim();
    const fragment = fragmentOf(h);
    if (fragment !== undefined) {
      const name = this.setup.bookmarks.get(fragment);
      return name ? { anchor: name } : undefined;
    }
    if (/^(https?:\/\/|mailto:)/i.test(h) && h.length <= 2048 && !/[\s<>"]/.test(h)) return { url: h };
    return undefined;
  }

  private list(
    element: Element,
    tag: string,
    style: DeclaredStyle,
    context: WalkContext,
    flow: FlowBuilder,
    depth: number,
    bookmark: string | undefined,
  ): void {
    // A nested list before any text of its item: the item's label gets a paragraph of its own.
    flow.flush(context.block, flow.hasLabel());
    breakBefore(style, flow);
    const first = flow.blocks.length;
    if (bookmark) flow.addBookmark(bookmark);
    const ordered = tag === 'ol';
    const format =
      listStyleFormat(style.get('list-style-type') ?? style.get('list-style')) ??
      (ordered ? orderedFormat(attribute(element, 'type')) : 'bullet');
    const nested = context.block.listId !== undefined;
    const level = nested ? Math.min(context.block.listLevel + 1, MAX_LIST_LEVEL) : 0;
    let listId = context.block.listId;
    if (!nested || listId === undefined) {
      listId = `list${++this.listCount}`;
      this.setup.lists[listId] = newListDefinition(format);
    }
    const startAttribute = Number.parseInt(attribute(element, 'start') ?? '', 10);
    const start = ordered && Number.isFinite(startAttribute) ? Math.max(-1e6, Math.min(1e6, startAttribute)) : 1;
    const claim = `${listId}\u0001${level}`;
    if (!this.claimedLevels.has(claim)) {
      this.claimedLevels.add(claim);
      const definition = this.setup.lists[listId];
      if (definition) definition.levels[level] = levelDefinition(level, format, start);
    }
    const listContext = this.blockContext(element, tag, style, context);
    listContext.block.listId = listId;
    listContext.block.listLevel = level;
    // Content of the list outside any <li> belongs to no item.
    delete listContext.block.listItem;
    let counter = start - 1;
    for (const child of element.children) {
      if (!isElement(child) || tagName(child) !== 'li') {
        this.visit(child as ChildNode, listContext, flow, depth + 1);
        continue;
      }
      const itemStyle = this.styleOf(child);
      if (itemStyle.get('display') === 'none') continue;
      const value = Number.parseInt(attribute(child, 'value') ?? '', 10);
      counter = ordered && Number.isFinite(value) ? Math.max(-1e6, Math.min(1e6, value)) : counter + 1;
      const item = this.blockContext(child, 'li', itemStyle, listContext);
      if (item.block.styleId !== PARAGRAPH_STYLES.tableText) item.block.styleId = PARAGRAPH_STYLES.listParagraph;
      item.fontSize = this.styleFontSize(item.block.styleId);
      item.block.indentLeft = Math.min(listContext.block.indentLeft + LEVEL_INDENT, MAX_INDENT);
      item.block.listItem = { listId, level };
      flow.flush(listContext.block, flow.hasLabel());
      breakBefore(itemStyle, flow);
      const itemFirst = flow.blocks.length;
      const text = format === 'bullet' ? bulletFor(level) : `${formatNumber(counter, format)}.`;
      flow.setLabel({ label: { text, suffix: 'tab', align: 'left' }, list: { listId, level }, run: item.run });
      const itemBookmark = this.bookmarkOf(child);
      if (itemBookmark) flow.addBookmark(itemBookmark);
      this.visitChildren(child, item, flow, depth + 2);
      flow.flush(item.block, flow.hasLabel());
      breakInside(itemStyle, flow, itemFirst);
      breakAfter(itemStyle, flow);
    }
    flow.flush(listContext.block);
    breakInside(style, flow, first);
    breakAfter(style, flow);
  }

  /**
   * MathML (src/engine/read/html/mathml-reader.ts): display math is a centred paragraph of its own, as
   * Office Math's m:oMathPara is (ECMA-376 Part 1 §22.1.2.78); inline math sits in the line.
   */
  private math(element: Element, context: WalkContext, flow: FlowBuilder, depth: number): void {
    const { display, nodes } = readMathMl(element, MAX_DEPTH - depth);
    if (nodes.length === 0) {
      // Math with no presentation markup may still say what it is (alttext, MathML 3 §2.2.1).
      const alt = attribute(element, 'alttext')?.trim();
      if (alt) flow.addText(alt, 'normal', context.run, context.block);
      return;
    }
    if (!display) {
      flow.addMath(context.run, context.block, false, nodes);
      return;
    }
    const block: BlockFormat = { ...context.block, justification: 'center' };
    flow.flush(context.block);
    flow.addMath(context.run, block, true, nodes);
    flow.flush(block);
  }

  private image(element: Element, style: DeclaredStyle, context: WalkContext, flow: FlowBuilder): void {
    const src = attribute(element, 'src')?.trim() ?? '';
    const alt = attribute(element, 'alt') ?? '';
    const loaded = this.setup.images.get(src);
    if (!loaded) {
      // In square brackets, as text browsers (lynx) and pandoc's plain writer show an image, so
      // that the stand-in reads as an image's description and not as the sentence around it.
      if (alt.trim() !== '') flow.addText(`[${alt.trim()}]`, 'normal', context.run, context.block);
      return;
    }
    const available = context.block.available;
    const dimension = (css: string, attr: string, percentOf: number | undefined): number | undefined => {
      const fromCss = style.get(css);
      if (fromCss !== undefined) {
        const v = parseLength(fromCss, { fontSize: context.fontSize }, percentOf);
        if (v !== undefined && v > 0) return v;
      }
      const a = attribute(element, attr)?.trim();
      if (a === undefined) return undefined;
      if (a.endsWith('%') && percentOf !== undefined) return (Number.parseFloat(a) * percentOf) / 100 || undefined;
      const px = Number.parseFloat(a);
      return Number.isFinite(px) && px > 0 ? px * 0.75 : undefined;
    };
    const natural = { width: loaded.pixelWidth * 0.75, height: loaded.pixelHeight * 0.75 };
    let width = dimension('width', 'width', available);
    let height = dimension('height', 'height', undefined);
    // Only a ratio (an SVG with a viewBox alone): as wide as the containing block (CSS 2.1 §10.3.2).
    if (width === undefined && height === undefined && loaded.ratioOnly) width = available;
    if (width === undefined && height === undefined) ({ width, height } = natural);
    else if (width === undefined) width = ((height as number) * natural.width) / Math.max(1e-6, natural.height);
    else if (height === undefined) height = (width * natural.height) / Math.max(1e-6, natural.width);
    let w = width as number;
    let h = height as number;
    // Scaled down to the text width, as a browser's max-width: 100% would.
    if (w > available) {
      h = (h * available) / w;
      w = available;
    }
    const maxHeight = 648;
    if (h > maxHeight) {
      w = (w * maxHeight) / h;
      h = maxHeight;
    }
    flow.addImage(context.run, context.block, {
      imageId: loaded.imageId,
      width: Math.max(0.75, w),
      height: Math.max(0.75, h),
      ...(alt ? { description: alt } : {}),
    });
  }

  /** Form controls (HTML §4.10) print what they show: their value, the chosen option, a box. */
  private formControl(element: Element, tag: string, context: WalkContext, flow: FlowBuilder): void {
    const add = (text: string, whiteSpace: WhiteSpaceMode = 'normal') =>
      flow.addText(text, whiteSpace, context.run, context.block);
    // An empty field shows its placeholder, the hint browsers draw in grey (HTML §4.10.5.3.9;
    // Chromium's ::placeholder is darkgray, #757575).
    const valueOrHint = (value: string, whiteSpace: WhiteSpaceMode = 'normal') => {
      const hint = attribute(element, 'placeholder')?.trim();
      if (value.trim() !== '' || !hint) add(value, whiteSpace);
      else flow.addText(hint, 'normal', withDelta(context.run, { color: PLACEHOLDER_COLOR }), context.block);
    };
    if (tag === 'select') {
      const options: Element[] = [];
      const stack = [...element.children].reverse();
      while (stack.length > 0 && options.length < 10_000) {
        const node = stack.pop() as ChildNode;
        if (!isElement(node)) continue;
        if (tagName(node) === 'option') options.push(node);
        else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as ChildNode);
      }
      const chosen = options.find((o) => attribute(o, 'selected') !== undefined) ?? options[0];
      if (chosen) add(attribute(chosen, 'label') ?? textContent(chosen).trim());
      return;
    }
    if (tag === 'textarea') {
      valueOrHint(textContent(element), 'pre-line');
      return;
    }
    const type = (attribute(element, 'type') ?? 'text').toLowerCase();
    switch (type) {
      case 'hidden':
        return;
      case 'checkbox':
        add(attribute(element, 'checked') !== undefined ? '\u2611 ' : '\u2610 ');
        return;
      case 'radio':
        add(attribute(element, 'checked') !== undefined ? '\u25C9 ' : '\u25CB ');
        return;
      case 'image':
        add(attribute(element, 'alt') ?? '');
        return;
      case 'submit':
      case 'reset':
      case 'button':
        add(attribute(element, 'value') ?? (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''));
        return;
      default:
        valueOrHint(attribute(element, 'value') ?? '');
    }
  }
}

const PLACEHOLDER_COLOR = '757575';

/** `run` with `change` over its direct formatting (a new format: formats are never mutated). */
function withDelta(run: RunFormat, change: RunDelta): RunFormat {
  return { ...run, delta: { ...run.delta, ...change } };
}

/**
 * The element's language (HTML §3.2.6.2 lang, or xml:lang), inherited by its content: it picks
 * the CJK face of its ideographs and kana (ECMA-376's w:lang/@w:eastAsia, which the DOCX writer
 * writes). An empty value means the language is unknown.
 */
export function withLanguage(element: Element, context: WalkContext): WalkContext {
  const value = attribute(element, 'lang') ?? attribute(element, 'xml:lang');
  if (value === undefined) return context;
  const language = value.trim() || undefined;
  if (language === context.run.delta.eastAsiaLanguage) return context;
  return { ...context, run: withDelta(context.run, { eastAsiaLanguage: language }) };
}

/**
 * A forced page break (CSS Fragmentation 3 §3.1): page, and left/right/recto/verso, which on
 * one-sided paper are a page break too; always (a legacy value, §3.4) likewise.
 */
function pageBreak(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return v === 'page' || v === 'always' || v === 'left' || v === 'right' || v === 'recto' || v === 'verso';
}

/** avoid and avoid-page (§3.1–3.2): no page break there if the layout can help it. */
function avoidBreak(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return v === 'avoid' || v === 'avoid-page';
}

/** break-before (page-break-before, §3.4): the next block starts a page, or keeps with the one before. */
function breakBefore(style: DeclaredStyle, flow: FlowBuilder): void {
  const value = style.get('break-before');
  if (value === undefined) return;
  if (pageBreak(value)) flow.breakPageBeforeNext();
  else if (avoidBreak(value)) flow.keepLastWithNext();
}

/** break-after: a page break after the element's blocks, or its last block kept with the next. */
function breakAfter(style: DeclaredStyle, flow: FlowBuilder): void {
  const value = style.get('break-after');
  if (value === undefined) return;
  if (pageBreak(value)) flow.breakPageBeforeNext();
  else if (avoidBreak(value)) flow.keepLastWithNext();
}

/** break-inside: avoid: the element's blocks (from `first`) kept on one page where they fit. */
function breakInside(style: DeclaredStyle, flow: FlowBuilder, first: number): void {
  if (avoidBreak(style.get('break-inside'))) flow.keepTogether(first);
}

function whiteSpaceMode(value: string, inherited: WhiteSpaceMode): WhiteSpaceMode {
  switch (value) {
    case 'normal':
      return 'normal';
    case 'nowrap':
      return 'nowrap';
    case 'pre':
    case 'pre-wrap':
    case 'break-spaces':
      return 'pre';
    case 'pre-line':
      return 'pre-line';
    default:
      return inherited;
  }
}
