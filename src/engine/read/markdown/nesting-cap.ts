import type { MarkdownIt, StateBlock } from 'markdown-it';

/**
 * Past markdown-it's `maxNesting` (100 open blocks in the 'default' preset) its block parser
 * drops the rest of the container: "skip tail to the end" (ParserBlock.tokenize), so 100,000
 * nested `>` gave an empty document. The cap itself stays, since each level is a recursive call
 * and it is what keeps hostile nesting off the stack; what changes is that the content at the cap
 * is kept, flattened into the 100th level as paragraphs, as the HTML reader keeps the text of
 * elements past its own depth cap (src/engine/read/html/block-builder.ts MAX_DEPTH). Deeper block quote
 * markers are taken off each line, since they are structure, not text; everything else (list
 * markers, fences) stays as written.
 *
 * Inline nesting needs nothing: past the cap the inline parser keeps the characters as text.
 */
export function nestingCap(md: MarkdownIt): void {
  const block = md.block;
  const tokenize = block.tokenize.bind(block);
  block.tokenize = (state: StateBlock, startLine: number, endLine: number) => {
    if (state.level >= md.options.maxNesting) flattenRest(state, startLine, endLine);
    else tokenize(state, startLine, endLine);
  };
}

/** Leading block quote markers (CommonMark §5.1: `>` after up to three spaces, then an optional space). */
const QUOTE_MARKERS = /^(?:[ \t]*>)+[ \t]?/;

/**
 * What tokenize would have read (the lines up to `endLine` that are not indented less than the
 * container), as paragraphs split at blank lines.
 */
function flattenRest(state: StateBlock, startLine: number, endLine: number): void {
  let line = state.skipEmptyLines(startLine);
  let end = line;
  while (line < endLine) {
    if (!state.isEmpty(line)) {
      if ((state.sCount[line] ?? 0) < state.blkIndent) break;
      end = line + 1;
    }
    line++;
  }
  const first = state.skipEmptyLines(startLine);
  const lines = first < end ? state.getLines(first, end, state.blkIndent, false).split('\n') : [];
  let paragraph: string[] = [];
  const flush = () => {
    const content = paragraph.join('\n').trim();
    paragraph = [];
    if (content === '') return;
    state.push('paragraph_open', 'p', 1).map = [first, end];
    const inline = state.push('inline', '', 0);
    inline.content = content;
    inline.map = [first, end];
    inline.children = [];
    state.push('paragraph_close', 'p', -1);
  };
  for (const text of lines) {
    const unquoted = text.replace(QUOTE_MARKERS, '');
    if (unquoted.trim() === '') flush();
    else paragraph.push(unquoted);
  }
  flush();
  state.line = Math.max(end, first);
}
