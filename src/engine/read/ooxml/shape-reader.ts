import type {
  Block,
  Paragraph,
  ParagraphProperties,
  RunProperties,
  Shape,
  ShapeGeometry,
  ShapeStroke,
  ShapeText,
} from '../../model';
import { colorOf, type DrawingStyleContext, drawingRunProps, fillOf, strokeOf } from './drawingml-style';
import type { StoryContext } from './read-context';
import { emu } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * DrawingML shapes into the drawing model: Word's shapes and text boxes (wps:wsp, §20.4 / §20.1.9
 * spPr) and SmartArt's pre-drawn shapes (dsp:sp in the diagramDrawing part, whose a:txBody holds
 * DrawingML text, §21.1.2). Positions are in the frame of the drawing that holds them.
 */

const GEOMETRIES = new Set<string>([
  'rect',
  'roundRect',
  'ellipse',
  'line',
  'triangle',
  'rtTriangle',
  'diamond',
  'parallelogram',
  'hexagon',
  'octagon',
  'chevron',
  'homePlate',
  'rightArrow',
  'leftArrow',
  'upArrow',
  'downArrow',
]);
const LINE_LIKE = /^(line|straightConnector\d*|bentConnector\d*|curvedConnector\d*)$/;

/** Office theme line widths for a:lnRef idx 1–3 (the default theme's a:lnStyleLst). */
const THEME_LINE_WIDTHS = [0, 0.5, 1, 1.5];

export interface ShapeFrame {
  /** Offset and scale from the shape's own coordinates (EMU in points) to the drawing's frame. */
  x: number;
  y: number;
  scaleX: number;
  scaleY: number;
}

export const IDENTITY_FRAME: ShapeFrame = { x: 0, y: 0, scaleX: 1, scaleY: 1 };

function geometryOf(spPr: XmlElement | undefined): ShapeGeometry {
  const preset = child(spPr, 'a:prstGeom')?.attributes.prst ?? 'rect';
  if (LINE_LIKE.test(preset)) return 'line';
  if (preset === 'flowChartAlternateProcess') return 'roundRect';
  if (preset === 'flowChartDecision') return 'diamond';
  if (preset === 'flowChartConnector') return 'ellipse';
  return GEOMETRIES.has(preset) ? (preset as ShapeGeometry) : 'rect';
}

/** The box of a:xfrm (or dsp's), mapped through the enclosing groups' frame. */
export function transformBox(
  xfrm: XmlElement | undefined,
  frame: ShapeFrame,
  fallback: { width: number; height: number },
): { x: number; y: number; width: number; height: number; rotation: number; flipH: boolean; flipV: boolean } {
  const off = child(xfrm, 'a:off');
  const ext = child(xfrm, 'a:ext');
  const width = emu(ext?.attributes.cx);
  const height = emu(ext?.attributes.cy);
  return {
    x: frame.x + (emu(off?.attributes.x) ?? 0) * frame.scaleX,
    y: frame.y + (emu(off?.attributes.y) ?? 0) * frame.scaleY,
    width: width === undefined ? fallback.width : width * frame.scaleX,
    height: height === undefined ? fallback.height : height * frame.scaleY,
    rotation: (Number(xfrm?.attributes.rot) || 0) / 60000,
    flipH: xfrm?.attributes.flipH === '1' || xfrm?.attributes.flipH === 'true',
    flipV: xfrm?.attributes.flipV === '1' || xfrm?.attributes.flipV === 'true',
  };
}

