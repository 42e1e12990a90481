/**
 * Collects the inline content of one block flow (the body, a table cell, a footnote) and turns it
 * into paragraphs at each block boundary: CSS 2.1 §9.2.1.1 anonymous block boxes, with white space
 * processed per CSS Text 3 §4 (collapsible runs of spaces, tabs and newlines become one space;
 * spaces at the start and end of a line go; pre keeps everything: tabs as tabs, newlines as
 * line breaks).
 */

import type { Block, BookmarkInline, Inline, LinkTarget, MathList, Paragraph, RunProperties } from '../../model';
import { CHARACTER_STYLES } from '../markup';
import type { ParagraphDelta, RunDelta, StyleCascade } from '../ooxml';
import { type BlockFormat, HR_BORDER, type PendingLabel, type RunFormat, type WhiteSpaceMode } from './format-context';
import { LABEL_HANGING } from './list-numbering';
import type { RunStyles } from './run-styles';

type Piece =
  | { kind: 'text'; text: string; whiteSpace: WhiteSpaceMode; run: RunFormat }
  | { kind: 'break'; run: RunFormat }
  | { kind: 'image'; run: RunFormat; imageId: string; width: number; height: number; description?: string }
  | { kind: 'bookmark'; name: string }
  | { kind: 'note'; run: RunFormat; id: string; mark: string }
  | { kind: 'math'; run: RunFormat; display: boolean; nodes: MathList };

/** SourceCode's own left indent (86 twips) that a direct indent must keep. */
const CODE_INDENT = 4.3;

export class FlowBuilder {
  readonly blocks: Block[] = [];
  private pieces: Piece[] = [];
  private block: BlockFormat | undefined;
  private pendingLabel: PendingLabel | undefined;
  private pageBreak = false;
  private carriedBookmarks: string[] = [];

  private readonly cascade: StyleCascade;
  private readonly runStyles: RunStyles;

  constructor(runStyles: RunStyles) {
    this.runStyles = runStyles;
    this.cascade = runStyles.cascade;
  }

  addText(text: string, whiteSpace: WhiteSpaceMode, run: RunFormat, block: BlockFormat): void {
    if (text === '') return;
    this.block ??= block;
    const last = this.pieces[this.pieces.length - 1];
    // Adjacent text of one format (split by comments or entity boundaries) is one piece.
    if (last?.kind === 'text' && last.run === run && last.whiteSpace === whiteSpace) last.text += text;
    else this.pieces.push({ kind: 'text', text, whiteSpace, run });
  }

  addBreak(run: RunFormat, block: BlockFormat): void {
    this.block ??= block;
    this.pieces.push({ kind: 'break', run });
  }

  addImage(
    run: RunFormat,
    block: BlockFormat,
    image: { imageId: string; width: number; height: number; description?: string },
  ): void {
    this.block ??= block;
    this.pieces.push({ kind: 'image', run, ...image });
  }

  addNote(run: RunFormat, block: BlockFormat, id: string, mark: string): void {
    this.block ??= block;
    this.pieces.push({ kind: 'note', run, id, mark });
  }

  addMath(run: RunFormat, block: BlockFormat, display: boolean, nodes: MathList): void {
    this.block ??= block;
    this.pieces.push({ kind: 'math', run, display, nodes });
  }

  addBookmark(name: string): void {
    this.pieces.push({ kind: 'bookmark', name });
  }

  setLabel(label: PendingLabel): void {
    this.pendingLabel = label;
  }

  hasLabel(): boolean {
    return this.pendingLabel !== undefined;
  }

  /** The next paragraph starts a page (break-before / page-break-after on the previous block). */
  breakPageBeforeNext(): void {
    this.pageBreak = true;
  }

  /**
   * The last block so far keeps with the next (break-after: avoid on it, break-before: avoid on
   * the next; CSS Fragmentation 3 §3.2): a paragraph's keepNext, a table's last row's paragraphs'.
   */
  keepLastWithNext(): void {
    const last = this.blocks[this.blocks.length - 1];
    if (last) keep(last, { keepNext: true });
  }

  /**
   * break-inside: avoid (CSS Fragmentation 3 §3.2) on the blocks from `first`: each paragraph's
   * lines kept together and kept with the next one inside, so the whole moves to the next page
   * when it does not fit (page-flow.ts gives up on a chain longer than a page, as Word does);
   * table rows are not split.
   */
  keepTogether(first: number): void {
    for (let i = Math.max(0, first); i < this.blocks.length; i++) {
      const block = this.blocks[i] as Block;
      keep(block, i < this.blocks.length - 1 ? { keepLines: true, keepNext: true } : { keepLines: true });
    }
  }

