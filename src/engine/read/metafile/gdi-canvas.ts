/**
 * The GDI device context both metafile readers drive ([MS-EMF] §3.1 and [MS-WMF] §3.1 describe
 * playback as GDI calls): state (mapping, pens, brushes, font, text settings, current position,
 * saved states), the path bracket, and the drawing calls, which append MetafileItems in picture
 * units. The reader supplies how logical coordinates become picture units (`pageMatrix`), since EMF
 * and WMF map differently. Everything is bounded: items, path commands and saved states.
 */
import type { ImageResource, MetafileItem, MetafilePathCommand } from '../../model';
import { mapSymbolText } from '../../text';

/** Affine matrix [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f (an XFORM, [MS-EMF] §2.2.28). */
export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `first` then `second`. */
export function multiply(first: Matrix, second: Matrix): Matrix {
  const [a1, b1, c1, d1, e1, f1] = first;
  const [a2, b2, c2, d2, e2, f2] = second;
  return [
    a1 * a2 + b1 * c2,
    a1 * b2 + b1 * d2,
    c1 * a2 + d1 * c2,
    c1 * b2 + d1 * d2,
    e1 * a2 + f1 * c2 + e2,
    e1 * b2 + f1 * d2 + f2,
  ];
}

export interface Pen {
  color: string;
  /** Logical units; 0 draws one device pixel wide. */
  width: number;
  style: 'solid' | 'dash' | 'dot' | 'dashdot' | 'dashdotdot' | 'none';
}

export interface Brush {
  /** Undefined: the null (hollow) brush. */
  color?: string;
}

export interface LogFont {
  family: string;
  /** lfHeight: negative = em height, positive = cell height, 0 = default, logical units. */
  height: number;
  weight: number;
  italic: boolean;
  underline: boolean;
  /** Tenths of a degree, counter-clockwise. */
  escapement: number;
  charset: number;
}

export type GdiObject = { kind: 'pen'; pen: Pen } | { kind: 'brush'; brush: Brush } | { kind: 'font'; font: LogFont };

export interface DcState {
  mapMode: number;
  windowOrg: [number, number];
  windowExt: [number, number];
  viewportOrg: [number, number];
  viewportExt: [number, number];
  /** Set once a window extent was given (WMF maps the window onto the picture). */
  windowSet: boolean;
  world: Matrix;
  pen: Pen;
  brush: Brush;
  font: LogFont;
  textColor: string;
  bkColor: string;
  textAlign: number;
  evenOdd: boolean;
  position: [number, number];
  /** AD_CLOCKWISE arcs ([MS-EMF] §2.1.2). */
  clockwise: boolean;
}

// About 20 MB of items at most: an isolate has 128 MB.
const MAX_ITEMS = 50_000;
const MAX_PATH_COMMANDS = 250_000;
const MAX_SAVED = 1_000;

/** 0x00BBGGRR ([MS-WMF] §2.2.2.8 ColorRef) → "RRGGBB". */
export function colorRef(value: number): string {
  const hex = (n: number) => (n & 0xff).toString(16).padStart(2, '0');
  return `${hex(value)}${hex(value >> 8)}${hex(value >> 16)}`;
}

/** The stock objects of [MS-EMF] §2.1.31 / [MS-WMF] META_SELECTOBJECT defaults. */
export function stockObject(index: number): GdiObject | undefined {
  const brush = (color?: string): GdiObject => ({ kind: 'brush', brush: { color } });
  const pen = (color: string, style: Pen['style'] = 'solid'): GdiObject => ({
    kind: 'pen',
    pen: { color, width: 0, style },
  });
  switch (index) {
    case 0:
      return brush('ffffff');
    case 1:
      return brush('c0c0c0');
    case 2:
      return brush('808080');
    case 3:
      return brush('404040');
    case 4:
      return brush('000000');
    case 5:
      return brush(undefined);
    case 6:
      return pen('ffffff');
    case 7:
      return pen('000000');
    case 8:
      return pen('000000', 'none');
    case 10:
    case 11:
    case 16:
      return { kind: 'font', font: { ...DEFAULT_FONT, family: 'Courier New' } };
    case 12:
    case 13:
    case 14:
    case 17:
      return { kind: 'font', font: DEFAULT_FONT };
    case 18:
      return brush('ffffff');
    case 19:
      return pen('000000');
    default:
      return undefined;
  }
}

