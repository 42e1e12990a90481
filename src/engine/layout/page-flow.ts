/**
 * Pagination: flows laid-out paragraphs into the columns of pages, section by section, honouring
 * page/column breaks, pageBreakBefore, keepNext chains, keepLines and widow/orphan control
 * (docs/engine.md "Flow and pagination"). Footnotes go to the foot of the page holding their reference
 * (footnote-area.ts), endnotes after the last section's body. The result is geometry only: which
 * line sits where on which page; painting happens afterwards (engine/pages).
 */
import type { FontSet } from '../fonts';
import type { Block, DocumentModel, DrawingInline, Paragraph, Section, Table } from '../model';
import { type BalanceBlock, type BalanceParagraph, balancedHeight } from './column-balance';
import { flattenBlocks } from './flatten-blocks';
import { FloatWrap } from './float-wrap';
import { endnoteOrder, FootnoteFlow, NOTE_SEPARATOR, noteLines, type PendingNotes } from './footnote-area';
import { MeasuredSegments } from './measured-segments';
import type { LineItem, RectItem } from './page-items';
import { type LaidLine, type LaidParagraph, layoutParagraph, spaceBetween } from './paragraph-layout';
import type { PlacedLine } from './placed-line';
import {
  type ContentLine,
  flowTable as flowLaidTable,
  type LaidTable,
  layoutTableRows,
  RowWindow,
  type TableFlowTarget,
  tableRows,
} from './table';

export interface PageFrame {
  /** The section in effect at the end of the page (a continuous section break moves it on). */
  section: Section;
  /**
   * The section the page starts in: its header and footer are the page's, as the room the body
   * left them was measured from it when the page began (LibreOffice does the same; a continuous
   * section below took over the page's header, which then overlapped the body).
   */
  pageSection: Section;
  sectionIndex: number;
  /** 1-based page number as displayed (after w:pgNumType/@w:start restarts). */
  number: number;
  /** 1-based page index within its section. */
  sectionPage: number;
  /** First page of its section: titlePg selects the first-page header there. */
  firstOfSection: boolean;
  bodyTop: number;
  bodyBottom: number;
  lines: PlacedLine[];
  /** Footnote lines at the foot of the page. */
  notes: PlacedLine[];
  /** Shading behind table cells, painted under the text. */
  backgrounds: RectItem[];
  /** Separator rules above footnotes and endnotes. */
  rules: LineItem[];
  /** Page positions of the floating drawings anchored in this page's body paragraphs. */
  floats: Map<DrawingInline, { x: number; y: number }>;
}

export interface HeaderFooterMetrics {
  /**
   * Height of the header/footer laid out for this page, so the body can make room (docs/engine.md);
   * undefined when the page has none (no part, or one without content).
   */
  headerHeight(section: Section, page: { firstOfSection: boolean; number: number }): number | undefined;
  footerHeight(section: Section, page: { firstOfSection: boolean; number: number }): number | undefined;
}

const EPSILON = 0.01;
/** The least a header and footer leave the body: a share of the height between the margins, and never under half an inch. */
const MIN_BODY_SHARE = 0.25;
const MIN_BODY_HEIGHT = 36;
/**
 * The paper a table widening into the margins leaves bare at the page's edge: 12 pt (4.2 mm),
 * about the edge most printers cannot print on.
 */
const MIN_PAPER_MARGIN = 12;

/** How body content meets the space left: it fits; it goes to the next column or page; or it is placed anyway. */
type Verdict = 'fits' | 'advance' | 'force';

export function columnGeometry(section: Section): { x: number; width: number }[] {
  const { page, columns } = section;
  const left = page.margins.left + page.margins.gutter;
  const area = page.width - left - page.margins.right;
  if (columns.widths && columns.widths.length > 0) {
    let x = left;
    return columns.widths.map((c) => {
      const column = { x, width: c.width };
      x += c.width + c.space;
      return column;
    });
  }
  const count = Math.max(1, columns.count);
  const width = (area - columns.space * (count - 1)) / count;
  return Array.from({ length: count }, (_, i) => ({ x: left + i * (width + columns.space), width }));
}

/**
 * The pathological-pagination guard: a page whose body takes nothing while content waits (it
 * moved on because that content did not fit) is a bug, not a page. After MAX_EMPTY_PAGES such
 * pages in a row the waiting content is placed anyway (split, or run past the page's bottom and
 * reported by engine/pages/off-page.ts) instead of moving on again: a document never becomes pages of headers.
 */
export class EmptyPageGuard {
  static readonly MAX_EMPTY_PAGES = 2;
  private emptyPages = 0;
  /** Body content (a line, a table row) was placed on the current page. */
  private placedHere = false;
  /** Whether the guard has had to place content: the warning is given once a document. */
  tripped = false;

  /** A page is finished: `byOverflow` when the flow moved onto it because content did not fit. */
  finished(byOverflow: boolean): void {
    this.emptyPages = byOverflow && !this.placedHere ? this.emptyPages + 1 : 0;
    this.placedHere = false;
  }

  /** Content was placed: the flow is moving again. */
  placed(): void {
    this.emptyPages = 0;
    this.placedHere = true;
  }

  /** Whether the next content must be placed where the flow is, fitting or not. */
  stuck(): boolean {
    if (this.emptyPages < EmptyPageGuard.MAX_EMPTY_PAGES) return false;
    this.tripped = true;
    return true;
  }
}

/** Receives each page once nothing more goes on it (its footnotes placed), in page order. */
export type FinishedPage = (frame: PageFrame) => void;

/**
 * A paragraph laid out at a width, and at others after it: a list rather than a Map per paragraph,
 * which the flow would make for every paragraph of the document to hold one entry.
 */