/** Fill and outline from spPr, else from the shape style's references (§20.1.4.2.10 fillRef / lnRef). */
function paintOf(
  spPr: XmlElement | undefined,
  style: XmlElement | undefined,
  context: DrawingStyleContext,
  geometry: ShapeGeometry,
): { fill?: string; stroke?: ShapeStroke } {
  const out: { fill?: string; stroke?: ShapeStroke } = {};
  const fill = fillOf(spPr, context);
  const fillRef = child(style, 'a:fillRef');
  if (fill !== undefined && fill !== 'none') out.fill = fill;
  else if (fill === undefined && fillRef && Number(fillRef.attributes.idx) > 0 && geometry !== 'line') {
    const color = colorOf(fillRef, context);
    if (color) out.fill = color;
  }
  const lnRef = child(style, 'a:lnRef');
  const refColor = lnRef && Number(lnRef.attributes.idx) > 0 ? colorOf(lnRef, context) : undefined;
  const stroke = strokeOf(child(spPr, 'a:ln'), context, refColor);
  if (stroke !== undefined && stroke !== 'none') {
    if (child(spPr, 'a:ln')?.attributes.w === undefined && lnRef) {
      stroke.width = THEME_LINE_WIDTHS[Number(lnRef.attributes.idx)] ?? stroke.width;
    }
    out.stroke = stroke;
  } else if (stroke === undefined && refColor) {
    out.stroke = { color: refColor, width: THEME_LINE_WIDTHS[Number(lnRef?.attributes.idx)] ?? 0.75 };
  }
  return out;
}

function insetsOf(bodyPr: XmlElement | undefined): ShapeText['insets'] {
  const inset = (name: string, fallback: number) => emu(bodyPr?.attributes[name]) ?? fallback;
  return { left: inset('lIns', 7.2), top: inset('tIns', 3.6), right: inset('rIns', 7.2), bottom: inset('bIns', 3.6) };
}

function anchorOf(bodyPr: XmlElement | undefined): ShapeText['anchor'] {
  const anchor = bodyPr?.attributes.anchor;
  return anchor === 'ctr' ? 'middle' : anchor === 'b' ? 'bottom' : 'top';
}

/** Text whose colour is "auto" takes the colour the shape style's fontRef gives (white on a filled shape). */
function recolor(blocks: Block[], color: string | undefined): Block[] {
  if (color === undefined) return blocks;
  for (const block of blocks) {
    if (block.kind === 'table') {
      for (const row of block.rows) for (const cell of row.cells) recolor(cell.blocks, color);
      continue;
    }
    if (block.markProps.color === undefined) block.markProps = { ...block.markProps, color };
    for (const inline of block.inlines) {
      if (inline.kind !== 'bookmark' && inline.props.color === undefined) inline.props = { ...inline.props, color };
    }
  }
  return blocks;
}

/** What every shape has, Word's or SmartArt's: geometry, position and size, fill and outline. */
function shapeBase(
  spPr: XmlElement | undefined,
  style: XmlElement | undefined,
  context: DrawingStyleContext,
  frame: ShapeFrame,
  size: { width: number; height: number },
): Shape {
  const geometry = geometryOf(spPr);
  const box = transformBox(child(spPr, 'a:xfrm'), frame, size);
  return { geometry, ...box, ...paintOf(spPr, style, context, geometry) };
}

/** A Word shape or text box (wps:wsp): geometry, paint, and its w:txbxContent laid out inside. */
export function readWordShape(
  wsp: XmlElement,
  story: StoryContext,
  context: DrawingStyleContext,
  frame: ShapeFrame,
  size: { width: number; height: number },
): Shape {
  const style = child(wsp, 'wps:style');
  const shape = shapeBase(child(wsp, 'wps:spPr'), style, context, frame, size);
  const content = child(child(wsp, 'wps:txbx'), 'w:txbxContent');
  if (content !== undefined) {
    const bodyPr = child(wsp, 'wps:bodyPr');
    const fontColor = colorOf(child(style, 'a:fontRef'), context);
    shape.text = {
      blocks: recolor(story.doc.readBlocks(content, story, undefined).blocks, fontColor),
      insets: insetsOf(bodyPr),
      anchor: anchorOf(bodyPr),
    };
    // WordArt's text warps (§20.1.9.19 prstTxWarp) stretch the text to the shape; textNoShape is
    // plain text. The warp's curve is drawn straight (shape-layout.ts fittedText).
    const warp = child(bodyPr, 'a:prstTxWarp')?.attributes.prst;
    if (warp !== undefined && warp !== 'textNoShape') shape.text.fit = { trim: false };
  }
  return shape;
}

