import MarkdownIt from 'markdown-it';
import footnote from 'markdown-it-footnote';
import { splitFrontMatter } from './front-matter';
import { linkifyPretest } from './linkify-pretest';
import { nestingCap } from './nesting-cap';
import { taskLists } from './task-lists';
import { wwwAutolinks } from './www-autolinks';

/**
 * Markdown to HTML, the first half of the Markdown reader: the HTML reader (src/html) turns the
 * result into the document model. Going through HTML is what makes CommonMark's raw HTML blocks
 * and inline HTML (spec §4.6, §6.6) mean what they say, since they are only HTML once the whole
 * output is parsed as HTML.
 *
 * The dialect is GitHub Flavored Markdown as far as markdown-it goes: CommonMark plus tables
 * (GFM §4.10) and strikethrough (§6.5) from its default preset, task list items (§5.3,
 * task-lists.ts), autolinks via linkify (§6.9, see www-autolinks.ts for the differences), and
 * footnotes (markdown-it-footnote, the pandoc/PHP Markdown Extra syntax GitHub also accepts).
 */
export interface RenderedMarkdown {
  html: string;
  /** From YAML front matter's `title`, or a pandoc `% Title` block. */
  title?: string;
}

export function renderMarkdown(source: string): RenderedMarkdown {
  const { body, title } = splitFrontMatter(source);
  const html = createMarkdownIt().render(body);
  return title === undefined ? { html } : { html, title };
}

/**
 * A fresh instance per call: making one costs about 0.02 ms (measured on Node 22), and linkify-it
 * caches global regular expressions whose lastIndex is carried from scan to scan, so a shared
 * instance would be mutable state that outlives a request.
 *
 * Safety comes from markdown-it's defaults, kept on purpose:
 * - `maxNesting` 100 (the 'default' preset): block quotes, lists and inline nesting deeper than
 *   that stop nesting, so 100 000 `>` cannot exhaust the stack. What lies deeper is kept as text
 *   at the 100th level (nesting-cap.ts), where markdown-it alone would drop it.
 * - `validateLink` drops `javascript:`, `vbscript:`, `file:` and `data:` URLs other than
 *   `data:image/(gif|png|jpeg|webp)` from links and images written in Markdown. Raw HTML is
 *   passed through as written; the HTML reader decides what it honours.
 * - typographer off: quotes and dashes stay as written, as on GitHub.
 */
function createMarkdownIt() {
  return new MarkdownIt('default', { html: true, linkify: true, typographer: false })
    .use(nestingCap)
    .use(footnote)
    .use(taskLists)
    .use(wwwAutolinks)
    .use(linkifyPretest);
}