interface LaidAtWidth {
  width: number;
  laid: LaidParagraph;
  next?: LaidAtWidth;
}

/**
 * Where the flow is in a section's blocks: the block about to be placed and, when a paragraph is
 * part placed, the line it goes on from (column balancing measures what is left from here).
 */
interface FlowCursor {
  blocks: Block[];
  block: number;
  line: number;
  /** The paragraph as laid when it is part placed: its lines from `line` on are `width` wide. */
  laid?: LaidParagraph;
  width?: number;
  /** Widths of the lines placed before `line`. */
  placed?: number[];
  /** Its lines were laid around floating objects for their place: they are not broken again. */
  fixed?: boolean;
}

/** Past this many rows a table is not measured ahead for balancing (it is laid out as it flows). */
const MAX_BALANCED_ROWS = 400;

class Flow {
  private page!: PageFrame;
  /** Whether a page has started (the first section starts the first). */
  private started = false;
  private columns: { x: number; width: number }[] = [];
  private column = 0;
  private y = 0;
  /** Space after the previous paragraph, not yet added: how it meets the next one's space before is decided there. */
  private pendingAfter = 0;
  /** The bottom border of the paragraph placed last (its distance and width): not collapsed with spacing. */
  private pendingBorder = 0;
  /** The paragraph placed last, while nothing else (a table, notes) came after it: borders may join it. */
  private previousLaid: LaidParagraph | undefined;
  /**
   * The content just placed keeps with what comes next (a keepNext paragraph, a table whose last
   * row's paragraphs all do): what follows is inside a keepNext chain, not its start.
   */
  private chainOpen = false;
  /** Top of the current column region (a continuous section starts one lower on its page). */
  private regionTop = 0;
  /** Nothing placed yet in this column: keep rules never push content off an empty column. */
  private columnEmpty = true;
  /**
   * The column was started by content that did not fit the one before (not by a page, column or
   * section break): Word then drops the space before of the paragraph at its top.
   */
  private naturalTop = false;
  private pageNumber = 0;
  /** Empty pages in a row while content waits (EmptyPageGuard). */
  private readonly emptyPages = new EmptyPageGuard();
  /** The current page was started because content did not fit the one before. */
  private byOverflow = false;
  /** The warning that a header or footer squeezes the body has been given (once a document). */
  private squeezeWarned = false;
  /** Footnotes at the foot of each page, laid out at the width of the first column. */
  private readonly footnotes = new FootnoteFlow((id) =>
    noteLines(flattenBlocks(this.model.notes.footnotes[id] ?? []).map((p) => this.laid(p, this.noteWidth))),
  );
  /** The lowest bottom of body content on this page, over all columns: footnotes stay below it. */
  private contentBottom = 0;
  /** Paragraphs laid out at a width, kept while they may be asked for again (see flowBlocks). */
  private readonly cache = new Map<Paragraph, LaidAtWidth>();
  /** Floating objects on the current page and the room they leave the text. */
  private readonly floatWrap = new FloatWrap();
  /** Column balancing (column-balance.ts): columns but the last end here on this page. */
  private balance: { bottom: number; page: PageFrame } | undefined;
  /** A continuous section follows this one: its columns are balanced on the page where it ends. */
  private balancing = false;
  /** Where the flow is in the section (FlowCursor), while it places paragraphs. */
  private cursor: FlowCursor | undefined;
  /** Tables balancing laid out, for flowBlocks to take rather than lay out again. */
  private readonly balancedTables = new Map<Table, { width: number; laid: LaidTable }>();
  /** Table cells' segments the grid made, for their layout to take. */
  private readonly measured: MeasuredSegments;

  private readonly model: DocumentModel;
  private readonly fonts: FontSet;
  private readonly headerFooter: HeaderFooterMetrics;
  private readonly finished: FinishedPage;

  constructor(model: DocumentModel, fonts: FontSet, headerFooter: HeaderFooterMetrics, finished: FinishedPage) {
    this.model = model;
    this.fonts = fonts;
    this.headerFooter = headerFooter;
    this.finished = finished;
    this.measured = new MeasuredSegments(fonts);
  }

  laid(paragraph: Paragraph, width: number): LaidParagraph {
    const first = this.cache.get(paragraph);
    for (let entry = first; entry; entry = entry.next) if (entry.width === width) return entry.laid;
    const laid = this.layoutParagraph(paragraph, width);
    // The newest width after the first: a paragraph is nearly always laid at one width.
    if (first) first.next = { width, laid, next: first.next };
    else this.cache.set(paragraph, { width, laid });
    return laid;
  }

  private layoutParagraph(paragraph: Paragraph, width: number): LaidParagraph {
    const segments = this.measured.take(paragraph);
    return layoutParagraph(paragraph, this.fonts, {
      areaWidth: width,
      defaultTabStop: this.model.settings.defaultTabStop,
      justifyByShrinking: this.model.settings.justifyByShrinking === true,
      ...this.gridContext(),
      ...(segments ? { segments } : {}),
    });
  }

  private newPage(section: Section, sectionIndex: number, firstOfSection: boolean): void {
    const previous = this.started ? this.page : undefined;
    if (previous) this.finishPage();
    this.started = true;
    this.byOverflow = false;
    const restart = firstOfSection ? section.pageNumbering.start : undefined;
    this.pageNumber = restart ?? this.pageNumber + 1;
    const sectionPage =
      firstOfSection || !previous || previous.sectionIndex !== sectionIndex ? 1 : previous.sectionPage + 1;
    const meta = { firstOfSection: sectionPage === 1, number: this.pageNumber };
    const header = this.headerFooter.headerHeight(section, meta);
    const footer = this.headerFooter.footerHeight(section, meta);
    const { bodyTop, bodyBottom } = this.bodyArea(section, header, footer);
    this.page = {
      section,
      pageSection: section,
      sectionIndex,
      number: this.pageNumber,
      sectionPage,
      firstOfSection: sectionPage === 1,
      bodyTop,
      bodyBottom,
      lines: [],
      notes: [],
      backgrounds: [],
      rules: [],
      floats: new Map(),
    };
    this.floatWrap.startPage();
    this.columns = columnGeometry(section);
    this.column = 0;
    this.regionTop = bodyTop;
    this.y = bodyTop;
    this.columnEmpty = true;
    this.naturalTop = false;
    this.contentBottom = bodyTop;
    this.footnotes.startPage(bodyTop, this.page.bodyBottom);
  }