const DEFAULT_FONT: LogFont = {
  family: 'Arial',
  height: 0,
  weight: 400,
  italic: false,
  underline: false,
  escapement: 0,
  charset: 0,
};

function initialState(): DcState {
  return {
    mapMode: 1,
    windowOrg: [0, 0],
    windowExt: [1, 1],
    viewportOrg: [0, 0],
    viewportExt: [1, 1],
    windowSet: false,
    world: IDENTITY,
    pen: { color: '000000', width: 0, style: 'solid' },
    brush: { color: 'ffffff' },
    font: DEFAULT_FONT,
    textColor: '000000',
    bkColor: 'ffffff',
    textAlign: 0,
    evenOdd: true,
    position: [0, 0],
    clockwise: false,
  };
}

/** Bézier control points of an elliptical arc, ≤ 90° per curve; θ counter-clockwise, y down. */
function arcCurves(
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  from: number,
  sweep: number,
): { start: [number, number]; curves: [number, number, number, number, number, number][] } {
  const at = (t: number): [number, number] => [cx + rx * Math.cos(t), cy - ry * Math.sin(t)];
  const segments = Math.max(1, Math.ceil(Math.abs(sweep) / (Math.PI / 2) - 1e-9));
  const step = sweep / segments;
  const k = (4 / 3) * Math.tan(step / 4);
  const curves: [number, number, number, number, number, number][] = [];
  for (let i = 0; i < segments; i++) {
    const a = from + i * step;
    const b = a + step;
    const [x0, y0] = at(a);
    const [x3, y3] = at(b);
    curves.push([
      x0 - k * rx * Math.sin(a),
      y0 - k * ry * Math.cos(a),
      x3 + k * rx * Math.sin(b),
      y3 + k * ry * Math.cos(b),
      x3,
      y3,
    ]);
  }
  return { start: at(from), curves };
}

export class GdiCanvas {
  state: DcState = initialState();
  readonly items: MetafileItem[] = [];
  private saved: DcState[] = [];
  /** The path bracket's commands in picture units, while BeginPath is open or after EndPath. */
  private path: MetafilePathCommand[] | undefined;
  private recording = false;
  private commandCount = 0;
  private matrix: Matrix | undefined;

  /**
   * `pageMatrix` maps page space (after the world transform) to picture units for a state;
   * `hairline` is one device pixel in picture units, the width of a 0-width (cosmetic) pen.
   */
  private readonly pageMatrix: (state: DcState) => Matrix;
  readonly hairline: number;

  constructor(pageMatrix: (state: DcState) => Matrix, hairline: number) {
    this.pageMatrix = pageMatrix;
    this.hairline = hairline;
  }

  get full(): boolean {
    return this.items.length >= MAX_ITEMS || this.commandCount >= MAX_PATH_COMMANDS;
  }

  /** Call after changing any mapping state. */
  changed(): void {
    this.matrix = undefined;
  }

  private transform(): Matrix {
    this.matrix ??= multiply(this.state.world, this.pageMatrix(this.state));
    return this.matrix;
  }

  point(x: number, y: number): [number, number] {
    const [a, b, c, d, e, f] = this.transform();
    return [a * x + c * y + e, b * x + d * y + f];
  }

  /** How much a logical length grows on its way to picture units (mean of the axes). */
  scale(): number {
    const [a, b, c, d] = this.transform();
    return Math.sqrt(Math.abs(a * d - b * c));
  }

  save(): void {
    if (this.saved.length < MAX_SAVED) this.saved.push({ ...this.state });
  }

  /** RestoreDC: negative = relative to the top of the stack ([MS-EMF] §2.3.11.6). */
  restore(relative: number): void {
    const depth = relative < 0 ? -relative : this.saved.length - relative + 1;
    if (depth < 1 || depth > this.saved.length) return;
    const state = this.saved[this.saved.length - depth];
    this.saved.length -= depth;
    if (state) this.state = state;
    this.changed();
  }

  select(object: GdiObject | undefined): void {
    if (!object) return;
    if (object.kind === 'pen') this.state.pen = object.pen;
    else if (object.kind === 'brush') this.state.brush = object.brush;
    else this.state.font = object.font;
  }

  // The path bracket ([MS-EMF] §2.3.10): drawing calls between BeginPath and EndPath add figures.
  beginPath(): void {
    this.path = [];
    this.recording = true;
  }

