import type { MarkdownIt, StateCore, Token } from 'markdown-it';

/**
 * GFM task list items (GFM spec §5.3 "Task list items (extension)"): a list item whose first
 * paragraph begins with `[ ]`, `[x]` or `[X]` followed by whitespace (or the end of the item's text)
 * gets a disabled checkbox in place of the marker, and `class="task-list-item"` on its `<li>`: the
 * shape the HTML reader recognises (`<li class="task-list-item"><input type="checkbox" disabled checked>`).
 *
 * Works on tokens after inline parsing, so a marker inside code, a link or an escaped `\[ ]` is
 * never taken for one: only the first text child of the paragraph that opens the item counts.
 */
const MARKER = /^\[([ xX])\](?=\s|$)/;

export function taskLists(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'gfm_task_lists', markTaskItems);
  md.renderer.rules.task_checkbox = (tokens, index) =>
    tokens[index]?.meta?.checked ? '<input type="checkbox" disabled checked>' : '<input type="checkbox" disabled>';
}

function markTaskItems(state: StateCore): void {
  const tokens = state.tokens;
  // Pattern list_item_open, paragraph_open, inline: the item's first block is a paragraph.
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i] as Token;
    if (inline.type !== 'inline' || tokens[i - 1]?.type !== 'paragraph_open') continue;
    const item = tokens[i - 2] as Token;
    if (item.type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    if (first?.type !== 'text') continue;
    const marker = MARKER.exec(first.content);
    if (!marker) continue;
    const checkbox = new state.Token('task_checkbox', 'input', 0);
    checkbox.meta = { checked: marker[1] !== ' ' };
    first.content = first.content.slice(marker[0].length);
    inline.children?.unshift(checkbox);
    item.attrJoin('class', 'task-list-item');
  }
}
