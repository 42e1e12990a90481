import { describe, expect, it } from 'vitest';
import { blocksOf, paragraphs, read, textOf, texts } from './html-fixtures';

describe('readHtml: blocks and inlines', () => {
  it('maps headings, paragraphs and the title', async () => {
    const model = await read(
      '<title>Doc  title</title><h1 id="intro">Intro</h1><p>Some <b>bold</b> and <i>italic</i>.</p><h3>Third</h3>',
    );
    expect(model.properties.title).toBe('Doc title');
    const [h1, p, h3] = paragraphs(model);
    expect(h1?.props.styleId).toBe('Heading1');
    expect(h1?.props.outlineLevel).toBe(0);
    expect(h1?.inlines[0]).toEqual({ kind: 'bookmark', name: 'intro' });
    expect(textOf(h1)).toBe('Intro');
    expect(p?.props.styleId).toBe('Normal');
    expect(textOf(p)).toBe('Some bold and italic.');
    const runs = texts(p);
    expect(runs.find((r) => r.text === 'bold')?.props.bold).toBe(true);
    expect(runs.find((r) => r.text === 'italic')?.props.italic).toBe(true);
    expect(h3?.props.styleId).toBe('Heading3');
    expect(model.sections[0]?.page).toMatchObject({ width: 612, height: 792 });
  });

  it('front matter title wins over <title>', async () => {
    const model = await read('<title>Inner</title><p>x</p>', 'Outer');
    expect(model.properties.title).toBe('Outer');
  });

  it('collapses white space and trims at block edges', async () => {
    const model = await read('<p>\n   Hello   \n  <span> big </span>  world  </p><div>  a<br>  b  </div>');
    const [p, div] = paragraphs(model);
    expect(textOf(p)).toBe('Hello big world');
    expect(textOf(div)).toBe('a\nb');
  });

  it('keeps pre exactly, as one SourceCode paragraph', async () => {
    const model = await read('<pre><code class="language-js">if (a) {\n\treturn  1;\n}\n</code></pre>');
    const [pre] = paragraphs(model);
    expect(pre?.props.styleId).toBe('SourceCode');
    expect(pre?.inlines.map((i) => i.kind)).toEqual(['text', 'break', 'tab', 'text', 'break', 'text']);
    expect(textOf(pre)).toBe('if (a) {\n\treturn  1;\n}');
    expect(texts(pre)[0]?.props.font).toBe('Courier New');
    expect(texts(pre)[0]?.styleId).toBeUndefined();
  });

  it('maps inline formatting tags', async () => {
    const model = await read(
      '<p><u>u</u><s>s</s><sup>sup</sup><sub>sub</sub><code>code</code><mark>mark</mark><small>small</small><del>del</del><ins>ins</ins></p>',
      undefined,
      { printBackground: true },
    );
    const runs = texts(paragraphs(model)[0]);
    const by = (t: string) => runs.find((r) => r.text === t);
    expect(by('u')?.props.underline).toBe('single');
    expect(by('s')?.props.strike).toBe(true);
    expect(by('sup')?.props.verticalAlign).toBe('superscript');
    expect(by('sub')?.props.verticalAlign).toBe('subscript');
    expect(by('code')?.styleId).toBe('VerbatimChar');
    expect(by('code')?.props.font).toBe('Courier New');
    expect(by('mark')?.props.highlight).toBe('FFFF00');
    expect(by('small')?.props.size).toBe(9);
    expect(by('del')?.props.strike).toBe(true);
    expect(by('ins')?.props.underline).toBe('single');
  });

  it('maps links: external, internal through bookmarks, dangerous ones dropped', async () => {
    const model = await read(
      '<p><a href="https://example.com/x">ext</a> <a href="mailto:a@b.c">mail</a> <a href="#sec-2">int</a> <a href="javascript:alert(1)">js</a> <a href="data:text/html,x">data</a></p><h2 id="sec-2">Two</h2>',
    );
    const runs = texts(paragraphs(model)[0]);
    const by = (t: string) => runs.find((r) => r.text === t);
    expect(by('ext')?.link).toEqual({ url: 'https://example.com/x' });
    expect(by('ext')?.styleId).toBe('Hyperlink');
    expect(by('ext')?.props.color).toBe('0563C1');
    expect(by('mail')?.link).toEqual({ url: 'mailto:a@b.c' });
    expect(by('int')?.link).toEqual({ anchor: 'sec_2' });
    expect(by('js')?.link).toBeUndefined();
    expect(by('js')?.styleId).toBeUndefined();
    expect(by('data')?.link).toBeUndefined();
    expect(paragraphs(model)[1]?.inlines[0]).toEqual({ kind: 'bookmark', name: 'sec_2' });
  });

  it('sanitises and dedupes bookmark names', async () => {
    const model = await read(
      `<h1 id="1 intro">A</h1><h1 id="1-intro">B</h1><h1 id="${'x'.repeat(60)}">C</h1><p><a href="#1-intro">go</a></p>`,
    );
    const names = paragraphs(model)
      .slice(0, 3)
      .map((p) => (p.inlines[0]?.kind === 'bookmark' ? p.inlines[0].name : ''));
    expect(names[0]).toBe('h_1_intro');
    expect(names[1]).toBe('h_1_intro_2');
    expect(names[2]).toHaveLength(40);
    expect(texts(paragraphs(model)[3])[0]?.link).toEqual({ anchor: 'h_1_intro_2' });
  });

  it('maps blockquote, hr, figure caption and anonymous text', async () => {
    const model = await read(
      'loose text<blockquote><p>quoted</p><blockquote>deeper</blockquote></blockquote><hr><figure><figcaption>Fig 1</figcaption></figure>',
    );
    const [loose, quote, deeper, rule, caption] = paragraphs(model);
    expect(textOf(loose)).toBe('loose text');
    expect(quote?.props.styleId).toBe('Quote');
    expect(quote?.props.indent.left).toBe(18);
    expect(deeper?.props.styleId).toBe('Quote');
    expect(deeper?.props.indent.left).toBe(36);
    expect(rule?.inlines).toEqual([]);
    expect(rule?.props.borders.bottom?.style).toBe('single');
    expect(caption?.props.styleId).toBe('Caption');
  });

  it('drops script, style, template, svg, iframe and comments; keeps form values', async () => {
    const model = await read(
      '<p>a<script>bad()</script><style>p{}</style><template>t</template><svg><text>s</text></svg><iframe>i</iframe><!-- c -->b</p><p><input value="typed"> <select><option>one</option><option selected>two</option></select> <button>Go</button> <textarea>area</textarea> <input type="hidden" value="h"></p>',
    );
    const [p, form] = paragraphs(model);
    expect(textOf(p)).toBe('ab');
    expect(textOf(form)).toBe('typed two Go area');
  });

  it('shows fallback content written for agents without scripts, plug-ins or media', async () => {
    const model = await read(
      '<noscript><p>Enable <b>JavaScript</b></p></noscript><p>A<video controls><source src="v.mp4"><track src="t.vtt">Your browser cannot play <a href="v.mp4">the video</a></video></p><p><audio src="a.mp3">Get <a href="a.mp3">the audio</a></audio><canvas>chart</canvas><object data="x.swf"><param name="q" value="hidden">plug-in text</object></p>',
    );
    expect(paragraphs(model).map(textOf)).toEqual([
      'Enable JavaScript',
      'AYour browser cannot play the video',
      'Get the audiochartplug-in text',
    ]);
  });

  it('keeps a heading with nothing to draw as an empty heading, and drops other empty blocks', async () => {
    const model = await read(
      '<h1><svg><path d="M0 0"/></svg></h1><div></div><h2></h2><h3><div>Inner</div></h3><p>End</p>',
    );
    expect(paragraphs(model).map((p) => [p.props.styleId, textOf(p)])).toEqual([
      ['Heading1', ''],
      ['Heading2', ''],
      ['Heading3', 'Inner'],
      ['Normal', 'End'],
    ]);
  });

  it('gives an empty document one empty paragraph', async () => {
    for (const html of ['', '   ', '<html><head><title>x</title></head><body></body></html>']) {
      const blocks = blocksOf(await read(html));
      expect(blocks).toHaveLength(1);
      expect(blocks[0]?.kind).toBe('paragraph');
    }
  });

  it('sets the fixed section and settings', async () => {
    const model = await read('<p>x</p>');
    const section = model.sections[0];
    // 1 in, and at the sides the body's 8px (6 pt) margin (html-page-fit.test.ts).
    expect(section?.page.margins).toEqual({
      top: 72,
      right: 78,
      bottom: 72,
      left: 78,
      header: 36,
      footer: 36,
      gutter: 0,
    });
    expect(section?.columns).toEqual({ count: 1, space: 36, separator: false });
    expect(section?.pageNumbering).toEqual({ format: 'decimal' });
    expect(model.settings).toEqual({ defaultTabStop: 36, evenAndOddHeaders: false });
    expect(model.embeddedFonts).toEqual([]);
  });
});
