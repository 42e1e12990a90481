import type { MarkdownIt } from 'markdown-it';

/**
 * A cheap filter in front of linkify-it's `test`. markdown-it 15's linkify rule calls `test` on
 * every inline block and again on each of its text tokens, and linkify-it 6's `test` scans the
 * whole text with its schema regular expression (Unicode punctuation classes before each schema
 * name): about 10 ms of a 300 KB document. A link can only be found where one of the schema names
 * occurs (`test` looks for them, case-insensitively) or, for bare e-mail addresses, where there
 * is an `@`. The schemas are linkify-it's defaults (`http:`, `https:`, `ftp:`, `mailto:`, `//`)
 * and www-autolinks.ts's `www.`; text holding none of them and no `@` cannot link, so skipping
 * `test` for it changes nothing. The test in
 * test/markdown/markdown-renderer.test.ts checks that every schema passes this filter.
 */
export const MAY_LINK = /https?:|ftp:|mailto:|\/\/|www\.|@/i;

export function linkifyPretest(md: MarkdownIt): void {
  const linkify = md.linkify;
  const test = linkify.test.bind(linkify);
  // An own property on this instance only: other instances keep linkify-it's own test.
  linkify.test = (text: string) => MAY_LINK.test(text) && test(text);
}