  /**
   * The body's top and bottom on a page whose header and footer are `header` and `footer` tall.
   * A tall header pushes the body down and a tall footer pushes it up (docs/engine.md "Headers and
   * footers"), unless the margin is negative (§17.6.11: then the body's edge is fixed). They never
   * push it below a quarter of the height the margins give it: a header as tall as the page (a
   * page-sized picture in its line) would otherwise leave the body no room on any page, and every
   * page would come out empty. Past that the header and footer are drawn under the body, with a warning.
   * A page without a header (or footer) keeps its margin whatever the header (footer) distance:
   * the distance places a header, and alone moves nothing (Word's page starts in documents whose
   * margins are smaller than their header and footer distances show it).
   */
  private bodyArea(
    section: Section,
    header: number | undefined,
    footer: number | undefined,
  ): { bodyTop: number; bodyBottom: number } {
    const { margins, height, fixedTop, fixedBottom } = section.page;
    const marginTop = margins.top;
    const marginBottom = height - margins.bottom;
    let bodyTop = fixedTop || header === undefined ? marginTop : Math.max(marginTop, margins.header + header);
    let bodyBottom =
      fixedBottom || footer === undefined ? marginBottom : Math.min(marginBottom, height - margins.footer - footer);
    const minimum = Math.max(MIN_BODY_HEIGHT, (marginBottom - marginTop) * MIN_BODY_SHARE);
    if (bodyBottom - bodyTop < minimum) {
      // The header gives way first, down to its margin, then the footer.
      bodyTop = Math.max(marginTop, Math.min(bodyTop, bodyBottom - minimum));
      bodyBottom = Math.max(bodyBottom, bodyTop + minimum);
      if (!this.squeezeWarned) {
        this.squeezeWarned = true;
        this.model.warnings.push(
          'A header or footer is so tall that it would leave the body almost no room on the page; the body keeps a quarter of the page and is drawn over the rest of the header or footer. Shorten the header or footer in Word to see all of it.',
        );
      }
    }
    return { bodyTop, bodyBottom };
  }

  /** Footnotes use the first column (the whole text width on one-column pages). */
  private get noteWidth(): number {
    return this.columns[0]?.width ?? this.columnWidth;
  }

  /** Puts the page's footnotes in place at the foot of its body area and hands the page over. */
  private finishPage(): void {
    const column = this.columns[0] ?? { x: this.page.section.page.margins.left, width: this.columnWidth };
    const placed = this.footnotes.finishPage(column);
    this.page.notes.push(...placed.lines);
    this.page.rules.push(...placed.rules);
    this.emptyPages.finished(this.byOverflow);
    this.finished(this.page);
  }

  /** Ends the flow: the rest of split notes on pages of their own, then the last page's notes. */
  finish(): void {
    while (this.footnotes.waiting) this.forceNewPage();
    this.finishPage();
    if (this.emptyPages.tripped) {
      this.model.warnings.push(
        'Some content fitted no page as laid out and was placed anyway, running past the bottom of its page; check the pages the other warnings name.',
      );
    }
  }

  /** Moves to the next column, or to a new page after the last one; `natural` when content overflowed. */
  private advance(natural = false): void {
    if (this.column + 1 < this.columns.length) {
      this.column++;
      this.y = this.regionTop;
      this.columnEmpty = true;
      this.naturalTop = natural;
      return;
    }
    this.newPage(this.page.section, this.page.sectionIndex, false);
    this.byOverflow = natural;
    this.naturalTop = natural;
    this.balanceRest();
  }

  private forceNewPage(): void {
    this.newPage(this.page.section, this.page.sectionIndex, false);
    this.balanceRest();
  }

  /**
   * Starts a section; `balanced` when a continuous section follows it, so that its columns are
   * evened out on the page where it ends (column-balance.ts).
   */
  startSection(section: Section, index: number, balanced = false): void {
    this.balance = undefined;
    this.chainOpen = false;
    this.balancing = false;
    this.cursor = undefined;
    this.balancedTables.clear();
    this.openSection(section, index);
    this.balancing = balanced;
    this.cursor = { blocks: section.blocks, block: 0, line: 0 };
    this.balanceRest();
  }

  private openSection(section: Section, index: number): void {
    if (index === 0) {
      this.newPage(section, index, true);
      return;
    }
    switch (section.start) {
      case 'continuous': {
        // Word starts a new page when the page itself changes: its size, orientation or text direction.
        const previous = this.page.section.page;
        if (
          previous.width !== section.page.width ||
          previous.height !== section.page.height ||
          previous.vertical !== section.page.vertical
        ) {
          this.newPage(section, index, true);
          return;
        }
        // Same page, new column set-up below what is there (the previous section's columns were
        // balanced when it knew this break follows: balanceRest).
        this.page.section = section;
        this.page.sectionIndex = index;
        this.columns = columnGeometry(section);
        this.column = 0;
        const bottom = Math.max(this.y, ...this.page.lines.map((l) => l.top + l.line.height));
        this.regionTop = bottom;
        this.y = bottom;
        this.columnEmpty = true;
        this.naturalTop = false;
        return;
      }
      case 'nextColumn':
        this.page.section = section;
        this.advance();
        return;
      case 'evenPage':
      case 'oddPage': {
        this.newPage(section, index, true);
        const wantEven = section.start === 'evenPage';
        if ((this.page.number % 2 === 0) !== wantEven) {
          // The blank page keeps the parity Word prints (§17.18.77 ST_SectionMark).
          this.newPage(section, index, false);
        }
        return;
      }
      default:
        this.newPage(section, index, true);
    }
  }

