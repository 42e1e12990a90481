import { parse } from 'yaml';

/**
 * Metadata at the top of a Markdown file, in the two forms pandoc reads:
 *
 * - A YAML block (pandoc's `yaml_metadata_block`, Jekyll's front matter): `---` on the first line,
 *   YAML, then `---` or `...` on a line of its own. It is taken only when it parses as a YAML
 *   mapping (or is empty); anything else, such as a thematic break followed by a setext heading
 *   (CommonMark §4.1, §4.3), stays Markdown.
 * - A pandoc title block (`pandoc_title_block`): up to three leading lines starting with `%`
 *   (title, author, date); only the title is used.
 */
export interface SplitSource {
  /** The Markdown left once the metadata is removed. */
  body: string;
  title?: string;
}

/** A metadata block is looked for only within this many characters, so a stray `---` costs nothing. */
const MAX_FRONT_MATTER_CHARS = 64 * 1024;
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;
const TITLE_LINE = /^%[^\n]*(?:\n|$)/;

export function splitFrontMatter(source: string): SplitSource {
  return yamlBlock(source) ?? titleBlock(source) ?? { body: source };
}

function yamlBlock(source: string): SplitSource | undefined {
  const opening = OPENING.exec(source);
  if (!opening) return undefined;
  const window = source.slice(opening[0].length, opening[0].length + MAX_FRONT_MATTER_CHARS);
  const closing = CLOSING.exec(window);
  if (!closing) return undefined;
  const yaml = window.slice(0, closing.index);
  let data: unknown;
  try {
    // The yaml package builds plain data (no custom tags run code) and caps alias expansion
    // (maxAliasCount, default 100), so a "billion laughs" block is an error, not a memory blow-up.
    data = parse(yaml);
  } catch {
    return undefined;
  }
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) return undefined;
  let end = opening[0].length + closing.index + closing[0].length;
  if (source[end] === '\r') end++;
  if (source[end] === '\n') end++;
  const body = source.slice(end);
  const title = (data as Record<string, unknown> | null)?.title;
  return typeof title === 'string' && title.trim() !== '' ? { body, title: title.trim() } : { body };
}

function titleBlock(source: string): SplitSource | undefined {
  if (!source.startsWith('%')) return undefined;
  let rest = source;
  const lines: string[] = [];
  for (let i = 0; i < 3; i++) {
    const line = TITLE_LINE.exec(rest);
    if (!line) break;
    lines.push(line[0]);
    rest = rest.slice(line[0].length);
  }
  const title = lines[0]?.slice(1).trim();
  return title ? { body: rest, title } : { body: rest };
}