  /**
   * Ends the current paragraph. Without content it makes nothing (CSS collapses empty anonymous
   * boxes) unless `force` (an empty table cell, a list item with only its label) or a label waits.
   */
  flush(block: BlockFormat, force = false): void {
    // Every block element flushes before and after itself, mostly with nothing waiting: no
    // resolve() then (this.block is only set along with a piece, so it is already unset).
    if (this.pieces.length === 0 && !force) return;
    const format = this.block ?? block;
    const pieces = this.pieces;
    this.pieces = [];
    this.block = undefined;
    const styleId = format.styleId;
    const inlines = this.resolve(pieces, styleId);
    const hasContent = inlines.some((i) => i.kind !== 'bookmark');
    if (!hasContent && !force) {
      // Bookmarks of empty blocks move on to the next paragraph.
      for (const i of inlines) if (i.kind === 'bookmark') this.carriedBookmarks.push(i.name);
      return;
    }
    const paragraph = this.paragraph(format, inlines, {});
    // Paragraphs of an item after its labelled first one stay in the list, unlabelled.
    if (!paragraph.list && format.listItem) paragraph.list = { ...format.listItem, continuation: true };
    this.blocks.push(paragraph);
  }

  /** A horizontal rule (HTML §4.4.2): an empty paragraph drawing a bottom border. */
  addRule(block: BlockFormat): void {
    this.flush(block);
    this.blocks.push(this.paragraph(block, [], { borders: { bottom: HR_BORDER } }));
  }

  /** Places a finished block (a table) after flushing the paragraph before it. */
  addBlock(block: Block, format: BlockFormat): void {
    this.flush(format);
    this.blocks.push(block);
  }

  /** Ends the flow: bookmarks still waiting get a paragraph of their own. */
  finish(block: BlockFormat): Block[] {
    this.flush(block);
    if (this.carriedBookmarks.length > 0 || this.pendingLabel) this.flush(block, true);
    return this.blocks;
  }

  private paragraph(format: BlockFormat, inlines: Inline[], extra: ParagraphDelta): Paragraph {
    const styleId = format.styleId;
    const direct: ParagraphDelta = { ...extra };
    if (format.justification !== undefined) direct.justification = format.justification;
    if (format.indentLeft > 0) direct.left = format.indentLeft + (styleId === 'SourceCode' ? CODE_INDENT : 0);
    if (format.before !== undefined) direct.before = format.before;
    if (format.after !== undefined) direct.after = format.after;
    if (format.line) {
      direct.line = format.line.line;
      direct.lineRule = format.line.lineRule;
    }
    if (format.shading !== undefined) direct.shading = format.shading;
    if (this.pageBreak) {
      direct.pageBreakBefore = true;
      this.pageBreak = false;
    }
    if (this.carriedBookmarks.length > 0) {
      inlines.unshift(...this.carriedBookmarks.map((name): BookmarkInline => ({ kind: 'bookmark', name })));
      this.carriedBookmarks = [];
    }
    const pending = this.pendingLabel;
    this.pendingLabel = undefined;
    if (pending) direct.firstLine = -LABEL_HANGING;
    const props = this.runStyles.paragraph(styleId, direct);
    const markProps = this.cascade.runProperties(undefined, styleId, undefined, undefined);
    const paragraph: Paragraph = { kind: 'paragraph', props, markProps, inlines };
    if (pending) {
      paragraph.label = { ...pending.label, props: this.runProps(styleId, pending.run) };
      paragraph.list = pending.list;
    }
    return paragraph;
  }

  private runProps(styleId: string, run: RunFormat, characterStyle = run.characterStyle): RunProperties {
    return this.runStyles.of(styleId, characterStyle, run.delta);
  }