  private get columnWidth(): number {
    return this.columns[this.column]?.width ?? 100;
  }

  /** The bottom of the body: above the footnotes placed on this page; a balanced column's end. */
  private bottom(): number {
    const body = this.page.bodyBottom - this.footnotes.height;
    const balance = this.balance;
    if (balance && balance.page === this.page && this.column < this.columns.length - 1) {
      return Math.min(body, balance.bottom);
    }
    return body;
  }

  /**
   * Evens out the columns of a section that a continuous section break follows, on the page where
   * it ends: when what is left of the section from the cursor fits in the columns of this page,
   * every column but the last ends at the balanced height (the last runs on to the page bottom, so
   * keep rules that push a line over never make a new page). Called where a section or a page starts.
   */
  private balanceRest(): void {
    this.balance = undefined;
    const cursor = this.cursor;
    if (!this.balancing || !cursor || this.columns.length < 2 || this.column !== 0) return;
    const widths = this.columns.map((column) => column.width);
    const available = this.bottom() - this.regionTop;
    const blocks = this.restOfSection(cursor, widths, available);
    if (!blocks) return;
    // Space before the first paragraph stays after a section or page break, not after overflow.
    const height = balancedHeight(blocks, widths, available, !this.naturalTop);
    if (height === undefined) return;
    this.balance = { bottom: this.regionTop + height + EPSILON, page: this.page };
  }

  /**
   * What is left of the section from `cursor`, for balancing; undefined as soon as it is clearly
   * more than the columns of this page hold (at the widest column's width, its lines' heights alone).
   */
  private restOfSection(cursor: FlowCursor, widths: number[], available: number): BalanceBlock[] | undefined {
    const widest = Math.max(...widths);
    const capacity = available * widths.length;
    const blocks: BalanceBlock[] = [];
    let total = 0;
    const add = (height: number): boolean => {
      total += height;
      return total <= capacity + EPSILON;
    };
    const section = cursor.blocks;
    // The empty paragraph that holds the section break (§17.6.17) is not balanced: Word evens out
    // the lines above it (its marks put two lines of four in each column with the mark below them,
    // where counting the mark would have made three and two).
    const last = section.length - 1;
    const end = section[last]?.kind === 'paragraph' && isEmptyMark(section[last]) ? last : section.length;
    for (let b = cursor.block; b < end; b++) {
      const block = section[b];
      if (!block) break;
      if (block.kind === 'table') {
        if (block.rows.length > MAX_BALANCED_ROWS) return undefined;
        const width = this.columnWidth;
        const table = this.balancedTables.get(block)?.laid ?? this.layoutTable(block);
        this.balancedTables.set(block, { width, laid: table });
        const heights = table.rows.map((row) => row.height);
        if (!heights.every(add)) return undefined;
        blocks.push({ kind: 'rows', heights, before: 0 });
        continue;
      }
      const previous = section[b - 1];
      const next = section[b + 1];
      const contextual = block.props.contextualSpacing;
      const sameAsPrevious = previous?.kind === 'paragraph' && previous.props.styleId === block.props.styleId;
      const sameAsNext = next?.kind === 'paragraph' && next.props.styleId === block.props.styleId;
      const first = this.laid(block, widths[0] ?? widest);
      const part = b === cursor.block && cursor.line > 0 && cursor.laid ? cursor : undefined;
      const from = part ? cursor.line : 0;
      const lines: BalanceParagraph['lines'] = part
        ? (width, placed) =>
            part.fixed || width === part.width || !part.laid
              ? (part.laid?.lines ?? [])
              : this.relaidFrom(block, [...placed], width).lines
        : (width, placed) =>
            placed.length === 0 ? this.laid(block, width).lines : this.relaidFrom(block, [...placed], width).lines;
      const bound = part ? (part.laid?.lines ?? []) : this.laid(block, widest).lines;
      for (let i = from; i < bound.length; i++) if (!add(bound[i]?.height ?? 0)) return undefined;
      blocks.push({
        kind: 'paragraph',
        lines,
        from,
        placed: part?.placed ?? [],
        before: contextual && sameAsPrevious ? 0 : first.spaceBefore,
        after: contextual && sameAsNext ? 0 : first.spaceAfter,
        minimumStart: Flow.minimumStart(first),
        widowControl: block.props.widowControl,
      });
    }
    return blocks;
  }

  private remaining(): number {
    return this.bottom() - this.y;
  }

  private place(laid: LaidParagraph, index: number): PlacedLine | undefined {
    const line = laid.lines[index];
    if (!line) return undefined;
    const placed: PlacedLine = {
      line,
      x: this.columns[this.column]?.x ?? 0,
      top: this.y,
      laid,
      index,
      columnWidth: this.columnWidth,
    };
    this.page.lines.push(placed);
    this.y += line.height;
    this.contentBottom = Math.max(this.contentBottom, this.y);
    this.columnEmpty = false;
    this.emptyPages.placed();
    return placed;
  }