  endPath(): void {
    this.recording = false;
  }

  abortPath(): void {
    this.path = undefined;
    this.recording = false;
  }

  closeFigure(): void {
    if (this.recording && this.path && this.path.length > 0) this.path.push({ op: 'Z' });
  }

  /** FillPath / StrokePath / StrokeAndFillPath: paint the bracket's path, which is then gone. */
  paintPath(fill: boolean, stroke: boolean): void {
    const path = this.path;
    this.path = undefined;
    this.recording = false;
    if (path && path.length > 0) this.emit(path, fill, stroke);
  }

  private emit(commands: MetafilePathCommand[], fill: boolean, stroke: boolean): void {
    if (this.full) return;
    const { pen, brush } = this.state;
    const fillColor = fill ? brush.color : undefined;
    const stroked = stroke && pen.style !== 'none';
    if (fillColor === undefined && !stroked) return;
    this.commandCount += commands.length;
    const width = pen.width > 0 ? pen.width * this.scale() : this.hairline;
    const dashUnit = Math.max(width, this.hairline);
    const dash =
      pen.style === 'dash'
        ? [3 * dashUnit, dashUnit]
        : pen.style === 'dot'
          ? [dashUnit, dashUnit]
          : pen.style === 'dashdot'
            ? [3 * dashUnit, dashUnit, dashUnit, dashUnit]
            : pen.style === 'dashdotdot'
              ? [3 * dashUnit, dashUnit, dashUnit, dashUnit, dashUnit, dashUnit]
              : undefined;
    this.items.push({
      kind: 'path',
      commands,
      ...(fillColor !== undefined ? { fill: fillColor, evenOdd: this.state.evenOdd } : {}),
      ...(stroked ? { stroke: pen.color, strokeWidth: width, ...(dash ? { dash } : {}) } : {}),
    });
  }

  /** Adds to the open path within the bound; a loop, since spreading 100k arguments overflows the stack. */
  private extendPath(commands: MetafilePathCommand[]): void {
    const path = this.path;
    if (!path) return;
    const room = MAX_PATH_COMMANDS - this.commandCount - path.length;
    for (let i = 0; i < commands.length && i < room; i++) path.push(commands[i] as MetafilePathCommand);
  }

  /** A figure in logical points: added to the open path, or painted now. */
  private figure(commands: MetafilePathCommand[], closed: boolean): void {
    if (commands.length === 0) return;
    if (this.recording && this.path) {
      this.extendPath(commands);
      if (closed) this.path.push({ op: 'Z' });
      return;
    }
    if (closed) commands.push({ op: 'Z' });
    this.emit(commands, closed, true);
  }

  private points(points: ArrayLike<number>, from = 0): MetafilePathCommand[] {
    const out: MetafilePathCommand[] = [];
    const end = Math.min(points.length, from + 2 * Math.max(0, MAX_PATH_COMMANDS - this.commandCount));
    for (let i = from; i + 1 < end; i += 2) {
      const [x, y] = this.point(points[i] ?? 0, points[i + 1] ?? 0);
      out.push({ op: out.length === 0 ? 'M' : 'L', x, y });
    }
    return out;
  }

  moveTo(x: number, y: number): void {
    this.state.position = [x, y];
    if (this.recording && this.path) {
      const [px, py] = this.point(x, y);
      this.path.push({ op: 'M', x: px, y: py });
    }
  }

  lineTo(x: number, y: number): void {
    const [x0, y0] = this.state.position;
    this.state.position = [x, y];
    if (this.recording && this.path) {
      if (this.path.length === 0) this.moveTo(x0, y0);
      const [px, py] = this.point(x, y);
      this.path.push({ op: 'L', x: px, y: py });
      this.state.position = [x, y];
      return;
    }
    this.figure(this.points([x0, y0, x, y]), false);
  }

  /** Polyline/Polygon from flat x,y pairs. */
  poly(points: ArrayLike<number>, closed: boolean): void {
    if (points.length < 4) return;
    this.figure(this.points(points), closed);
  }

  /** PolyPolygon: one filled path of several closed figures; PolyPolyline: several open ones. */
  polyPoly(polygons: ArrayLike<number>[], closed: boolean): void {
    if (!closed || this.recording) {
      for (const points of polygons) this.poly(points, closed);
      return;
    }
    const commands: MetafilePathCommand[] = [];
    for (const points of polygons) {
      if (points.length < 4) continue;
      for (const command of this.points(points)) commands.push(command);
      commands.push({ op: 'Z' });
    }
    if (commands.length > 0) this.emit(commands, true, true);
  }

