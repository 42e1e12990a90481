/**
 * Shapes and text boxes (src/engine/model/drawing.ts) drawn as display-list items in their drawing's
 * frame: the preset geometry as a path (ECMA-376 Part 1 §20.1.9.18 prstGeom, the common presets
 * with their default adjustments), then the text laid out inside the insets and placed at the
 * top, middle or bottom (bodyPr anchor, §21.1.2.1.1).
 */
import type { FontFace, FontSet } from '../fonts';
import { flattenBlocks, layoutParagraph, type PageItem, type PathCommand, type PlacedLine } from '../layout';
import type { Shape } from '../model';
import type { RenderedDrawing } from './display-list';
import { type FieldValues, paintLine, paintParagraphFrames, RevisionPalette } from './line-painter';

/** Text in shapes is painted once per drawing: page fields inside text boxes print Word's cached result. */
const NO_FIELDS: FieldValues = {
  page: 1,
  pageFormat: 'decimal',
  numPages: 1,
  sectionPages: 1,
  bookmarkPages: new Map(),
};

type Point = [number, number];

function polygon(points: Point[]): PathCommand[] {
  return [...points.map(([x, y], i) => ({ op: i === 0 ? ('M' as const) : ('L' as const), x, y })), { op: 'Z' }];
}

/** Quarter-circle Bézier constant. */
const KAPPA = 0.5523;

function ellipse(x: number, y: number, w: number, h: number): PathCommand[] {
  const rx = w / 2;
  const ry = h / 2;
  const cx = x + rx;
  const cy = y + ry;
  const kx = rx * KAPPA;
  const ky = ry * KAPPA;
  return [
    { op: 'M', x: cx, y },
    { op: 'C', x1: cx + kx, y1: y, x2: x + w, y2: cy - ky, x: x + w, y: cy },
    { op: 'C', x1: x + w, y1: cy + ky, x2: cx + kx, y2: y + h, x: cx, y: y + h },
    { op: 'C', x1: cx - kx, y1: y + h, x2: x, y2: cy + ky, x, y: cy },
    { op: 'C', x1: x, y1: cy - ky, x2: cx - kx, y2: y, x: cx, y },
    { op: 'Z' },
  ];
}

function roundRect(x: number, y: number, w: number, h: number): PathCommand[] {
  // Default adjustment: corners of 16.667 % of the shorter side.
  const r = Math.min(w, h) * 0.16667;
  const k = r * (1 - KAPPA);
  return [
    { op: 'M', x: x + r, y },
    { op: 'L', x: x + w - r, y },
    { op: 'C', x1: x + w - k, y1: y, x2: x + w, y2: y + k, x: x + w, y: y + r },
    { op: 'L', x: x + w, y: y + h - r },
    { op: 'C', x1: x + w, y1: y + h - k, x2: x + w - k, y2: y + h, x: x + w - r, y: y + h },
    { op: 'L', x: x + r, y: y + h },
    { op: 'C', x1: x + k, y1: y + h, x2: x, y2: y + h - k, x, y: y + h - r },
    { op: 'L', x, y: y + r },
    { op: 'C', x1: x, y1: y + k, x2: x + k, y2: y, x: x + r, y },
    { op: 'Z' },
  ];
}

function outline(shape: Shape): PathCommand[] {
  const { x, y, width: w, height: h } = shape;
  const m = Math.min(w, h);
  switch (shape.geometry) {
    case 'ellipse':
      return ellipse(x, y, w, h);
    case 'roundRect':
      return roundRect(x, y, w, h);
    case 'triangle':
      return polygon([
        [x + w / 2, y],
        [x + w, y + h],
        [x, y + h],
      ]);
    case 'rtTriangle':
      return polygon([
        [x, y],
        [x + w, y + h],
        [x, y + h],
      ]);
    case 'diamond':
      return polygon([
        [x + w / 2, y],
        [x + w, y + h / 2],
        [x + w / 2, y + h],
        [x, y + h / 2],
      ]);
    case 'parallelogram':
      return polygon([
        [x + m * 0.25, y],
        [x + w, y],
        [x + w - m * 0.25, y + h],
        [x, y + h],
      ]);
    case 'hexagon':
      return polygon([
        [x + m * 0.25, y],
        [x + w - m * 0.25, y],
        [x + w, y + h / 2],
        [x + w - m * 0.25, y + h],
        [x + m * 0.25, y + h],
        [x, y + h / 2],
      ]);
    case 'octagon': {
      const c = m * 0.29289;
      return polygon([
        [x + c, y],
        [x + w - c, y],
        [x + w, y + c],
        [x + w, y + h - c],
        [x + w - c, y + h],
        [x + c, y + h],
        [x, y + h - c],
        [x, y + c],
      ]);
    }
    case 'homePlate':
      return polygon([
        [x, y],
        [x + w - m / 2, y],
        [x + w, y + h / 2],
        [x + w - m / 2, y + h],
        [x, y + h],
      ]);
    case 'chevron':
      return polygon([
        [x, y],
        [x + w - m / 2, y],
        [x + w, y + h / 2],
        [x + w - m / 2, y + h],
        [x, y + h],
        [x + m / 2, y + h / 2],
      ]);
    case 'rightArrow':
      return polygon([
        [x, y + h / 4],
        [x + w - m / 2, y + h / 4],
        [x + w - m / 2, y],
        [x + w, y + h / 2],
        [x + w - m / 2, y + h],
        [x + w - m / 2, y + (3 * h) / 4],
        [x, y + (3 * h) / 4],
      ]);
    case 'leftArrow':
      return polygon([
        [x + w, y + h / 4],
        [x + m / 2, y + h / 4],
        [x + m / 2, y],
        [x, y + h / 2],
        [x + m / 2, y + h],
        [x + m / 2, y + (3 * h) / 4],
        [x + w, y + (3 * h) / 4],
      ]);
    case 'upArrow':
      return polygon([
        [x + w / 4, y + h],
        [x + w / 4, y + m / 2],
        [x, y + m / 2],
        [x + w / 2, y],
        [x + w, y + m / 2],
        [x + (3 * w) / 4, y + m / 2],
        [x + (3 * w) / 4, y + h],
      ]);
    case 'downArrow':
      return polygon([
        [x + w / 4, y],
        [x + w / 4, y + h - m / 2],
        [x, y + h - m / 2],
        [x + w / 2, y + h],
        [x + w, y + h - m / 2],
        [x + (3 * w) / 4, y + h - m / 2],
        [x + (3 * w) / 4, y],
      ]);
    default:
      return polygon([
        [x, y],
        [x + w, y],
        [x + w, y + h],
        [x, y + h],
      ]);
  }
}