  /** Pieces → inlines: white space processed, formats resolved, like neighbours merged. */
  private resolve(pieces: Piece[], styleId: string): Inline[] {
    const out: Inline[] = [];
    /** Which out[] entries are collapsible text, whose trailing space may be removed. */
    const collapsible: boolean[] = [];
    let lastSpace = true;
    const trimLineEnd = () => {
      for (let i = out.length - 1; i >= 0; i--) {
        const inline = out[i] as Inline;
        if (inline.kind === 'bookmark') continue;
        if (inline.kind !== 'text' || !collapsible[i]) return;
        inline.text = inline.text.replace(/ +$/, '');
        if (inline.text !== '') return;
        out.splice(i, 1);
        collapsible.splice(i, 1);
      }
    };
    const pushText = (text: string, run: RunFormat, canCollapse: boolean) => {
      if (text === '') return;
      const props = this.runProps(styleId, run);
      const last = out[out.length - 1];
      if (
        last?.kind === 'text' &&
        last.props === props &&
        last.link === run.link &&
        last.styleId === run.characterStyle &&
        collapsible[out.length - 1] === canCollapse
      ) {
        last.text += text;
        return;
      }
      // Made whole, with the same key order as before: properties added to an object literal
      // afterwards would each need an out-of-object property store.
      const link = run.link;
      const characterStyle = run.characterStyle;
      out.push(
        link
          ? characterStyle
            ? { kind: 'text', text, props, link, styleId: characterStyle }
            : { kind: 'text', text, props, link }
          : characterStyle
            ? { kind: 'text', text, props, styleId: characterStyle }
            : { kind: 'text', text, props },
      );
      collapsible.push(canCollapse);
    };
    const withLink = <T extends Inline>(inline: T, run: RunFormat): T => {
      if (run.link && inline.kind !== 'bookmark') (inline as { link?: LinkTarget }).link = run.link;
      if (run.characterStyle && inline.kind !== 'bookmark')
        (inline as { styleId?: string }).styleId = run.characterStyle;
      return inline;
    };
    /**
     * Line breaks made from a newline of preserved text: one ending the block draws no line (CSS
     * Text 3 §4.1.3). Made on the first one: most paragraphs have no preformatted text.
     */
    let preservedBreaks: Set<Inline> | undefined;
    const lineBreak = (run: RunFormat) => {
      trimLineEnd();
      out.push(withLink({ kind: 'break', type: 'line', props: this.runProps(styleId, run) }, run));
      collapsible.push(false);
      lastSpace = true;
    };
    for (const piece of pieces) {
      switch (piece.kind) {
        case 'text': {
          if (piece.whiteSpace === 'pre') {
            const lines = piece.text.split('\n');
            lines.forEach((line, index) => {
              if (index > 0) {
                lineBreak(piece.run);
                preservedBreaks ??= new Set();
                preservedBreaks.add(out[out.length - 1] as Inline);
              }
              const cells = line.split('\t');
              cells.forEach((cell, cellIndex) => {
                if (cellIndex > 0) {
                  out.push(withLink({ kind: 'tab', props: this.runProps(styleId, piece.run) }, piece.run));
                  collapsible.push(false);
                }
                pushText(cell, piece.run, false);
              });
              if (line !== '') {
                lastSpace = line.endsWith(' ');
              }
            });
            break;
          }
          // Without pre-line the text is one line: no array or callback per text piece.
          const lines = piece.whiteSpace === 'pre-line' ? piece.text.split('\n') : undefined;
          const count = lines ? lines.length : 1;
          for (let index = 0; index < count; index++) {
            if (index > 0) lineBreak(piece.run);
            let text = collapseWhiteSpace(lines ? (lines[index] as string) : piece.text);
            if (lastSpace && text.charCodeAt(0) === 32) text = text.slice(1);
            if (text === '') continue;
            pushText(text, piece.run, true);
            lastSpace = text.charCodeAt(text.length - 1) === 32;
          }
          break;
        }
        case 'break':
          lineBreak(piece.run);
          break;
        case 'image':
          out.push(
            withLink(
              {
                kind: 'image',
                imageId: piece.imageId,
                width: piece.width,
                height: piece.height,
                props: this.runProps(styleId, piece.run),
                ...(piece.description ? { description: piece.description } : {}),
              },
              piece.run,
            ),
          );
          collapsible.push(false);
          lastSpace = false;
          break;
        case 'note': {
          const delta: RunDelta = { ...piece.run.delta };
          delete delta.verticalAlign;
          out.push({
            kind: 'noteReference',
            note: 'footnote',
            id: piece.id,
            mark: piece.mark,
            styleId: CHARACTER_STYLES.footnoteReference,
            props: this.cascade.runProperties(undefined, styleId, CHARACTER_STYLES.footnoteReference, delta),
          });
          collapsible.push(false);
          lastSpace = false;
          break;
        }
        case 'math':
          out.push(
            withLink(
              { kind: 'math', display: piece.display, nodes: piece.nodes, props: this.runProps(styleId, piece.run) },
              piece.run,
            ),
          );
          collapsible.push(false);
          lastSpace = false;
          break;
        case 'bookmark':
          out.push({ kind: 'bookmark', name: piece.name });
          collapsible.push(false);
          break;
      }
    }
    trimLineEnd();
    const last = out[out.length - 1];
    if (last && preservedBreaks?.has(last)) out.pop();
    return out;
  }
}

/** Sets keep flags on a block: a paragraph's own, a table's rows (cantSplit) and its last row's paragraphs (keepNext). */
function keep(block: Block, flags: { keepNext?: boolean; keepLines?: boolean }): void {
  if (block.kind === 'paragraph') {
    // Paragraph properties are shared between paragraphs of one format: replaced, not changed.
    const props = block.props;
    if ((flags.keepNext && !props.keepNext) || (flags.keepLines && !props.keepLines))
      block.props = {
        ...props,
        ...(flags.keepNext ? { keepNext: true } : {}),
        ...(flags.keepLines ? { keepLines: true } : {}),
      };
    return;
  }
  if (block.kind !== 'table') return;
  if (flags.keepLines) for (const row of block.rows) row.cantSplit = true;
  if (flags.keepNext) {
    const last = block.rows[block.rows.length - 1];
    for (const cell of last?.cells ?? []) for (const b of cell.blocks) keep(b, { keepNext: true });
  }
}

/** Runs of collapsible white space become one space; most text has none to collapse, so it is tested first. */
function collapseWhiteSpace(text: string): string {
  return /[\t\n\r\f]| {2}/.test(text) ? text.replace(/[ \t\n\r\f]+/g, ' ') : text;
}
