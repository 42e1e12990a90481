/**
 * What the tree walk carries from an element to its descendants: the inherited CSS values already
 * turned into the DOCX cascade's direct formatting (a RunDelta for runs, paragraph-level values
 * for blocks), plus where in lists, quotes and tables the content sits. Plain, immutable values:
 * a child gets a copy with its own changes.
 */
import type { Block, Border, LinkTarget, ListLabel, ListMembership } from '../../model';
import type { RunDelta } from '../ooxml';
import type { DeclaredStyle } from './computed-style';
import type { Element } from './html-tree';

export type WhiteSpaceMode = 'normal' | 'pre' | 'pre-line' | 'nowrap';

export interface RunFormat {
  /** Direct run formatting from HTML tags and CSS. */
  delta: RunDelta;
  /** Hyperlink or VerbatimChar. */
  characterStyle?: string;
  link?: LinkTarget;
}

export interface BlockFormat {
  /** The paragraph style of paragraphs made here. */
  styleId: string;
  /** Left indent beyond the page margin, points: blockquotes, lists, margin-left. */
  indentLeft: number;
  quoteDepth: number;
  listLevel: number;
  listId?: string;
  /** Inside a list item's content: its later paragraphs are continuations of the item. */
  listItem?: ListMembership;
  /** Inherited (text-align, line-height) or this element's own (margins, background, borders). */
  justification?: string;
  line?: { line: number; lineRule: 'auto' | 'exact' | 'atLeast' };
  before?: number;
  after?: number;
  shading?: string;
  /** Table nesting, for the flattening cap. */
  tableDepth: number;
  /** Width available to content here, points (images are scaled to fit it). */
  available: number;
}

export interface WalkContext {
  block: BlockFormat;
  run: RunFormat;
  whiteSpace: WhiteSpaceMode;
  /** The computed font size, points, for em and % (the paragraph style's until CSS says). */
  fontSize: number;
  /** Inside <pre>: code elements keep the paragraph's font instead of VerbatimChar. */
  inPre: boolean;
  /** Inside the footnotes section or a footnote: back-links are dropped. */
  inNote: boolean;
  /** print-color-adjust: exact here (inherited, CSS Color Adjust 1 §3.2): backgrounds print. */
  exactColors?: boolean;
  /** The text colour the CSS gave, before darkening for white paper (print-colors.ts). */
  specifiedColor?: string;
}

/** A label waiting for the first paragraph of its list item. */
export interface PendingLabel {
  label: Omit<ListLabel, 'props'>;
  list: ListMembership;
  run: RunFormat;
}

export const HR_BORDER: Border = { style: 'single', width: 0.75, space: 1, color: 'A0A0A0' };

/**
 * What a table's cells need of the walker that reads the blocks around them (block-builder.ts
 * HtmlWalker): the styles it resolves and the blocks it makes of a cell's content. Declared here,
 * so that table-builder.ts, which the walker calls, does not import the walker back.
 */
export interface BlockWalker {
  styleOf(element: Element): DeclaredStyle;
  styleFontSize(styleId: string): number;
  flowOf(element: Element, context: WalkContext, depth: number, force?: boolean): Block[];
  blockContext(element: Element, tag: string, style: DeclaredStyle, context: WalkContext): WalkContext;
  applyInheritedCss(style: DeclaredStyle, context: WalkContext): void;
  /** Whether backgrounds print here (block-builder.ts). */
  printsBackground(context: WalkContext, style?: DeclaredStyle): boolean;
  /** Whether a table the source gives no borders gets a light grid (Markdown) or none (HTML). */
  readonly gridsUnstyledTables: boolean;
}
