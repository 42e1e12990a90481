/**
 * Shapes and text boxes (src/engine/model/drawing.ts) drawn as display-list items in their drawing's
 * frame: the preset geometry as a path (ECMA-376 Part 1 §20.1.9.18 prstGeom, the common presets
 * with their default adjustments), then the text laid out inside the insets and placed at the
 * top, middle or bottom (bodyPr anchor, §21.1.2.1.1).
 */
import type { FontFace, FontSet } from '../fonts';
import { flattenBlocks, layoutParagraph, type PageItem, type PathCommand, type PlacedLine } from '../layout';
import type { PageGeometry, Shape, ShapeText } from '../model';
import { hasNonWhiteSpace } from '../text';
import type { RenderedDrawing } from './display-list';
import { type DrawingSource, type FieldValues, paintLine, paintParagraphFrames, RevisionPalette } from './line-painter';

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

/**
 * The shapes of a drawing as items in its frame. `drawings` draws the charts and shapes inside
 * their text boxes (a WordArt line in a text box), each at its place in the box's lines.
 */
export function layoutShapes(
  shapes: Shape[],
  fonts: FontSet,
  defaultTabStop: number,
  drawings?: DrawingSource,
): RenderedDrawing {
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
    if (shape.text) items.push(...shapeText(shape, fonts, defaultTabStop, faces, drawings));
  }
  return { items, faces: Object.values(faces) };
}

function shapeText(
  shape: Shape,
  fonts: FontSet,
  defaultTabStop: number,
  faces: Record<string, FontFace>,
  drawings: DrawingSource | undefined,
): PageItem[] {
  const text = shape.text;
  if (!text) return [];
  if (text.fit) return fittedText(shape, text, text.fit, fonts, defaultTabStop, faces);
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
  const options = {
    markChanges: false,
    palette: new RevisionPalette(),
    changeBarX: x,
    faces,
    // Drawings in the box's lines; one anchored there (Word makes them inline in text boxes) is
    // placed as if the box, inside its insets, were its page.
    ...(drawings ? { drawings: { renderer: drawings, page: boxPage(shape, text), under: out } } : {}),
  };
  for (const line of placed) paintLine(out, line, NO_FIELDS, options);
  paintParagraphFrames(out, placed);
  return out;
}

/** A text box as the page of the drawings anchored in its text: its insets are the margins. */
function boxPage(shape: Shape, text: ShapeText): PageGeometry {
  return {
    width: shape.x + shape.width,
    height: shape.y + shape.height,
    margins: {
      top: shape.y + text.insets.top,
      right: text.insets.right,
      bottom: text.insets.bottom,
      left: shape.x + text.insets.left,
      header: 0,
      footer: 0,
      gutter: 0,
    },
  };
}

/** Wide enough that a fitted line never wraps: each paragraph of WordArt is laid out on its own lines. */
const UNBOUNDED = 1e6;