  /**
   * Whether body content `height` tall fits here with the footnotes it brings. Content whose notes
   * do not fit goes to the next page, unless the page is still empty: then it stays, and notes
   * that do not fit even there are split (FootnoteFlow.add). Content without notes keeps the old
   * rule: the first content of a column stays whatever its height.
   */
  private verdict(height: number, notes: PendingNotes): Verdict {
    if (this.emptyPages.stuck()) return height <= this.remaining() + EPSILON ? 'fits' : 'force';
    const fresh = this.page.lines.length === 0;
    if (notes.ids.length === 0) {
      if (height <= this.remaining() + EPSILON) return 'fits';
      return this.columnEmpty && (fresh || this.footnotes.isEmpty) ? 'force' : 'advance';
    }
    if (this.footnotes.fits(Math.max(this.contentBottom, this.y + height), notes)) return 'fits';
    return fresh ? 'force' : 'advance';
  }

  /**
   * Of `line`'s height, what may hang past the bottom of the body when it is the last line of the
   * page: the room "multiple" line spacing adds below its text (LaidLine.spacingBelow), where that
   * bottom is the page's empty bottom margin. Not over footnotes, nor a footer that pushed the body
   * up, nor a balanced column's end. Word's own PDF of docx4j-getting-started-russian
   * (reference-pdf) ends a page with a 1.15-spaced paragraph whose second line reaches 0.6 pt past
   * the margin; with the hang our pages start where all twelve of Word's do (nine without).
   * Letting it hang over footnotes too keeps 18 of the 116 page starts Word marked in
   * poi-jung-journal-182-footnotes (108 with this rule), and over a footer that pushed the body up
   * loses one of docx4j w15repeatingsection_cf_opendope's.
   */
  private hanging(line: LaidLine | undefined, notes?: PendingNotes): number {
    const below = line?.spacingBelow;
    if (!below || !this.footnotes.isEmpty) return 0;
    const { height, margins } = this.page.pageSection.page;
    if (Math.abs(this.bottom() - (height - margins.bottom)) >= EPSILON) return 0;
    // Last, as it may lay out the line's notes: a line that brings notes keeps its spacing.
    return (notes ?? this.footnotes.referencedBy([line])).ids.length > 0 ? 0 : below;
  }

  /** Height of the first `count` lines. */
  private static heightOf(laid: LaidParagraph, from: number, count: number): number {
    let h = 0;
    for (let i = from; i < from + count && i < laid.lines.length; i++) h += laid.lines[i]?.height ?? 0;
    return h;
  }

  /**
   * Lines up to and including the first that ends in a page or column break: what keep rules can
   * hold together, since the lines after a hard break start a new page whatever they ask.
   */
  private static linesToBreak(laid: LaidParagraph): number {
    const at = laid.lines.findIndex((line) => line.breakAfter === 'page' || line.breakAfter === 'column');
    return at < 0 ? laid.lines.length : at + 1;
  }

  /** Lines that must stay together at the start of a paragraph on a page. */
  private static minimumStart(laid: LaidParagraph): number {
    const { keepLines, widowControl } = laid.paragraph.props;
    const unbroken = Flow.linesToBreak(laid);
    if (keepLines) return unbroken;
    return widowControl ? Math.min(2, unbroken) : 1;
  }

