import { describe, expect, it } from 'vitest';
import { paragraphs, read, textOf, texts } from './html-fixtures';

describe('readHtml: CSS', () => {
  it('cascades by specificity, then order; inline style wins; !important beats both', async () => {
    const model = await read(`<style>
      p { color: red; }
      .note { color: green; }
      p { color: blue; }
      #x { color: #123456; }
      p.imp { color: purple !important; }
      div p { font-weight: bold; }
      div > p.child { font-style: italic; }
      @media screen { p { color: yellow; } }
      @media print { .printed { text-decoration: underline; } }
      @font-face { font-family: x; }
      p:hover { color: pink; }
    </style>
    <p>plain</p><p class="note">note</p><p id="x" class="note">id</p><p style="color: orange">inline</p>
    <p class="imp" style="color: orange">important</p><div><p class="child printed">nested</p></div>`);
    const color = (i: number) => texts(paragraphs(model)[i])[0]?.props.color;
    expect(color(0)).toBe('0000FF');
    expect(color(1)).toBe('008000');
    expect(color(2)).toBe('123456');
    expect(color(3)).toBe('FFA500');
    expect(color(4)).toBe('800080');
    const nested = texts(paragraphs(model)[5])[0]?.props;
    expect(nested).toMatchObject({ bold: true, italic: true, underline: 'single' });
  });

  it('maps font properties and inheritance', async () => {
    const model = await read(`<style>body { font-family: "Georgia", serif; } .mono { font-family: monospace }</style>
      <div style="font-size: 20px; color: rgb(255, 0, 0)"><p>inherited <span style="font-size: 0.5em">half</span> <span class="mono">mono</span></p></div>
      <p style="font: italic bold 12pt sans-serif">short</p><p style="font-size: x-large; font-weight: 700">big</p>`);
    const [p, short, big] = paragraphs(model);
    const runs = texts(p);
    expect(runs[0]?.props).toMatchObject({ font: 'Georgia', size: 15, color: 'FF0000' });
    expect(runs.find((r) => r.text === 'half')?.props.size).toBe(7.5);
    expect(runs.find((r) => r.text === 'mono')?.props.font).toBe('Courier New');
    expect(texts(short)[0]?.props).toMatchObject({ font: 'Arial', size: 12, bold: true, italic: true });
    expect(texts(big)[0]?.props).toMatchObject({ size: 18, bold: true });
  });

  it('maps paragraph properties: align, line-height, spacing, shading, page breaks', async () => {
    const model = await read(
      `<div style="text-align: center"><p>centred</p></div>
      <p style="text-align: justify; line-height: 1.5; margin-top: 20px; margin-bottom: 0; background-color: #ff0">j</p>
      <p style="line-height: 18pt; page-break-before: always">exact</p>
      <p style="break-after: page">before break</p><p>after break</p>
      <p align="right">legacy</p><p style="margin-left: 36pt">indented</p>`,
      undefined,
      { printBackground: true },
    );
    const [centred, j, exact, beforeBreak, afterBreak, legacy, indented] = paragraphs(model);
    expect(centred?.props.align).toBe('center');
    expect(j?.props).toMatchObject({ align: 'both', shading: 'FFFF00' });
    expect(j?.props.spacing).toMatchObject({ line: 1.5, lineRule: 'auto', before: 15, after: 0 });
    expect(exact?.props.spacing).toMatchObject({ line: 18, lineRule: 'atLeast' });
    expect(exact?.props.pageBreakBefore).toBe(true);
    expect(beforeBreak?.props.pageBreakBefore).toBe(false);
    expect(afterBreak?.props.pageBreakBefore).toBe(true);
    expect(legacy?.props.align).toBe('right');
    expect(indented?.props.indent.left).toBe(36);
  });

  it('maps colours: hex, rgb, names, transparent; decorations; inline background', async () => {
    const model = await read(
      '<p><span style="color:#abc">a</span><span style="color:rebeccapurple">b</span><span style="background-color: lightgray">c</span><span style="text-decoration: line-through">d</span><a href="https://x.y" style="text-decoration:none">e</a><span style="color:transparent">f</span></p>',
      undefined,
      { printBackground: true },
    );
    const by = (t: string) => texts(paragraphs(model)[0]).find((r) => r.text === t)?.props;
    expect(by('a')?.color).toBe('AABBCC');
    expect(by('b')?.color).toBe('663399');
    expect(by('c')?.shading).toBe('D3D3D3');
    expect(by('d')?.strike).toBe(true);
    expect(by('e')?.underline).toBeUndefined();
    expect(by('f')?.color).toBeUndefined();
  });

  it('honours display:none and white-space', async () => {
    const model = await read(
      '<style>.gone{display:none}</style><p>a<span class="gone">hidden</span>b</p><p style="white-space: pre">x  y</p><p style="white-space: pre-line">l1   \n  l2</p>',
    );
    const [a, pre, preLine] = paragraphs(model);
    expect(textOf(a)).toBe('ab');
    expect(textOf(pre)).toBe('x  y');
    expect(textOf(preLine)).toBe('l1\nl2');
  });

  it('survives malformed CSS', async () => {
    const model = await read(
      '<style>p { color: red; ;;; } }}} @media {{{ p[ { color: </style><p style="color:;;:red;font-size:-3px;width:">ok</p>',
    );
    expect(textOf(paragraphs(model)[0])).toBe('ok');
  });
});
