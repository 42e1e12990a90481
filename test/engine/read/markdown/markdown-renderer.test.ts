import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { MAY_LINK } from '../../../../src/engine/read/markdown/linkify-pretest';
import { renderMarkdown } from '../../../../src/engine/read/markdown/markdown-renderer';
import { wwwAutolinks } from '../../../../src/engine/read/markdown/www-autolinks';

const html = (source: string) => renderMarkdown(source).html;

/** Runs `work` and returns how long it took, in ms. */
function timed(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

describe('renderMarkdown: CommonMark and GFM blocks', () => {
  it('renders ATX and setext headings', () => {
    expect(html('# One\n\n### Three ###\n\nTwo\n---\n')).toBe('<h1>One</h1>\n<h3>Three</h3>\n<h2>Two</h2>\n');
  });

  it('renders emphasis, strong, strikethrough and inline code', () => {
    expect(html('*a* **b** ~~c~~ `d <e>`')).toBe(
      '<p><em>a</em> <strong>b</strong> <s>c</s> <code>d &lt;e&gt;</code></p>\n',
    );
  });

  it('renders fenced code with its language as class="language-x"', () => {
    expect(html('```ts\nconst a = 1 < 2;\n```\n')).toBe(
      '<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>\n',
    );
    expect(html('~~~\nplain\n~~~\n')).toBe('<pre><code>plain\n</code></pre>\n');
  });

  it('renders block quotes, nested', () => {
    expect(html('> a\n>> b\n')).toBe('<blockquote>\n<p>a</p>\n<blockquote>\n<p>b</p>\n</blockquote>\n</blockquote>\n');
  });

  it('keeps an ordered list start (CommonMark §5.2)', () => {
    expect(html('3. c\n4. d\n')).toBe('<ol start="3">\n<li>c</li>\n<li>d</li>\n</ol>\n');
  });

  it('renders nested lists and loose lists with paragraphs', () => {
    expect(html('- a\n  - b\n- c\n')).toBe('<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n<li>c</li>\n</ul>\n');
    expect(html('- a\n\n- b\n')).toBe('<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n');
  });

  it('renders thematic breaks and hard line breaks (two spaces and backslash)', () => {
    expect(html('a\n\n***\n\nb')).toBe('<p>a</p>\n<hr>\n<p>b</p>\n');
    expect(html('a  \nb\\\nc')).toBe('<p>a<br>\nb<br>\nc</p>\n');
  });

  it('renders tables with column alignment as style="text-align:…" (GFM §4.10)', () => {
    const out = html('| L | C | R | N |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |\n');
    expect(out).toContain('<th style="text-align:left">L</th>');
    expect(out).toContain('<th style="text-align:center">C</th>');
    expect(out).toContain('<th style="text-align:right">R</th>');
    expect(out).toContain('<th>N</th>');
    expect(out).toContain('<td style="text-align:right">3</td>');
    expect(out).toMatch(/^<table>\n<thead>/);
  });

  it('passes raw HTML blocks and inline HTML through', () => {
    expect(html('<div class="x">\n*not emphasis*\n</div>\n\ntext <kbd>Ctrl</kbd>')).toBe(
      '<div class="x">\n*not emphasis*\n</div>\n<p>text <kbd>Ctrl</kbd></p>\n',
    );
  });
});

describe('renderMarkdown: task lists (GFM §5.3)', () => {
  it('turns [ ], [x] and [X] into disabled checkboxes and marks the item', () => {
    expect(html('- [ ] todo\n- [x] done\n- [X] Done\n- plain\n')).toBe(
      '<ul>\n' +
        '<li class="task-list-item"><input type="checkbox" disabled> todo</li>\n' +
        '<li class="task-list-item"><input type="checkbox" disabled checked> done</li>\n' +
        '<li class="task-list-item"><input type="checkbox" disabled checked> Done</li>\n' +
        '<li>plain</li>\n' +
        '</ul>\n',
    );
  });

  it('works in ordered and loose lists, and only at the start of the item', () => {
    expect(html('1. [x] a\n\n   b\n')).toBe(
      '<ol>\n<li class="task-list-item">\n<p><input type="checkbox" disabled checked> a</p>\n<p>b</p>\n</li>\n</ol>\n',
    );
    expect(html('- a [ ] b\n')).toBe('<ul>\n<li>a [ ] b</li>\n</ul>\n');
    expect(html('- [y] no\n- [ ]no\n- \\[ ] escaped\n- `[ ]` code\n')).not.toContain('checkbox');
    expect(html('[ ] outside a list\n')).toBe('<p>[ ] outside a list</p>\n');
  });

  it('takes a marker that ends the item', () => {
    expect(html('- [ ]\n')).toBe('<ul>\n<li class="task-list-item"><input type="checkbox" disabled></li>\n</ul>\n');
  });
});

describe('renderMarkdown: links, autolinks, images', () => {
  it('renders inline and reference links and images', () => {
    expect(html('[a](https://a.example "T") [b][r] ![alt](pic.png)\n\n[r]: https://b.example\n')).toBe(
      '<p><a href="https://a.example" title="T">a</a> <a href="https://b.example">b</a> <img src="pic.png" alt="alt"></p>\n',
    );
  });

  it('renders CommonMark autolinks and linkifies URLs, www. and e-mail addresses (GFM §6.9)', () => {
    expect(html('<https://a.example/x>')).toBe('<p><a href="https://a.example/x">https://a.example/x</a></p>\n');
    expect(html('see https://a.example/x.')).toBe(
      '<p>see <a href="https://a.example/x">https://a.example/x</a>.</p>\n',
    );
    expect(html('visit www.commonmark.org/help.')).toBe(
      '<p>visit <a href="http://www.commonmark.org/help">www.commonmark.org/help</a>.</p>\n',
    );
    expect(html('(www.example.com/a_(b))).')).toBe(
      '<p>(<a href="http://www.example.com/a_(b)">www.example.com/a_(b)</a>)).</p>\n',
    );
    expect(html('www.example.com/a&amp;')).toBe(
      '<p><a href="http://www.example.com/a">www.example.com/a</a>&amp;</p>\n',
    );
    expect(html('mail foo@bar.example.com')).toBe(
      '<p>mail <a href="mailto:foo@bar.example.com">foo@bar.example.com</a></p>\n',
    );
  });

  it('does not link bare file names or domains without www. (as GFM)', () => {
    expect(html('README.md index.js example.com www.')).toBe('<p>README.md index.js example.com www.</p>\n');
  });

  it('passes every linkify schema through the pretest (linkify-pretest.ts), so skipping test() changes nothing', () => {
    const md = new MarkdownIt('default', { linkify: true }).use(wwwAutolinks);
    const schemas = Object.keys((md.linkify as unknown as { __schemas__: Record<string, unknown> }).__schemas__);
    expect(schemas.length).toBeGreaterThan(0);
    for (const schema of schemas) expect(MAY_LINK.test(`x ${schema.toUpperCase()}y`), schema).toBe(true);
    expect(MAY_LINK.test('plain text, no links; README.md')).toBe(false);
    expect(html('WWW.EXAMPLE.COM and HTTPS://A.EXAMPLE')).toContain('href="HTTPS://A.EXAMPLE"');
  });

  it('drops javascript: and vbscript: links', () => {
    expect(html('[x](javascript:alert(1))')).toBe('<p>[x](javascript:alert(1))</p>\n');
    expect(html('<javascript:alert(1)>')).not.toContain('href');
    expect(html('[x](vbscript:msgbox)')).not.toContain('href');
    expect(html('![x](javascript:alert(1))')).not.toContain('<img');
  });
});

describe('renderMarkdown: footnotes (markdown-it-footnote)', () => {
  it('renders references and the footnote section in the shape the HTML reader recognises', () => {
    const out = html('Text[^n] and more.[^2]\n\n[^n]: The note.\n[^2]: Second.\n');
    expect(out).toContain('<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup>');
    expect(out).toContain('<sup class="footnote-ref"><a href="#fn2" id="fnref2">[2]</a></sup>');
    expect(out).toContain('<hr class="footnotes-sep">\n<section class="footnotes">\n<ol class="footnotes-list">');
    expect(out).toContain(
      '<li id="fn1" class="footnote-item"><p>The note. <a href="#fnref1" class="footnote-backref">↩︎</a></p>',
    );
  });
});

describe('renderMarkdown: front matter and title', () => {
  it('removes a YAML front matter block and takes its title', () => {
    const rendered = renderMarkdown('---\ntitle: "Quarterly report"\nauthor: [A, B]\n---\n# Body\n');
    expect(rendered).toEqual({ html: '<h1>Body</h1>\n', title: 'Quarterly report' });
  });

  it('accepts ... as the closing line and CRLF line ends', () => {
    expect(renderMarkdown('---\r\ntitle: T\r\n...\r\nx\r\n')).toEqual({ html: '<p>x</p>\n', title: 'T' });
  });

  it('removes front matter without a title, or with a non-string title', () => {
    expect(renderMarkdown('---\nlang: en\n---\nx')).toEqual({ html: '<p>x</p>\n' });
    expect(renderMarkdown('---\ntitle: [1, 2]\n---\nx')).toEqual({ html: '<p>x</p>\n' });
  });

  it('leaves a block that is not a YAML mapping as Markdown', () => {
    // A thematic break, then a setext heading (CommonMark §4.1, §4.3).
    expect(renderMarkdown('---\nJust text\n---\n')).toEqual({ html: '<hr>\n<h2>Just text</h2>\n' });
    expect(renderMarkdown('---\n- a\n- b\n---\n').html).toContain('<li>a</li>');
    expect(renderMarkdown('---\n: : bad: [\n---\n').title).toBeUndefined();
    expect(renderMarkdown('---\n\nno closing line\n').html).toBe('<hr>\n<p>no closing line</p>\n');
  });

  it('only looks for front matter at the very start and within 64 KB', () => {
    expect(renderMarkdown('x\n---\ntitle: T\n---\n').title).toBeUndefined();
    const long = `---\ntitle: T\nbody: "${'a'.repeat(70_000)}"\n---\n`;
    expect(renderMarkdown(long).title).toBeUndefined();
  });

  it('refuses a YAML alias bomb rather than expanding it', () => {
    const bomb = [
      '---',
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      'title: T',
      '---',
      'x',
    ].join('\n');
    const elapsed = timed(() => expect(renderMarkdown(bomb).title).toBeUndefined());
    expect(elapsed).toBeLessThan(2000);
  });

  it('takes the title from a pandoc title block', () => {
    expect(renderMarkdown('% The Title\n% Author\n% 2024-01-01\n\nBody\n')).toEqual({
      html: '<p>Body</p>\n',
      title: 'The Title',
    });
  });
});

describe('renderMarkdown: hostile input', () => {
  it('renders 10 000 nested block quotes without exhausting the stack', () => {
    const elapsed = timed(() => expect(html(`${'>'.repeat(10_000)} deep`)).toContain('<blockquote>'));
    expect(elapsed).toBeLessThan(3000);
  });

  it('keeps what lies past 100 levels of block quotes, flattened into the 100th (nesting-cap.ts)', () => {
    for (const source of [`${'>'.repeat(100_000)} deep text`, `${'> '.repeat(100_000)}deep text`]) {
      let out = '';
      expect(timed(() => (out = html(source)))).toBeLessThan(3000);
      expect(out.match(/<blockquote>/g)).toHaveLength(100);
      expect(out).toContain('<p>deep text</p>');
    }
    // Paragraphs at the cap stay paragraphs; deeper quote markers go, other text stays.
    const deep = '>'.repeat(150);
    expect(
      html(`${deep} first *one*
${deep} > still first
${deep}
${deep} - second

after`),
    ).toBe(
      `${'<blockquote>\n'.repeat(100)}<p>first <em>one</em>\nstill first</p>\n<p>- second</p>\n${'</blockquote>\n'.repeat(100)}<p>after</p>\n`,
    );
  });

  it('keeps what lies past the nesting cap in lists', () => {
    expect(html(`${'- '.repeat(200)}x`)).toMatch(/<li>[^<]*x[^<]*<\/li>/);
    const source = Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n');
    const out = html(`${source}\n\nafter`);
    expect(out).toContain('item 199');
    expect(out).toContain('<p>after</p>');
  });

  it('renders 10 000 nested list items', () => {
    const source = Array.from({ length: 10_000 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n');
    const elapsed = timed(() => expect(html(source)).toContain('<li>'));
    expect(elapsed).toBeLessThan(5000);
    const markers = timed(() => expect(html(`${'- '.repeat(10_000)}x`)).toContain('<ul>'));
    expect(markers).toBeLessThan(3000);
  });

  it('renders 10 000 nested emphasis and brackets', () => {
    const emphasis = `${'*a '.repeat(10_000)}b${' a*'.repeat(10_000)}`;
    expect(timed(() => expect(html(emphasis)).toContain('<em>'))).toBeLessThan(3000);
    const unclosed = `${'*_'.repeat(50_000)}x`;
    expect(timed(() => html(unclosed))).toBeLessThan(3000);
    const brackets = `${'['.repeat(10_000)}x${'](u)'.repeat(10_000)}`;
    expect(timed(() => html(brackets))).toBeLessThan(3000);
  });

  it('renders a 1 MB line', () => {
    const line = 'word '.repeat(200_000);
    expect(timed(() => expect(html(line).length).toBeGreaterThan(1_000_000))).toBeLessThan(3000);
  });

  it('renders 50 000 link reference definitions', () => {
    const definitions = Array.from({ length: 50_000 }, (_, i) => `[r${i}]: https://example.com/${i}`).join('\n');
    const source = `${definitions}\n\n[last][r49999] [first][r0]`;
    const elapsed = timed(() =>
      expect(html(source)).toBe(
        '<p><a href="https://example.com/49999">last</a> <a href="https://example.com/0">first</a></p>\n',
      ),
    );
    expect(elapsed).toBeLessThan(5000);
  });

  it('linkifies 1 MB of text with many URLs in linear time', () => {
    const text = 'see https://example.com/a?b=1 and www.example.org/x, or mail a@b.example. '.repeat(14_000);
    let out = '';
    expect(timed(() => (out = html(text)))).toBeLessThan(5000);
    expect(out.match(/<a href=/g)?.length).toBe(42_000);
  });

  it('linkifies a long run without spaces quickly', () => {
    const run = `www.${'a.'.repeat(100_000)}com ${'('.repeat(50_000)}www.x.org${')'.repeat(50_000)}`;
    expect(timed(() => html(run))).toBeLessThan(3000);
  });
});