  /**
   * `following`: the height that must come after the run's last paragraph when it keeps with the
   * next (a table's first row). `at`: where the run starts in its section's blocks (FlowCursor).
   */
  flowParagraphs(paragraphs: Paragraph[], following = 0, at?: { blocks: Block[]; start: number }): void {
    /** Whether the content before keeps with this paragraph: this one is inside a keepNext chain, not its start. */
    let chained = this.chainOpen;
    for (let i = 0; i < paragraphs.length; i++) {
      const paragraph = paragraphs[i];
      if (!paragraph) continue;
      const cursor: FlowCursor | undefined = at && { blocks: at.blocks, block: at.start + i, line: 0 };
      this.cursor = cursor;
      const previous = paragraphs[i - 1];
      let laid = this.laid(paragraph, this.columnWidth);

      if (paragraph.props.pageBreakBefore && !(this.columnEmpty && this.column === 0)) {
        this.forceNewPage();
        laid = this.laid(paragraph, this.columnWidth);
        chained = false;
      }

      // Contextual spacing: no space between paragraphs of the same style (§17.3.1.9).
      const sameStyle = previous && previous.props.styleId === paragraph.props.styleId;
      // Automatic (HTML) space before is not added at the top of a page (Word, as in a browser).
      const autoAtTop = this.columnEmpty && paragraph.props.spacing.beforeAuto ? paragraph.props.spacing.before : 0;
      const spacingBefore =
        sameStyle && paragraph.props.contextualSpacing ? 0 : laid.spaceBefore - laid.borderBefore - autoAtTop;
      const before = spacingBefore + laid.borderBefore;

      // Between two paragraphs the larger of space-after and space-before applies: measured on
      // Word's own PDFs of the corpus (Title after 15 pt + Heading 1 before 24 pt → 24 pt; two
      // auto-spaced paragraphs → 14 pt), where adding them misplaced every later line. At the top
      // of a column the previous paragraph's space after is dropped; this one's space before stays.
      // The room asked for below counts this gap: without it, a first line could fit where its
      // second could not, and stay alone at the foot of the page. At the top of a column that
      // content overflowed into, Word drops the space before too (its PDFs of the corpus put such a
      // heading at the top margin); after a page, column or section break it keeps it.
      // Borders are not collapsed with the spacing: they are part of the paragraph's box, and
      // paragraphs of one border group share one box (paragraph-layout.ts spaceBetween).
      const gap = () => {
        if (this.columnEmpty) return this.naturalTop ? laid.borderBefore : before;
        const previousLaid = this.previousLaid;
        if (previousLaid) return spaceBetween(previousLaid, this.pendingAfter, laid, spacingBefore);
        return Math.max(spacingBefore, this.pendingAfter) + this.pendingBorder + laid.borderBefore;
      };

      // keepNext: this paragraph and the start of the next must share a page (§17.3.1.15).
      const minimum = Flow.minimumStart(laid);
      let needed = gap() + Flow.heightOf(laid, 0, minimum);
      /** The last line `needed` counts: its spacing below may hang past the body (hanging). */
      let lastNeeded = laid.lines[minimum - 1];
      // A hard break inside a paragraph ends the chain: what follows it is on the next page anyway.
      // The chain is weighed once, from its first paragraph: one that does not fit in the room
      // left starts the next page, and from there it flows, broken where a page is full if it is
      // longer than a page, its later paragraphs never moved on again. Word's page starts show
      // both: a chain of long headings moved whole to a new page and broken on it, and a contract
      // whose every paragraph keeps with the next filling its pages (weighed again from each
      // paragraph, the part that still fitted a page went on alone, one section a page).
      if (paragraph.props.keepNext && Flow.linesToBreak(laid) === laid.lines.length && !chained) {
        let chain = gap() + Flow.heightOf(laid, 0, laid.lines.length);
        let after = laid.spaceAfter;
        let chainLast: LaidLine | undefined;
        for (let j = i + 1; j <= paragraphs.length; j++) {
          const next = paragraphs[j];
          if (!next) {
            chain += after + following;
            chainLast = following > 0 ? undefined : chainLast;
            break;
          }
          const nextLaid = this.laid(next, this.columnWidth);
          chain += Math.max(after, nextLaid.spaceBefore);
          const nextUnbroken = Flow.linesToBreak(nextLaid);
          if (nextUnbroken < nextLaid.lines.length) {
            chain += Flow.heightOf(nextLaid, 0, nextUnbroken);
            chainLast = nextLaid.lines[nextUnbroken - 1];
            break;
          }
          if (!next.props.keepNext) {
            const start = Flow.minimumStart(nextLaid);
            chain += Flow.heightOf(nextLaid, 0, start);
            chainLast = nextLaid.lines[start - 1];
            break;
          }
          chain += Flow.heightOf(nextLaid, 0, nextLaid.lines.length);
          chainLast = nextLaid.lines[nextLaid.lines.length - 1];
          after = nextLaid.spaceAfter;
          // Past the room left the chain moves on whatever follows: no need to lay out the rest.
          if (chain > this.remaining() + EPSILON) break;
        }
        if (chain > needed) {
          needed = chain;
          lastNeeded = chainLast;
        }
      }
      // What hangs is worked out only for content that does not fit whole.
      const room = this.remaining() + EPSILON;
      if (!this.columnEmpty && needed > room && needed - this.hanging(lastNeeded) > room) {
        this.advance(true);
        laid = this.laid(paragraph, this.columnWidth);
      }

      this.y += gap();
      this.pendingAfter = 0;
      this.pendingBorder = 0;
      const unwrapped = laid;
      laid = this.wrapAroundFloats(paragraph, laid);
      // Lines around floating objects are laid out for their place on this page; others can be laid again at another width.
      const rebreakable = laid === unwrapped;
      /** The width each placed line was laid out at (its column's). */
      const widths: number[] = [];
      let index = 0;
      /** Lines of this paragraph in the current column. */
      let here = 0;
      /**
       * Columns of unequal width (w:cols w:equalWidth="0", §17.6.4): when the paragraph goes on in
       * a column of another width, Word breaks the rest of it at that width. Lines laid at the
       * width of the column before ran past this one's edge, beyond the page on the right.
       */
      const followColumn = () => {
        const width = this.columnWidth;
        const last = widths[index - 1];
        if (!rebreakable || index === 0 || index >= laid.lines.length || last === undefined) return;
        if (Math.abs(width - last) > EPSILON) laid = this.relaidFrom(paragraph, widths.slice(0, index), width);
      };
      /** The cursor at the line about to go on, before the flow moves on (a new page balances from it). */
      const markCursor = () => {
        if (!cursor) return;
        cursor.line = index;
        if (index === 0) {
          cursor.laid = undefined;
          return;
        }
        cursor.laid = laid;
        cursor.width = this.columnWidth;
        cursor.placed = widths.slice(0, index);
        cursor.fixed = !rebreakable;
      };
      while (index < laid.lines.length) {
        const line = laid.lines[index];
        if (!line) break;
        const notes = this.footnotes.referencedBy([line]);
        const verdict = this.verdict(line.height - this.hanging(line, notes), notes);
        if (verdict === 'advance') {
          if (paragraph.props.widowControl) index -= this.widowTakeBack(laid, index, here);
          markCursor();
          this.advance(true);
          here = 0;
          followColumn();
          continue;
        }
        if (verdict === 'force') this.footnotes.makeRoom(this.y + line.height);
        widths[index] = this.columnWidth;
        const placed = this.place(laid, index);
        this.footnotes.add(notes, this.contentBottom, placed);
        index++;
        here++;
        if (line.breakAfter === 'page' || line.breakAfter === 'column') markCursor();
        if (line.breakAfter === 'page') this.forceNewPage();
        else if (line.breakAfter === 'column') this.advance();
        if (line.breakAfter === 'page' || line.breakAfter === 'column') followColumn();
      }
      const next = paragraphs[i + 1];
      const nextSameStyle = next !== undefined && next.props.styleId === paragraph.props.styleId;
      this.pendingAfter = nextSameStyle && paragraph.props.contextualSpacing ? 0 : laid.spaceAfter - laid.borderAfter;
      this.pendingBorder = laid.borderAfter;
      this.previousLaid = laid;
      chained = paragraph.props.keepNext === true && Flow.linesToBreak(laid) === laid.lines.length;
      this.chainOpen = chained;
      // Placed: its lines live on in the page that holds them, and it is not asked for again.
      this.cache.delete(paragraph);
    }
  }