/** A line of fitted text painted at the origin, and the box its glyphs take. */
interface FittedLine {
  items: PageItem[];
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * WordArt (ShapeText.fit): each line is laid out at its own size, then stretched across the box
 * inside the insets and down its share of the box's height (the lines divide it evenly), as
 * Word's text paths do with fitshape and fitpath (ECMA-376 Part 4 §19.1.2.22): with `trim` the
 * glyphs' ink fills the height, otherwise their ascent and descent. The text path's curve (arch,
 * wave, ...) is not followed: straight text in the box, which keeps its place, size and reading.
 * The shape's rotation turns the text about the box's centre.
 */
function fittedText(
  shape: Shape,
  text: ShapeText,
  fit: { trim: boolean },
  fonts: FontSet,
  defaultTabStop: number,
  faces: Record<string, FontFace>,
): PageItem[] {
  const options = { markChanges: false, palette: new RevisionPalette(), changeBarX: 0, faces };
  const lines: (FittedLine | undefined)[] = [];
  for (const paragraph of flattenBlocks(text.blocks)) {
    // Left aligned, without indents: the fit decides where the glyphs go.
    const flat = {
      ...paragraph,
      props: { ...paragraph.props, align: 'left' as const, indent: { left: 0, right: 0, firstLine: 0 } },
    };
    const laid = layoutParagraph(flat, fonts, { areaWidth: UNBOUNDED, defaultTabStop });
    laid.lines.forEach((line, index) => {
      const items: PageItem[] = [];
      paintLine(items, { line, x: 0, top: 0, laid, index, columnWidth: UNBOUNDED }, NO_FIELDS, options);
      lines.push(fittedLine(items, faces, fit.trim));
    });
  }
  if (lines.every((line) => line === undefined)) return [];
  const left = shape.x + text.insets.left;
  const width = Math.max(1, shape.width - text.insets.left - text.insets.right);
  const slot = Math.max(1, shape.height - text.insets.top - text.insets.bottom) / lines.length;
  const turn = rotation(shape);
  const out: PageItem[] = [];
  lines.forEach((line, i) => {
    if (line === undefined) return;
    const sx = width / Math.max(line.right - line.left, 0.01);
    const sy = slot / Math.max(line.bottom - line.top, 0.01);
    const slotTop = shape.y + text.insets.top + i * slot;
    const place = (x: number, y: number): [number, number] =>
      turn([left + (x - line.left) * sx, slotTop + (y - line.top) * sy]);
    for (const item of line.items) {
      const placed = stretchItem(item, place, sx, sy, shape.rotation);
      if (placed === undefined) continue;
      if (placed.kind === 'text') {
        if (text.outline) placed.outline = { color: text.outline.color, width: text.outline.width };
        if (text.unfilled) placed.unfilled = true;
      }
      out.push(placed);
    }
  });
  return out;
}

/** The box a painted line's glyphs take (undefined when it draws no text). */
function fittedLine(items: PageItem[], faces: Record<string, FontFace>, trim: boolean): FittedLine | undefined {
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    if (item.kind !== 'text' || !hasNonWhiteSpace(item.text)) continue;
    const face = faces[item.font];
    if (face === undefined) continue;
    const body = item.text.trimEnd();
    const advance = face.measure(body) * item.size + (item.characterSpacing ?? 0) * [...body].length;
    left = Math.min(left, item.x);
    right = Math.max(right, item.x + advance);
    const ink = trim ? face.inkBounds?.(body) : undefined;
    top = Math.min(top, item.y - (ink?.top ?? face.ascent) * item.size);
    bottom = Math.max(bottom, item.y - (ink ? ink.bottom : -face.descent) * item.size);
  }
  if (!(right > left) || !(bottom > top)) return undefined;
  return { items, left, right, top, bottom };
}

/** The shape's rotation (degrees clockwise, y down) about its box's centre, as a point mapping. */
function rotation(shape: Shape): (point: Point) => Point {
  const degrees = shape.rotation % 360;
  if (!degrees) return (point) => point;
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const cx = shape.x + shape.width / 2;
  const cy = shape.y + shape.height / 2;
  return ([x, y]) => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
}

/** A painted item stretched by (sx, sy) and placed by `place` (which may also turn it by `degrees`). */
function stretchItem(
  item: PageItem,
  place: (x: number, y: number) => Point,
  sx: number,
  sy: number,
  degrees: number,
): PageItem | undefined {
  switch (item.kind) {
    case 'text': {
      const [x, y] = place(item.x, item.y);
      const out = { ...item, x, y, size: Math.round(item.size * sy * 1000) / 1000 };
      const scaleX = sx / sy;
      if (Math.abs(scaleX - 1) > 0.0005) out.scaleX = scaleX;
      // Tc is stretched with the glyphs by the text matrix, so it scales with the size only.
      if (item.characterSpacing) out.characterSpacing = item.characterSpacing * sy;
      // TextItem angles turn counter-clockwise; the shape's rotation turns clockwise.
      const angle = ((((item.angle ?? 0) - degrees) % 360) + 360) % 360;
      if (angle > 1e-9 && angle < 360 - 1e-9) out.angle = angle;
      else delete out.angle;
      return out;
    }
    case 'line': {
      const [x1, y1] = place(item.x1, item.y1);
      const [x2, y2] = place(item.x2, item.y2);
      return { ...item, x1, y1, x2, y2, width: item.width * sy };
    }
    case 'rect': {
      const corners = [
        place(item.x, item.y),
        place(item.x + item.width, item.y),
        place(item.x + item.width, item.y + item.height),
        place(item.x, item.y + item.height),
      ];
      const { kind: _kind, x: _x, y: _y, width: _w, height: _h, ...paint } = item;
      return { kind: 'path', commands: polygon(corners), ...paint };
    }
    case 'path':
      return {
        ...item,
        commands: item.commands.map((command): PathCommand => {
          if (command.op === 'Z') return command;
          const [x, y] = place(command.x, command.y);
          if (command.op !== 'C') return { op: command.op, x, y };
          const [x1, y1] = place(command.x1, command.y1);
          const [x2, y2] = place(command.x2, command.y2);
          return { op: 'C', x1, y1, x2, y2, x, y };
        }),
      };
    default:
      // Links, anchors and pictures have no place in stretched text.
      return undefined;
  }
}
