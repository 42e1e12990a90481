/**
 * A page's drawing items as content-stream operators, in display-list order. Links and anchors
 * draw nothing (they become annotations and destinations). State is tracked so that an operator
 * is written only when its value changes: colours, line width and dash are graphics state
 * (ISO 32000-1 §8.4), and font, size and character spacing are text state, which persists across
 * text objects (§9.3.1), so consecutive text items share one BT … ET.
 */
import {
  beginText,
  concatTransformationMatrix,
  drawObject,
  endText,
  fill,
  fillAndStroke,
  lineTo,
  moveTo,
  type PDFHexString,
  type PDFName,
  type PDFOperator,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setCharacterSpacing,
  setDashPattern,
  setFillingRgbColor,
  setFontAndSize,
  setLineWidth,
  setStrokingRgbColor,
  setTextMatrix,
  showText,
  stroke,
} from 'pdf-lib';
import type { ImageItem, LineItem, Page, RectItem, TextItem } from '../layout/display-list';
import { type Rgb, rgbOf, sameRgb } from './pdf-color';
import { pdfY, round } from './pdf-geometry';

export interface ContentResources {
  /** The page's resource name for a face key's font, registered on first use. */
  fontName(key: string): PDFName;
  /** The text encoded as glyph ids for that font. */
  encode(key: string, text: string): PDFHexString;
  /** The page's resource name for an image key's XObject, registered on first use. */
  imageName(key: string): PDFName;
}

export function pageContent(page: Page, resources: ContentResources): PDFOperator[] {
  const ops: PDFOperator[] = [];
  // Initial state per §8.4.1 and §9.3.1: black, 1 pt lines, solid, no font, Tc 0.
  let fillColor: Rgb = [0, 0, 0];
  let strokeColor: Rgb = [0, 0, 0];
  let lineWidth = 1;
  let dash = '';
  let font = '';
  let fontSize = 0;
  let characterSpacing = 0;
  let inText = false;

  const setFill = (color: Rgb) => {
    if (sameRgb(fillColor, color)) return;
    ops.push(setFillingRgbColor(...color));
    fillColor = color;
  };
  const setStroke = (color: Rgb, width: number, dashArray: readonly number[] = []) => {
    if (!sameRgb(strokeColor, color)) {
      ops.push(setStrokingRgbColor(...color));
      strokeColor = color;
    }
    const w = round(width);
    if (w !== lineWidth) {
      ops.push(setLineWidth(w));
      lineWidth = w;
    }
    const d = dashArray.map(round);
    const dashKey = d.join(' ');
    if (dashKey !== dash) {
      ops.push(setDashPattern(d, 0));
      dash = dashKey;
    }
  };
  const leaveText = () => {
    if (!inText) return;
    ops.push(endText());
    inText = false;
  };

  const text = (item: TextItem) => {
    if (item.text === '') return;
    if (!inText) {
      ops.push(beginText());
      inText = true;
    }
    if (item.font !== font || item.size !== fontSize) {
      ops.push(setFontAndSize(resources.fontName(item.font), item.size));
      font = item.font;
      fontSize = item.size;
    }
    setFill(rgbOf(item.color));
    const spacing = round(item.characterSpacing ?? 0);
    if (spacing !== characterSpacing) {
      ops.push(setCharacterSpacing(spacing)); // Tc: added after every glyph (§9.3.2).
      characterSpacing = spacing;
    }
    ops.push(setTextMatrix(1, 0, 0, 1, round(item.x), pdfY(page.height, item.y)));
    ops.push(showText(resources.encode(item.font, item.text)));
  };

  const line = (item: LineItem) => {
    if (item.width <= 0) return;
    setStroke(rgbOf(item.color), item.width, item.dash);
    ops.push(moveTo(round(item.x1), pdfY(page.height, item.y1)));
    ops.push(lineTo(round(item.x2), pdfY(page.height, item.y2)));
    ops.push(stroke());
  };

  const rect = (item: RectItem) => {
    const stroked = item.stroke !== undefined && (item.strokeWidth ?? 1) > 0;
    if (item.fill === undefined && !stroked) return;
    if (item.fill !== undefined) setFill(rgbOf(item.fill));
    if (stroked && item.stroke !== undefined) setStroke(rgbOf(item.stroke), item.strokeWidth ?? 1);
    ops.push(rectangle(round(item.x), pdfY(page.height, item.y + item.height), round(item.width), round(item.height)));
    ops.push(item.fill === undefined ? stroke() : stroked ? fillAndStroke() : fill());
  };

  const image = (item: ImageItem) => {
    // An image XObject fills the unit square; cm scales and places it (§8.9.5).
    ops.push(pushGraphicsState());
    ops.push(
      concatTransformationMatrix(
        round(item.width),
        0,
        0,
        round(item.height),
        round(item.x),
        pdfY(page.height, item.y + item.height),
      ),
    );
    ops.push(drawObject(resources.imageName(item.image)));
    ops.push(popGraphicsState());
  };

  for (const item of page.items) {
    if (item.kind === 'text') {
      text(item);
      continue;
    }
    if (item.kind === 'link' || item.kind === 'anchor') continue;
    leaveText();
    if (item.kind === 'line') line(item);
    else if (item.kind === 'rect') rect(item);
    else image(item);
  }
  leaveText();
  return ops;
}