  /**
   * The paragraph laid out again with its first lines at the widths they were placed at (so they
   * break as before) and the rest at `width`: a line's room is the area less a right inset.
   */
  private relaidFrom(paragraph: Paragraph, placedWidths: number[], width: number): LaidParagraph {
    let area = width;
    for (const placed of placedWidths) area = Math.max(area, placed);
    return layoutParagraph(paragraph, this.fonts, {
      areaWidth: area,
      defaultTabStop: this.model.settings.defaultTabStop,
      justifyByShrinking: this.model.settings.justifyByShrinking === true,
      lineBox: (line) => ({ left: 0, right: area - (placedWidths[line] ?? width) }),
      ...this.gridContext(),
    });
  }

  /** Places the paragraph's floating objects and lays its lines out around the page's floats (float-wrap.ts). */
  private wrapAroundFloats(paragraph: Paragraph, laid: LaidParagraph): LaidParagraph {
    const column = this.columns[this.column] ?? { x: 0, width: this.columnWidth };
    this.floatWrap.anchor(paragraph, this.y, column, this.page.section.page, this.page.floats);
    return this.floatWrap.wrap(laid, this.y, column, (lineBox) =>
      layoutParagraph(paragraph, this.fonts, {
        areaWidth: column.width,
        defaultTabStop: this.model.settings.defaultTabStop,
        justifyByShrinking: this.model.settings.justifyByShrinking === true,
        lineBox,
        ...this.gridContext(),
      }),
    );
  }

  /** The current section's document grid, for its paragraphs' line heights. */
  private gridContext(): { lineGrid?: number } {
    const lineGrid = this.page.section.page.lineGrid;
    return lineGrid === undefined ? {} : { lineGrid };
  }

  /** A section's blocks: runs of paragraphs flow together (keep rules look ahead within them), tables row by row. */
  flowBlocks(blocks: Block[]): void {
    let run: Paragraph[] = [];
    let runStart = 0;
    blocks.forEach((block, b) => {
      if (block.kind === 'paragraph') {
        if (run.length === 0) runStart = b;
        run.push(block);
        return;
      }
      const rows = this.tableRows(block);
      this.flowParagraphs(run, rows.at(0)?.height ?? 0, { blocks, start: runStart });
      run = [];
      // Balancing measures from the start of a paragraph or a table, not from inside a table.
      this.cursor = undefined;
      this.flowTable(rows);
      this.chainOpen = lastRowKeepsWithNext(block);
      // The footnotes laid while it flowed are placed: not kept either (the rows never are).
      this.cache.clear();
    });
    this.flowParagraphs(run, 0, { blocks, start: runStart });
  }

  /** The whole table laid out at the column's width (column balancing measures all its rows). */
  private layoutTable(table: Table): LaidTable {
    return layoutTableRows(table, this.columnWidth, {
      fonts: this.fonts,
      laid: (p, w) => this.laid(p, w),
      measured: this.measured,
    });
  }

  /**
   * The table's rows for flowing, laid out as they are placed. Their cells' paragraphs are laid
   * once each and not cached: the rows hold them, and let them go once placed.
   */
  private tableRows(table: Table): RowWindow {
    // Column balancing laid this section's tables out already: used once, then let go of.
    const balanced = this.balancedTables.get(table);
    if (balanced && balanced.width === this.columnWidth) {
      this.balancedTables.delete(table);
      const { rows, ...laid } = balanced.laid;
      return new RowWindow({ ...laid, count: rows.length, rows: rows.values() });
    }
    return new RowWindow(
      tableRows(
        table,
        this.columnWidth,
        { fonts: this.fonts, laid: (p, w) => this.layoutParagraph(p, w), measured: this.measured },
        this.tableSpill,
      ),
    );
  }

  /**
   * How far past the text column a table may widen into the margins (Table.widensIntoMargins):
   * on a one-column page, to MIN_PAPER_MARGIN from the paper's edge on the narrower side.
   */
  private get tableSpill(): number {
    if (this.columns.length !== 1) return 0;
    const { margins } = this.page.section.page;
    return Math.max(0, Math.min(margins.left, margins.right) - MIN_PAPER_MARGIN);
  }

  private flowTable(rows: RowWindow): void {
    this.y += this.columnEmpty ? 0 : this.pendingAfter + this.pendingBorder;
    this.pendingAfter = 0;
    this.pendingBorder = 0;
    this.previousLaid = undefined;
    const anchor = this.y;
    const box = flowLaidTable(rows, this.tableTarget());
    const position = rows.table.floating;
    if (box && position) {
      // A floating table leaves the text where it was anchored; the text goes round it (§17.4.58).
      this.floatWrap.exclude({
        left: box.left - position.leftFromText,
        right: box.right + position.rightFromText,
        top: box.top - position.topFromText,
        bottom: box.bottom + position.bottomFromText,
      });
      this.y = anchor;
    }
  }