/** A SmartArt shape (dsp:sp): the same as a Word shape, with DrawingML text (a:p) instead of w:p. */
export function readDiagramShape(
  sp: XmlElement,
  context: DrawingStyleContext,
  frame: ShapeFrame,
  base: { paragraph: ParagraphProperties; run: RunProperties },
): Shape {
  const style = child(sp, 'dsp:style');
  const shape = shapeBase(child(sp, 'dsp:spPr'), style, context, frame, { width: 0, height: 0 });
  const body = child(sp, 'dsp:txBody');
  if (body !== undefined) {
    const bodyPr = child(body, 'a:bodyPr');
    const fontColor = colorOf(child(style, 'a:fontRef'), context);
    const run: RunProperties = { ...base.run, ...(fontColor ? { color: fontColor } : {}) };
    const blocks = drawingTextBlocks(body, context, { paragraph: base.paragraph, run });
    // Shrink-on-overflow text (a:normAutofit fontScale, §21.1.2.1.3) is drawn at the scale Word saved.
    const fontScale = Number(child(bodyPr, 'a:normAutofit')?.attributes.fontScale);
    if (Number.isFinite(fontScale) && fontScale > 0 && fontScale < 100000) scaleText(blocks, fontScale / 100000);
    if (blocks.length > 0) {
      // The text may have its own box (dsp:txXfrm), e.g. beside an arrow's head.
      const txBox = child(sp, 'dsp:txXfrm');
      const text: ShapeText = { blocks, insets: insetsOf(bodyPr), anchor: anchorOf(bodyPr) };
      if (txBox !== undefined) {
        const inner = transformBox(txBox, frame, shape);
        text.insets = {
          left: text.insets.left + inner.x - shape.x,
          top: text.insets.top + inner.y - shape.y,
          right: text.insets.right + shape.x + shape.width - inner.x - inner.width,
          bottom: text.insets.bottom + shape.y + shape.height - inner.y - inner.height,
        };
      }
      shape.text = text;
    }
  }
  return shape;
}

function scaleText(blocks: Paragraph[], scale: number): void {
  for (const paragraph of blocks) {
    paragraph.markProps = { ...paragraph.markProps, size: paragraph.markProps.size * scale };
    for (const inline of paragraph.inlines) {
      if (inline.kind !== 'bookmark') inline.props = { ...inline.props, size: inline.props.size * scale };
    }
  }
}

const ALIGN: Record<string, ParagraphProperties['align']> = { l: 'left', ctr: 'center', r: 'right', just: 'both' };

/** DrawingML paragraphs (a:p with a:pPr, a:r, a:br, a:fld; §21.1.2.2) as model paragraphs. */
export function drawingTextBlocks(
  body: XmlElement,
  context: DrawingStyleContext,
  base: { paragraph: ParagraphProperties; run: RunProperties },
): Paragraph[] {
  const out: Paragraph[] = [];
  for (const p of body.children) {
    if (p.name !== 'a:p') continue;
    const pPr = child(p, 'a:pPr');
    const paragraphRun = drawingRunProps(child(pPr, 'a:defRPr'), base.run, context);
    const lineSpacing = Number(child(child(pPr, 'a:lnSpc'), 'a:spcPct')?.attributes.val);
    const props: ParagraphProperties = {
      ...base.paragraph,
      align: ALIGN[pPr?.attributes.algn ?? ''] ?? base.paragraph.align,
      spacing: {
        before: 0,
        after: 0,
        line: Number.isFinite(lineSpacing) && lineSpacing > 0 ? lineSpacing / 100000 : 1,
        lineRule: 'auto',
      },
    };
    const paragraph: Paragraph = {
      kind: 'paragraph',
      props,
      markProps: drawingRunProps(child(p, 'a:endParaRPr'), paragraphRun, context),
      inlines: [],
    };
    for (const r of p.children) {
      if (r.name === 'a:r' || r.name === 'a:fld') {
        const text = child(r, 'a:t')?.text ?? '';
        if (text !== '')
          paragraph.inlines.push({
            kind: 'text',
            text,
            props: drawingRunProps(child(r, 'a:rPr'), paragraphRun, context),
          });
      } else if (r.name === 'a:br') {
        paragraph.inlines.push({ kind: 'break', type: 'line', props: paragraphRun });
      }
    }
    out.push(paragraph);
  }
  // Empty trailing paragraphs take room that SmartArt's centred text does not have.
  while (out.length > 0 && out[out.length - 1]?.inlines.length === 0) out.pop();
  return out;
}
