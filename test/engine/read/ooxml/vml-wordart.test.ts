import { describe, expect, it } from 'vitest';
import type { DrawingInline, Paragraph, Shape } from '../../../../src/engine/model/document';
import { vmlWordArt as wordArt } from '../../../helpers/docx-fixture';
import { paragraphs, readParts, textOf, texts } from './model-queries';

function drawingOf(paragraph: Paragraph | undefined): DrawingInline {
  const drawing = paragraph?.inlines.find((inline): inline is DrawingInline => inline.kind === 'drawing');
  if (!drawing) throw new Error('no drawing in the paragraph');
  return drawing;
}

function shapeOf(paragraph: Paragraph | undefined): Shape {
  const { drawing } = drawingOf(paragraph);
  if (drawing.kind !== 'shapes' || !drawing.shapes[0]) throw new Error('not a shape drawing');
  return drawing.shapes[0];
}

describe('VML WordArt (textpath, ECMA-376 Part 4 §19.1.2.22)', () => {
  it('reads the string, its font and the box as a shape whose text fits it', () => {
    const model = readParts({
      document: `<w:body><w:p>${wordArt({ attributes: 'fillcolor="#1f4e79"' })}</w:p></w:body>`,
    });
    const [p] = paragraphs(model);
    const drawing = drawingOf(p);
    expect(drawing.width).toBeCloseTo(410.25, 3);
    expect(drawing.height).toBe(108);
    expect(drawing.floating).toBeUndefined();
    const shape = shapeOf(p);
    // The glyphs take the fill; the box itself is not painted.
    expect(shape.fill).toBeUndefined();
    expect(shape.stroke).toBeUndefined();
    expect(shape.text?.fit).toEqual({ trim: true });
    expect(shape.text?.insets).toEqual({ left: 0, top: 0, right: 0, bottom: 0 });
    // VML strokes black 0.75 pt unless told otherwise: WordArt's glyphs are outlined.
    expect(shape.text?.outline).toEqual({ color: '000000', width: 0.75 });
    const [line] = (shape.text?.blocks ?? []) as Paragraph[];
    expect(line && textOf(line)).toBe('Hello world!');
    const run = line && texts(line)[0];
    expect(run?.props.font).toBe('Arial Black');
    expect(run?.props.color).toBe('1F4E79');
    expect(model.warnings.join(' ')).not.toMatch(/WordArt|left out/);
  });

  it('reads size, weight, style and lines of the text path, and a shape with neither fill nor stroke', () => {
    const model = readParts({
      document: `<w:body><w:p>${wordArt({
        attributes: 'filled="f" stroked="f"',
        textPath:
          '<v:textpath style="font-family:Georgia;font-size:20pt;font-weight:bold;font-style:italic" string="One&#xA;Two"/>',
      })}</w:p></w:body>`,
    });
    const shape = shapeOf(paragraphs(model)[0]);
    const lines = (shape.text?.blocks ?? []) as Paragraph[];
    expect(lines.map(textOf)).toEqual(['One', 'Two']);
    const props = lines[0] && texts(lines[0])[0]?.props;
    expect(props).toMatchObject({ font: 'Georgia', size: 20, bold: true, italic: true });
    expect(shape.text?.fit).toEqual({ trim: false });
    expect(shape.text?.outline).toBeUndefined();
    expect(shape.text?.unfilled).toBe(true);
  });

  it('fills a gradient WordArt with the average colour of its stops', () => {
    // Half black to white, half white: three quarters white on average.
    const model = readParts({
      document: `<w:body><w:p>${wordArt({
        attributes: 'fillcolor="black" stroked="f"',
        inner: '<v:fill type="gradient" colors="0 black;32768f white;1 white"/>',
      })}${wordArt({ attributes: 'fillcolor="#ff0000"', inner: '<v:fill type="gradient" color2="#0000ff"/>' })}</w:p></w:body>`,
    });
    const [p] = paragraphs(model);
    const drawings = (p?.inlines ?? []).filter((inline): inline is DrawingInline => inline.kind === 'drawing');
    const colors = drawings.map((d) => {
      const shape = d.drawing.kind === 'shapes' ? d.drawing.shapes[0] : undefined;
      const line = shape?.text?.blocks[0] as Paragraph | undefined;
      return line ? texts(line)[0]?.props.color : undefined;
    });
    expect(colors).toEqual(['BFBFBF', '800080']);
  });

  it('places an absolutely positioned WordArt like other VML shapes, with its rotation', () => {
    const model = readParts({
      document: `<w:body><w:p>${wordArt({
        style:
          'position:absolute;margin-left:0;margin-top:0;width:412pt;height:247pt;rotation:315;z-index:-251658752;mso-position-horizontal:center;mso-position-horizontal-relative:margin;mso-position-vertical:center;mso-position-vertical-relative:margin',
        attributes: 'fillcolor="silver" stroked="f"',
        textPath: '<v:textpath style="font-family:&quot;Calibri&quot;;font-size:1pt" string="DRAFT"/>',
      })}</w:p></w:body>`,
    });
    const p = paragraphs(model)[0];
    const drawing = drawingOf(p);
    expect(drawing.floating).toMatchObject({ behindText: true, x: { from: 'margin', align: 'center' } });
    expect(shapeOf(p).rotation).toBe(315);
  });

  it('keeps the text of a WordArt inside a VML group in its paragraph', () => {
    const model = readParts({
      document: `<w:body><w:p><w:r><w:pict><v:group style="width:200pt;height:100pt" coordsize="200,100"><v:shape style="position:absolute;left:0;top:0;width:200;height:50"><v:textpath string="Grouped art"/></v:shape></v:group></w:pict></w:r></w:p></w:body>`,
    });
    expect(textOf(paragraphs(model)[0] as Paragraph)).toBe('Grouped art');
  });

  it('warns about a WordArt without a size instead of dropping it silently', () => {
    const model = readParts({ document: `<w:body><w:p>${wordArt({ style: 'width:0;height:0' })}</w:p></w:body>` });
    expect(model.warnings.join(' ')).toMatch(/WordArt.*Hello world!.*left out/);
  });
});

describe('DrawingML text warps (§20.1.9.19 prstTxWarp)', () => {
  const wsp = (warp: string) =>
    `<w:r><w:drawing><wp:inline><wp:extent cx="2540000" cy="635000"/><wp:docPr id="1" name="WordArt 1"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2540000" cy="635000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></wps:spPr><wps:txbx><w:txbxContent><w:p><w:r><w:t>Warped</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr wrap="none" fromWordArt="1"><a:prstTxWarp prst="${warp}"><a:avLst/></a:prstTxWarp></wps:bodyPr></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;

  it('fits the text of a warp to the shape; textNoShape is plain text', () => {
    const model = readParts({
      document: `<w:body><w:p>${wsp('textArchUp')}</w:p><w:p>${wsp('textNoShape')}</w:p></w:body>`,
    });
    const [warped, plain] = paragraphs(model);
    expect(shapeOf(warped).text?.fit).toEqual({ trim: false });
    expect(shapeOf(plain).text?.fit).toBeUndefined();
  });
});