export function layoutShapes(shapes: Shape[], fonts: FontSet, defaultTabStop: number): RenderedDrawing {
  const items: PageItem[] = [];
  const faces: Record<string, FontFace> = {};
  for (const shape of shapes) {
    if (shape.imageId) {
      items.push({
        kind: 'image',
        x: shape.x,
        y: shape.y,
        width: shape.width,
        height: shape.height,
        image: shape.imageId,
      });
      continue;
    }
    if (shape.geometry === 'line') {
      if (shape.stroke) {
        // A line runs corner to corner of its box; flips choose which corners.
        const x1 = shape.flipH ? shape.x + shape.width : shape.x;
        const x2 = shape.flipH ? shape.x : shape.x + shape.width;
        const y1 = shape.flipV ? shape.y + shape.height : shape.y;
        const y2 = shape.flipV ? shape.y : shape.y + shape.height;
        items.push({
          kind: 'line',
          x1,
          y1,
          x2,
          y2,
          width: shape.stroke.width,
          color: shape.stroke.color,
          ...(shape.stroke.dash ? { dash: shape.stroke.dash } : {}),
        });
      }
    } else if (shape.fill || shape.stroke) {
      items.push({
        kind: 'path',
        commands: outline(shape),
        ...(shape.fill ? { fill: shape.fill } : {}),
        ...(shape.stroke
          ? {
              stroke: shape.stroke.color,
              strokeWidth: shape.stroke.width,
              ...(shape.stroke.dash ? { dash: shape.stroke.dash } : {}),
            }
          : {}),
      });
    }
    if (shape.text) items.push(...shapeText(shape, fonts, defaultTabStop, faces));
  }
  return { items, faces: Object.values(faces) };
}

function shapeText(shape: Shape, fonts: FontSet, defaultTabStop: number, faces: Record<string, FontFace>): PageItem[] {
  const text = shape.text;
  if (!text) return [];
  const width = Math.max(1, shape.width - text.insets.left - text.insets.right);
  const laid = flattenBlocks(text.blocks).map((p) => layoutParagraph(p, fonts, { areaWidth: width, defaultTabStop }));
  let height = 0;
  laid.forEach((p, i) => {
    height +=
      (i > 0 ? Math.max(p.spaceBefore, laid[i - 1]?.spaceAfter ?? 0) : p.spaceBefore) +
      p.lines.reduce((s, l) => s + l.height, 0);
  });
  const room = shape.height - text.insets.top - text.insets.bottom;
  const offset = text.anchor === 'middle' ? (room - height) / 2 : text.anchor === 'bottom' ? room - height : 0;
  let y = shape.y + text.insets.top + Math.max(text.anchor === 'top' ? 0 : -Infinity, offset);
  const x = shape.x + text.insets.left;
  // Word clips a text box's overflow: lines that do not fit inside the box are not shown.
  const bottom = shape.y + shape.height - text.insets.bottom + 1;
  const placed: PlacedLine[] = [];
  laid.forEach((p, i) => {
    y += i > 0 ? Math.max(p.spaceBefore, laid[i - 1]?.spaceAfter ?? 0) : p.spaceBefore;
    p.lines.forEach((line, index) => {
      if (y + line.height <= bottom || placed.length === 0)
        placed.push({ line, x, top: y, laid: p, index, columnWidth: width });
      y += line.height;
    });
  });
  const out: PageItem[] = [];
  const options = { markChanges: false, palette: new RevisionPalette(), changeBarX: x, faces };
  for (const line of placed) paintLine(out, line, NO_FIELDS, options);
  paintParagraphFrames(out, placed);
  return out;
}