  /** The flow as table pagination sees it (src/engine/layout/table/table-pagination.ts). */
  private tableTarget(): TableFlowTarget {
    return {
      remaining: () => this.remaining(),
      fullHeight: () => this.bottom() - this.regionTop,
      atColumnTop: () => this.columnEmpty,
      columnX: () => this.columns[this.column]?.x ?? 0,
      cursor: () => this.y,
      verdict: (height, lines) => this.verdict(height, this.footnotes.referencedBy(lines)),
      advance: () => this.advance(true),
      area: () => {
        const { page } = this.page.section;
        return {
          pageWidth: page.width,
          marginLeft: page.margins.left + page.margins.gutter,
          marginRight: page.margins.right,
          bodyTop: this.page.bodyTop,
          columnX: this.columns[this.column]?.x ?? 0,
          columnWidth: this.columnWidth,
        };
      },
      // What of a table could not be placed as it asks (table-pagination.ts TableTrouble), named by table and row.
      warn: (message) => this.model.warnings.push(message),
      place: (height, paint, lines, force) => {
        const notes = this.footnotes.referencedBy(lines);
        if (force) this.footnotes.makeRoom(this.y + height);
        this.page.backgrounds.push(...paint.backgrounds);
        for (const item of paint.lines) {
          const placed = placedCellLine(item);
          if (placed) this.page.lines.push(placed);
        }
        this.page.rules.push(...paint.rules);
        this.y += height;
        this.contentBottom = Math.max(this.contentBottom, this.y);
        this.columnEmpty = false;
        this.emptyPages.placed();
        this.footnotes.add(notes, this.contentBottom, undefined);
      },
    };
  }

  /**
   * Endnotes after the last section's body, in the order of their references, under a separator
   * rule: Word's default placement (w:endnotePr/w:pos docEnd).
   */
  flowEndnotes(): void {
    const blocks = endnoteOrder(this.model).flatMap((id) => this.model.notes.endnotes[id] ?? []);
    if (blocks.length === 0) return;
    this.chainOpen = false;
    this.y += this.columnEmpty ? 0 : this.pendingAfter + this.pendingBorder;
    this.pendingAfter = 0;
    this.pendingBorder = 0;
    this.previousLaid = undefined;
    if (NOTE_SEPARATOR.height > this.remaining() + EPSILON && !this.columnEmpty) this.advance(true);
    const x = this.columns[this.column]?.x ?? 0;
    const y = this.y + NOTE_SEPARATOR.ruleOffset;
    const x2 = x + Math.min(NOTE_SEPARATOR.width, this.columnWidth);
    this.page.rules.push({ kind: 'line', x1: x, y1: y, x2, y2: y, width: NOTE_SEPARATOR.weight, color: '000000' });
    this.y += NOTE_SEPARATOR.height;
    this.contentBottom = Math.max(this.contentBottom, this.y);
    this.columnEmpty = false;
    this.flowBlocks(blocks);
  }

  /**
   * Widow/orphan control (ECMA-376 §17.3.1.44), when the line at `index` must go to the next
   * column: a paragraph's first line never stays alone at the foot of a column (an orphan) and its
   * last never starts one alone (a widow), so lines placed here go along. When the line before a
   * widow is the second of the paragraph, the first would be left an orphan: a three-line paragraph
   * with room for two moves whole, as Word does. Returns how many lines were taken back.
   */
  private widowTakeBack(laid: LaidParagraph, index: number, here: number): number {
    const startsHere = index === here;
    const widow = laid.lines.length - index === 1;
    const orphan = startsHere && here === 1;
    if (this.columnEmpty || here === 0 || !(widow || orphan)) return 0;
    // Giving it all would leave the column empty, or a lone middle line would be all that moves: the rule yields.
    if (!startsHere && here < 2) return 0;
    if (startsHere && here < 3 && this.page.lines.length <= here) return 0;
    const count = here >= 3 || !startsHere ? 1 : here;
    let taken = 0;
    while (taken < count && this.unplaceLast()) taken++;
    return taken;
  }

  /** Takes the last placed line back with its notes (widow control moves them to the next page); not a line whose notes were split. */
  private unplaceLast(): boolean {
    const last = this.page.lines[this.page.lines.length - 1];
    if (!last || !this.footnotes.takeBack(last)) return false;
    this.page.lines.pop();
    this.y = last.top;
    this.contentBottom = this.page.lines.reduce(
      (bottom, l) => Math.max(bottom, l.top + l.line.height),
      this.page.bodyTop,
    );
    return true;
  }
}

/** Whether every paragraph of a table's last row keeps with the next (a row Word keeps with what follows). */
function lastRowKeepsWithNext(table: Table): boolean {
  const last = table.rows[table.rows.length - 1];
  let any = false;
  for (const cell of last?.cells ?? []) {
    for (const block of cell.blocks) {
      if (block.kind !== 'paragraph') continue;
      if (!block.props.keepNext) return false;
      any = true;
    }
  }
  return any;
}

/** A paragraph that shows nothing but its mark: no text, label, picture or field. */
function isEmptyMark(paragraph: Paragraph): boolean {
  if (paragraph.label) return false;
  return paragraph.inlines.every(
    (inline) => inline.kind === 'bookmark' || (inline.kind === 'text' && inline.text === ''),
  );
}

/** A table cell's line, positioned on the page, as a placed line of the page (or of a header). */
export function placedCellLine(item: ContentLine): PlacedLine | undefined {
  const line = item.laid.lines[item.index];
  if (!line) return undefined;
  return {
    line,
    x: item.x,
    top: item.y,
    laid: item.laid,
    index: item.index,
    columnWidth: item.width,
    ...(item.turn ? { turn: item.turn } : {}),
  };
}

/**
 * Flows the document, handing each page to `finished` as soon as it is complete rather than
 * keeping them all: a long document's pages are painted and let go of while the rest flows.
 */
export function flowDocument(
  model: DocumentModel,
  fonts: FontSet,
  headerFooter: HeaderFooterMetrics,
  finished: FinishedPage,
): void {
  const flow = new Flow(model, fonts, headerFooter, finished);
  model.sections.forEach((section, index) => {
    flow.startSection(section, index, model.sections[index + 1]?.start === 'continuous');
    flow.flowBlocks(section.blocks);
  });
  flow.flowEndnotes();
  flow.finish();
}