  /** PolylineTo / PolyBezierTo: from the current position, which moves to the last point. */
  polyTo(points: ArrayLike<number>, bezier: boolean): void {
    if (points.length < 2) return;
    const [x0, y0] = this.state.position;
    const all = [x0, y0, ...Array.from(points)];
    this.state.position = [points[points.length - 2] ?? 0, points[points.length - 1] ?? 0];
    if (this.recording && this.path) {
      const commands = bezier ? this.bezier(all) : this.points(all);
      if (this.path.length > 0) commands.shift();
      this.extendPath(commands);
      return;
    }
    this.figure(bezier ? this.bezier(all) : this.points(all), false);
  }

  /** PolyBezier: a start point then three points per curve. */
  polyBezier(points: ArrayLike<number>): void {
    if (points.length < 8) return;
    this.figure(this.bezier(points), false);
  }

  private bezier(points: ArrayLike<number>): MetafilePathCommand[] {
    const p = (i: number) => this.point(points[i] ?? 0, points[i + 1] ?? 0);
    const [sx, sy] = p(0);
    const out: MetafilePathCommand[] = [{ op: 'M', x: sx, y: sy }];
    for (let i = 2; i + 5 < points.length; i += 6) {
      const [x1, y1] = p(i);
      const [x2, y2] = p(i + 2);
      const [x, y] = p(i + 4);
      out.push({ op: 'C', x1, y1, x2, y2, x, y });
    }
    return out;
  }

  rectangle(left: number, top: number, right: number, bottom: number): void {
    this.figure(this.points([left, top, right, top, right, bottom, left, bottom]), true);
  }

  roundRect(left: number, top: number, right: number, bottom: number, width: number, height: number): void {
    const rx = Math.min(Math.abs(width) / 2, Math.abs(right - left) / 2);
    const ry = Math.min(Math.abs(height) / 2, Math.abs(bottom - top) / 2);
    if (rx <= 0 || ry <= 0) {
      this.rectangle(left, top, right, bottom);
      return;
    }
    const [l, r] = left < right ? [left, right] : [right, left];
    const [t, b] = top < bottom ? [top, bottom] : [bottom, top];
    const logical: number[] = [];
    const curves: [number, number, number, number, number, number][] = [];
    const corners: [number, number, number][] = [
      [r - rx, t + ry, 0],
      [l + rx, t + ry, Math.PI / 2],
      [l + rx, b - ry, Math.PI],
      [r - rx, b - ry, (3 * Math.PI) / 2],
    ];
    for (const [cx, cy, from] of corners) {
      const arc = arcCurves(cx, cy, rx, ry, from, Math.PI / 2);
      logical.push(...arc.start);
      curves.push(...arc.curves);
    }
    const commands: MetafilePathCommand[] = [];
    corners.forEach((_, i) => {
      const [sx, sy] = this.point(logical[2 * i] ?? 0, logical[2 * i + 1] ?? 0);
      commands.push({ op: i === 0 ? 'M' : 'L', x: sx, y: sy });
      const curve = curves[i];
      if (curve) commands.push(this.curve(curve));
    });
    this.figure(commands, true);
  }

  private curve([x1, y1, x2, y2, x, y]: [number, number, number, number, number, number]): MetafilePathCommand {
    const [px1, py1] = this.point(x1, y1);
    const [px2, py2] = this.point(x2, y2);
    const [px, py] = this.point(x, y);
    return { op: 'C', x1: px1, y1: py1, x2: px2, y2: py2, x: px, y: py };
  }

  ellipse(left: number, top: number, right: number, bottom: number): void {
    const arc = arcCurves(
      (left + right) / 2,
      (top + bottom) / 2,
      Math.abs(right - left) / 2,
      Math.abs(bottom - top) / 2,
      0,
      2 * Math.PI,
    );
    const [sx, sy] = this.point(...arc.start);
    this.figure([{ op: 'M', x: sx, y: sy }, ...arc.curves.map((c) => this.curve(c))], true);
  }

  /** Arc, Chord and Pie ([MS-EMF] §2.3.5.2/.4/.19): the box's ellipse from the start radial to the end radial. */
  arc(
    box: [number, number, number, number],
    start: [number, number],
    end: [number, number],
    kind: 'arc' | 'chord' | 'pie',
  ): void {
    const [left, top, right, bottom] = box;
    const cx = (left + right) / 2;
    const cy = (top + bottom) / 2;
    const rx = Math.abs(right - left) / 2;
    const ry = Math.abs(bottom - top) / 2;
    if (rx === 0 || ry === 0) return;
    const angle = ([x, y]: [number, number]) => Math.atan2(-(y - cy) / ry, (x - cx) / rx);
    const from = angle(start);
    let sweep = angle(end) - from;
    if (this.state.clockwise) {
      if (sweep >= 0) sweep -= 2 * Math.PI;
    } else if (sweep <= 0) sweep += 2 * Math.PI;
    const arc = arcCurves(cx, cy, rx, ry, from, sweep);
    const [sx, sy] = this.point(...arc.start);
    const commands: MetafilePathCommand[] = [{ op: 'M', x: sx, y: sy }, ...arc.curves.map((c) => this.curve(c))];
    if (kind === 'pie') {
      const [px, py] = this.point(cx, cy);
      commands.push({ op: 'L', x: px, y: py });
    }
    this.figure(commands, kind !== 'arc');
  }

  /**
   * Text at (x, y) logical with the selected font and text settings ([MS-EMF] §2.3.5.8,
   * [MS-WMF] §2.3.3.5). `advance` is the sum of the Dx array, logical units.
   */
  text(x: number, y: number, text: string, advance: number | undefined): void {
    if (this.full || text.length === 0) return;
    const { font, textAlign } = this.state;
    // TA_UPDATECP: the text starts at the current position ([MS-WMF] §2.1.2.18).
    const updateCp = (textAlign & 1) !== 0;
    const [lx, ly] = updateCp ? this.state.position : [x, y];
    const [px, py] = this.point(lx, ly);
    const [a, b, c, d] = this.transform();
    const yScale = Math.hypot(c, d);
    const xScale = Math.hypot(a, b);
    const height = font.height === 0 ? 12 * this.hairline : Math.abs(font.height) * yScale;
    const symbol = mapSymbolText(text, font.family);
    const horizontal = textAlign & 6;
    const vertical = textAlign & 24;
    const rotation = (Math.atan2(b, a) * 180) / Math.PI;
    if (updateCp && advance !== undefined) this.state.position = [lx + advance, ly];
    if (text.trim() === '') return;
    this.items.push({
      kind: 'text',
      x: px,
      y: py,
      text: symbol.text,
      // Symbol-encoded text has become Unicode, which a text face draws.
      font: {
        family: symbol.mapped ? 'Times New Roman' : font.family || 'Arial',
        bold: font.weight >= 600,
        italic: font.italic,
      },
      size: height,
      cellHeight: font.height > 0,
      color: this.state.textColor,
      align: horizontal === 6 ? 'center' : horizontal === 2 ? 'right' : 'left',
      valign: vertical === 24 ? 'baseline' : vertical === 8 ? 'bottom' : 'top',
      // lfEscapement is measured against the device's x-axis ([MS-WMF] §2.2.1.2), whatever the
      // mapping; a world transform's rotation turns it further.
      angle: font.escapement / 10 - rotation,
      ...(advance !== undefined && advance !== 0 ? { width: Math.abs(advance) * xScale } : {}),
      underline: font.underline,
    });
  }

  /** ETO_OPAQUE: the text's rectangle filled with the background colour, without outline or path. */
  fillBackground(left: number, top: number, right: number, bottom: number): void {
    if (this.full || left === right || top === bottom) return;
    const commands = this.points([left, top, right, top, right, bottom, left, bottom]);
    commands.push({ op: 'Z' });
    this.items.push({ kind: 'path', commands, fill: this.state.bkColor });
  }

  /** A bitmap into the logical rectangle (x, y, width, height). */
  image(x: number, y: number, width: number, height: number, image: ImageResource): void {
    if (this.full) return;
    const [x1, y1] = this.point(x, y);
    const [x2, y2] = this.point(x + width, y + height);
    this.items.push({
      kind: 'image',
      x: Math.min(x1, x2),
      y: Math.min(y1, y2),
      width: Math.abs(x2 - x1),
      height: Math.abs(y2 - y1),
      image,
      flipX: x2 < x1,
      flipY: y2 < y1,
    });
  }
}
