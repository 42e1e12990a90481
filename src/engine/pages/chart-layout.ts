/**
 * A chart (src/engine/model/drawing.ts) drawn as display-list items in its own frame (0,0 = top-left),
 * in the look of Word's default chart style: title on top, legend where c:legendPos says, value
 * axis with "nice" ticks and light grey gridlines, category labels under the plot, bars, lines,
 * areas, slices, points and bubbles in the series' colours. Every label is real text.
 */
import type { FontFace, FontSet } from '../fonts';
import { type Color, faceFor, type PageItem, type PathCommand } from '../layout';
import type { Chart, ChartAxis, ChartPlot, ChartSeries, RunProperties } from '../model';
import { formatSpreadsheetNumber } from '../text';
import type { RenderedDrawing } from './display-list';

const GRID = 'D9D9D9';
const PAD = 7;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

class Canvas {
  readonly items: PageItem[] = [];
  readonly faces = new Map<string, FontFace>();
  readonly fonts: FontSet;

  constructor(fonts: FontSet) {
    this.fonts = fonts;
  }

  face(props: RunProperties): FontFace {
    const face = faceFor(this.fonts, props);
    this.faces.set(face.key, face);
    return face;
  }

  lineHeight(props: RunProperties): number {
    const face = faceFor(this.fonts, props);
    return (face.ascent + face.descent) * props.size;
  }

  /** Runs of `text` in one face each: characters the face lacks go to a fallback face (docs/engine.md). */
  private runs(text: string, props: RunProperties): { face: FontFace; text: string; width: number }[] {
    const primary = faceFor(this.fonts, props);
    const request = { family: props.font, bold: props.bold, italic: props.italic };
    const out: { face: FontFace; text: string; width: number }[] = [];
    for (const ch of text) {
      const cp = ch.codePointAt(0) ?? 32;
      const face = cp < 32 || primary.hasGlyph(cp) ? primary : (this.fonts.fallback(cp, request) ?? primary);
      const last = out[out.length - 1];
      if (last && last.face === face) last.text += ch;
      else out.push({ face, text: ch, width: 0 });
    }
    for (const run of out) run.width = run.face.measure(run.text) * props.size;
    return out;
  }

  measure(text: string, props: RunProperties): number {
    return this.runs(text, props).reduce((sum, run) => sum + run.width, 0);
  }

  /** Text with its box's top-left at (x, top); `align` places x at the left, centre or right. */
  text(text: string, props: RunProperties, x: number, top: number, align: 'left' | 'center' | 'right' = 'left'): void {
    if (text.trim() === '') return;
    const runs = this.runs(text, props);
    const width = runs.reduce((sum, run) => sum + run.width, 0);
    let left = align === 'center' ? x - width / 2 : align === 'right' ? x - width : x;
    const baseline = top + faceFor(this.fonts, props).ascent * props.size;
    for (const run of runs) {
      this.faces.set(run.face.key, run.face);
      this.items.push({
        kind: 'text',
        x: left,
        y: baseline,
        font: run.face.key,
        size: props.size,
        color: props.color ?? '000000',
        text: run.text,
      });
      left += run.width;
    }
  }

  /** Text turned 90° counter-clockwise, centred on (cx, cy): a vertical axis title. */
  verticalText(text: string, props: RunProperties, cx: number, cy: number): void {
    if (text.trim() === '') return;
    const face = this.face(props);
    const width = face.measure(text) * props.size;
    const height = (face.ascent + face.descent) * props.size;
    this.items.push({
      kind: 'text',
      x: cx - height / 2 + face.ascent * props.size,
      y: cy + width / 2,
      font: face.key,
      size: props.size,
      color: props.color ?? '000000',
      text,
      angle: 90,
    });
  }

  rect(r: Rect, fill: Color | undefined, stroke?: Color, strokeWidth = 0.75): void {
    if (r.width <= 0 && r.height <= 0) return;
    this.items.push({
      kind: 'rect',
      ...r,
      ...(fill ? { fill } : {}),
      ...(stroke ? { stroke, strokeWidth } : {}),
    });
  }

  line(x1: number, y1: number, x2: number, y2: number, color: Color, width = 0.75): void {
    this.items.push({ kind: 'line', x1, y1, x2, y2, color, width });
  }

  path(commands: PathCommand[], fill: Color | undefined, stroke?: Color, strokeWidth = 0.75): void {
    this.items.push({
      kind: 'path',
      commands,
      ...(fill ? { fill } : {}),
      ...(stroke ? { stroke, strokeWidth } : {}),
    });
  }
}

/** Bézier arcs (at most 90° each) of a circle, clockwise in page coordinates, angles in radians from 12 o'clock. */
function arc(cx: number, cy: number, r: number, from: number, to: number, first: boolean): PathCommand[] {
  const out: PathCommand[] = [];
  const point = (a: number) => ({ x: cx + r * Math.sin(a), y: cy - r * Math.cos(a) });
  const start = point(from);
  out.push({ op: first ? 'M' : 'L', ...start });
  const steps = Math.max(1, Math.ceil(Math.abs(to - from) / (Math.PI / 2)));
  const step = (to - from) / steps;
  const k = (4 / 3) * Math.tan(step / 4) * r;
  for (let i = 0; i < steps; i++) {
    const a0 = from + i * step;
    const a1 = a0 + step;
    const p0 = point(a0);
    const p1 = point(a1);
    out.push({
      op: 'C',
      x1: p0.x + k * Math.cos(a0),
      y1: p0.y + k * Math.sin(a0),
      x2: p1.x - k * Math.cos(a1),
      y2: p1.y - k * Math.sin(a1),
      x: p1.x,
      y: p1.y,
    });
  }
  return out;
}

function circle(cx: number, cy: number, r: number): PathCommand[] {
  return [...arc(cx, cy, r, 0, 2 * Math.PI, true), { op: 'Z' }];
}

interface LegendEntry {
  name: string;
  color: Color;
  line: boolean;
}

function legendEntries(chart: Chart): LegendEntry[] {
  const [first] = chart.plots;
  if (chart.plots.length === 1 && first && (first.type === 'pie' || first.type === 'doughnut')) {
    const series = first.series[0];
    if (!series) return [];
    return series.categories.map((name, i) => ({ name, color: series.pointColors?.[i] ?? series.color, line: false }));
  }
  const out: LegendEntry[] = [];
  for (const plot of chart.plots) {
    for (const series of plot.series) {
      const line = plot.type === 'line' || plot.type === 'radar' || (plot.type === 'scatter' && !series.noLine);
      out.push({ name: series.name, color: series.color, line });
    }
  }
  // A legend beside stacked columns lists the series top-down as they are stacked.
  const stacked = chart.plots.every((p) => p.type === 'bar' && p.grouping !== 'clustered' && p.direction === 'col');
  const beside = chart.legend?.position === 'r' || chart.legend?.position === 'l' || chart.legend?.position === 'tr';
  return stacked && beside ? out.reverse() : out;
}

/** Lays the legend out and returns the room it takes from the chart's inner area. */
function drawLegend(canvas: Canvas, chart: Chart, area: Rect): Rect {
  const legend = chart.legend;
  if (!legend) return area;
  const entries = legendEntries(chart).filter((entry) => entry.name !== '');
  if (entries.length === 0) return area;
  const props = legend.props;
  const height = canvas.lineHeight(props);
  const swatch = props.size * 0.7;
  const widths = entries.map((e) => swatch + 4 + canvas.measure(e.name, props));
  const drawEntry = (entry: LegendEntry, x: number, top: number) => {
    const mid = top + height / 2;
    if (entry.line) canvas.line(x, mid, x + swatch * 1.6, mid, entry.color, 2);
    else canvas.rect({ x, y: mid - swatch / 2, width: swatch, height: swatch }, entry.color);
    canvas.text(entry.name, props, x + (entry.line ? swatch * 1.6 : swatch) + 4, top);
  };
  if (legend.position === 'b' || legend.position === 't') {
    const gap = 10;
    // Rows of entries centred across the area.
    const rows: number[][] = [[]];
    let used = 0;
    widths.forEach((w, i) => {
      const row = rows[rows.length - 1] as number[];
      if (row.length > 0 && used + gap + w > area.width) {
        rows.push([i]);
        used = w;
      } else {
        row.push(i);
        used += (row.length > 1 ? gap : 0) + w;
      }
    });
    const total = rows.length * height;
    let top = legend.position === 'b' ? area.y + area.height - total : area.y;
    for (const row of rows) {
      const rowWidth = row.reduce((sum, i) => sum + (widths[i] ?? 0), 0) + gap * (row.length - 1);
      let x = area.x + (area.width - rowWidth) / 2;
      for (const i of row) {
        const entry = entries[i];
        if (entry) drawEntry(entry, x, top);
        x += (widths[i] ?? 0) + gap;
      }
      top += height;
    }
    return legend.position === 'b'
      ? { ...area, height: area.height - total - 4 }
      : { ...area, y: area.y + total + 4, height: area.height - total - 4 };
  }
  const columnWidth = Math.min(Math.max(...widths), area.width * 0.4);
  const total = entries.length * height;
  const x = legend.position === 'l' ? area.x : area.x + area.width - columnWidth;
  let top = legend.position === 'tr' ? area.y : area.y + (area.height - total) / 2;
  for (const entry of entries) {
    drawEntry(entry, x, top);
    top += height;
  }
  return legend.position === 'l'
    ? { ...area, x: area.x + columnWidth + 6, width: area.width - columnWidth - 6 }
    : { ...area, width: area.width - columnWidth - 6 };
}

interface Scale {
  min: number;
  max: number;
  step: number;
  format: string;
}

/** Excel-like automatic axis bounds: zero included, a major unit of 1, 2 or 5 × 10ⁿ. */
function niceScale(low: number, high: number, axis: ChartAxis | undefined, maxTicks: number, format: string): Scale {
  // Zero is included unless the data sit far from it (Excel: when min > 5/6 of max).
  const farFromZero = low > 0 && low > (high * 5) / 6;
  const dataMin = axis?.min ?? (farFromZero ? low : Math.min(low, 0));
  let dataMax = axis?.max ?? Math.max(high, 0);
  if (dataMax <= dataMin) dataMax = dataMin + 1;
  const range = dataMax - dataMin;
  // Excel leaves about 5 % of room beyond the data before rounding out to a tick.
  const bounds = (step: number) => ({
    min: axis?.min ?? Math.floor((dataMin < 0 ? dataMin - range * 0.05 : dataMin) / step + 1e-9) * step,
    max: axis?.max ?? Math.ceil((dataMax + range * 0.05) / step - 1e-9) * step,
  });
  const given = axis?.majorUnit;
  if (given !== undefined && range / given <= 1000) return { ...bounds(given), step: given, format };
  // The smallest step of 1, 2 or 5 × 10ⁿ that gives at most `maxTicks` intervals (at most 10, as Excel).
  const limit = Math.max(2, Math.min(10, maxTicks));
  let magnitude = 10 ** Math.floor(Math.log10(range / limit));
  for (let guard = 0; guard < 8; guard++, magnitude *= 10) {
    for (const m of [1, 2, 5]) {
      const step = m * magnitude;
      const { min, max } = bounds(step);
      if ((max - min) / step <= limit + 1e-9) return { min, max, step, format };
    }
  }
  return { ...bounds(range), step: range, format };
}

function ticks(scale: Scale): number[] {
  const out: number[] = [];
  for (let v = scale.min, i = 0; v <= scale.max + scale.step * 1e-6 && i < 200; v += scale.step, i++) {
    out.push(Math.abs(v) < scale.step * 1e-9 ? 0 : Number(v.toPrecision(12)));
  }
  return out;
}

/** The value range a plot needs (stacked series summed, percent stacks 0–1). */
function plotRange(plot: ChartPlot): [number, number] {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  const count = Math.max(0, ...plot.series.map((s) => s.values.length));
  if (plot.grouping === 'percentStacked') return [0, 1];
  if (plot.grouping === 'stacked') {
    for (let i = 0; i < count; i++) {
      let up = 0;
      let down = 0;
      for (const s of plot.series) {
        const v = s.values[i] ?? 0;
        if (v >= 0) up += v;
        else down += v;
      }
      high = Math.max(high, up);
      low = Math.min(low, down);
    }
  } else {
    for (const s of plot.series) {
      for (const v of s.values) {
        if (v === undefined) continue;
        high = Math.max(high, v);
        low = Math.min(low, v);
      }
    }
  }
  if (!Number.isFinite(low)) return [0, 1];
  return [low, high];
}

function seriesFormat(plots: ChartPlot[]): string {
  return plots[0]?.series[0]?.formatCode ?? 'General';
}

function format(value: number, code: string): string {
  return formatSpreadsheetNumber(value, code);
}

export function layoutChart(chart: Chart, width: number, height: number, fonts: FontSet): RenderedDrawing {
  const canvas = new Canvas(fonts);
  if (chart.background || chart.border) canvas.rect({ x: 0, y: 0, width, height }, chart.background, chart.border);
  let area: Rect = { x: PAD, y: PAD, width: width - 2 * PAD, height: height - 2 * PAD };
  if (chart.title) {
    const { text, props } = chart.title;
    canvas.text(text, props, width / 2, area.y, 'center');
    const used = canvas.lineHeight(props) + 4;
    area = { ...area, y: area.y + used, height: area.height - used };
  }
  area = drawLegend(canvas, chart, area);
  if (area.width < 10 || area.height < 10) return { items: canvas.items, faces: [...canvas.faces.values()] };
  const [first] = chart.plots;
  if (first && (first.type === 'pie' || first.type === 'doughnut')) drawPie(canvas, first, area);
  else if (first) drawAxesChart(canvas, chart, area);
  return { items: canvas.items, faces: [...canvas.faces.values()] };
}

function drawPie(canvas: Canvas, plot: ChartPlot, area: Rect): void {
  const series = plot.series[0];
  if (!series) return;
  const values = series.values.map((v) => Math.max(0, v ?? 0));
  const total = values.reduce((a, b) => a + b, 0);
  const r = Math.min(area.width, area.height) / 2 - 2;
  const cx = area.x + area.width / 2;
  const cy = area.y + area.height / 2;
  if (total <= 0 || r <= 0) return;
  let angle = (plot.firstSliceAngle * Math.PI) / 180;
  const hole = plot.type === 'doughnut' ? (r * Math.min(90, Math.max(10, plot.holeSize))) / 100 : 0;
  const labels: { text: string; x: number; y: number }[] = [];
  values.forEach((value, i) => {
    if (value <= 0) return;
    const sweep = (value / total) * 2 * Math.PI;
    const color = series.pointColors?.[i] ?? series.color;
    const commands: PathCommand[] =
      hole > 0
        ? [
            ...arc(cx, cy, r, angle, angle + sweep, true),
            ...arc(cx, cy, hole, angle + sweep, angle, false),
            { op: 'Z' },
          ]
        : [{ op: 'M', x: cx, y: cy }, ...arc(cx, cy, r, angle, angle + sweep, false), { op: 'Z' }];
    canvas.path(commands, color, 'FFFFFF', 0.75);
    const labelsWanted = plot.dataLabels;
    if (labelsWanted) {
      const parts: string[] = [];
      if (labelsWanted.category) parts.push(series.categories[i] ?? '');
      if (labelsWanted.value) parts.push(format(value, series.formatCode));
      if (labelsWanted.percent) parts.push(`${Math.round((value / total) * 100)}%`);
      const mid = angle + sweep / 2;
      const distance = hole > 0 ? (r + hole) / 2 : r * 0.65;
      labels.push({ text: parts.join('; '), x: cx + distance * Math.sin(mid), y: cy - distance * Math.cos(mid) });
    }
    angle += sweep;
  });
  if (plot.dataLabels) {
    const props = plot.dataLabels.props;
    const h = canvas.lineHeight(props);
    for (const label of labels) canvas.text(label.text, props, label.x, label.y - h / 2, 'center');
  }
}

/** Charts with axes: bars, lines, areas, scatter, bubbles (and radar drawn as lines). */
function drawAxesChart(canvas: Canvas, chart: Chart, outer: Rect): void {
  const valueAxes = chart.axes.filter((a) => a.kind === 'value');
  const xy = chart.plots.some((p) => p.type === 'scatter' || p.type === 'bubble');
  const horizontalBars = chart.plots.some((p) => p.type === 'bar' && p.direction === 'bar');
  // Scatter: the value axis along the bottom is x.
  const xAxis = xy ? valueAxes.find((a) => a.position === 'b' || a.position === 't') : undefined;
  const yAxes = valueAxes.filter((a) => a !== xAxis);
  const primaryAxis = yAxes[0];
  const secondaryAxis = yAxes[1];
  const categoryAxis = chart.axes.find((a) => a.kind === 'category');
  const primaryPlots = chart.plots.filter((p) => !p.secondary);
  const secondaryPlots = chart.plots.filter((p) => p.secondary);
  const categories = Math.max(
    1,
    ...chart.plots.flatMap((p) => p.series.map((s) => Math.max(s.values.length, s.categories.length))),
  );
  const labelsOf = (): string[] => {
    for (const plot of chart.plots)
      for (const s of plot.series) if (s.categories.some((c) => c !== '')) return s.categories;
    return Array.from({ length: categories }, (_, i) => String(i + 1));
  };
  const categoryLabels = labelsOf();

  const labelProps = primaryAxis?.labelProps ?? categoryAxis?.labelProps ?? chart.legend?.props;
  if (!labelProps) return;
  const labelHeight = canvas.lineHeight(labelProps);
  const valueLength = horizontalBars ? outer.width : outer.height;
  const maxTicks = Math.max(2, Math.floor(valueLength / (labelHeight * (horizontalBars ? 4 : 1.1))));

  const scaleFor = (plots: ChartPlot[], axis: ChartAxis | undefined): Scale | undefined => {
    if (plots.length === 0) return undefined;
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (const plot of plots) {
      const [l, h] = plotRange(plot);
      low = Math.min(low, l);
      high = Math.max(high, h);
    }
    const percent = plots.some((p) => p.grouping === 'percentStacked');
    const code = axis && axis.numberFormat !== 'General' ? axis.numberFormat : percent ? '0%' : seriesFormat(plots);
    // Percent stacks run from 0 to 100 % exactly.
    const bounded = percent && axis ? { ...axis, min: axis.min ?? 0, max: axis.max ?? 1 } : axis;
    return niceScale(low, high, bounded, maxTicks, code);
  };
  const primary = scaleFor(primaryPlots.length > 0 ? primaryPlots : chart.plots, primaryAxis);
  const secondary = scaleFor(secondaryPlots, secondaryAxis);
  if (!primary) return;
  let xScale: Scale | undefined;
  if (xy) {
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (const plot of chart.plots) {
      for (const s of plot.series) {
        const xs = s.xValues ?? s.values.map((_, i) => i + 1);
        for (const v of xs) {
          if (v === undefined) continue;
          low = Math.min(low, v);
          high = Math.max(high, v);
        }
      }
    }
    if (!Number.isFinite(low)) [low, high] = [0, 1];
    const code = xAxis && xAxis.numberFormat !== 'General' ? xAxis.numberFormat : 'General';
    xScale = niceScale(low, high, xAxis, Math.max(2, Math.floor(outer.width / (labelHeight * 4))), code);
  }

  // Room for tick labels and axis titles around the plot.
  const tickLabels = (scale: Scale) => ticks(scale).map((v) => format(v, scale.format));
  const primaryLabels = primaryAxis?.deleted || primaryAxis?.labels === false ? [] : tickLabels(primary);
  const secondaryLabels = secondary && !secondaryAxis?.deleted ? tickLabels(secondary) : [];
  const widest = (labels: string[], props: RunProperties) =>
    Math.max(0, ...labels.map((l) => canvas.measure(l, props)));
  let plot: Rect = { ...outer };
  const titleRoom = (axis: ChartAxis | undefined) =>
    axis?.title && !axis.deleted ? canvas.lineHeight(axis.title.props) + 4 : 0;
  const showCategories = !(categoryAxis?.deleted ?? false) && (categoryAxis?.labels ?? true);
  if (horizontalBars) {
    const left =
      (showCategories ? widest(categoryLabels, categoryAxis?.labelProps ?? labelProps) + 6 : 0) +
      titleRoom(categoryAxis);
    const bottom = (primaryLabels.length ? labelHeight + 4 : 0) + titleRoom(primaryAxis);
    plot = {
      x: outer.x + left,
      y: outer.y + labelHeight / 2,
      width: outer.width - left - 6,
      height: outer.height - bottom - labelHeight / 2,
    };
  } else {
    const left =
      (primaryLabels.length ? widest(primaryLabels, primaryAxis?.labelProps ?? labelProps) + 6 : 0) +
      titleRoom(primaryAxis);
    const right = secondaryLabels.length
      ? widest(secondaryLabels, secondaryAxis?.labelProps ?? labelProps) + 6 + titleRoom(secondaryAxis)
      : 6;
    const xLabels = xy && xScale && !xAxis?.deleted ? labelHeight + 4 : showCategories ? labelHeight + 4 : 0;
    const bottom = xLabels + titleRoom(xy ? xAxis : categoryAxis);
    plot = {
      x: outer.x + left,
      y: outer.y + labelHeight / 2,
      width: outer.width - left - right,
      height: outer.height - bottom - labelHeight / 2,
    };
  }
  if (plot.width < 5 || plot.height < 5) return;

  // Axis titles.
  if (primaryAxis?.title && !primaryAxis.deleted) {
    const props = primaryAxis.title.props;
    if (horizontalBars)
      canvas.text(
        primaryAxis.title.text,
        props,
        plot.x + plot.width / 2,
        outer.y + outer.height - canvas.lineHeight(props),
        'center',
      );
    else
      canvas.verticalText(
        primaryAxis.title.text,
        props,
        outer.x + canvas.lineHeight(props) / 2,
        plot.y + plot.height / 2,
      );
  }
  const baseAxis = xy ? xAxis : categoryAxis;
  if (baseAxis?.title && !baseAxis.deleted) {
    const props = baseAxis.title.props;
    if (horizontalBars)
      canvas.verticalText(baseAxis.title.text, props, outer.x + canvas.lineHeight(props) / 2, plot.y + plot.height / 2);
    else
      canvas.text(
        baseAxis.title.text,
        props,
        plot.x + plot.width / 2,
        outer.y + outer.height - canvas.lineHeight(props),
        'center',
      );
  }
  if (secondaryAxis?.title && secondary && !secondaryAxis.deleted) {
    const props = secondaryAxis.title.props;
    canvas.verticalText(
      secondaryAxis.title.text,
      props,
      outer.x + outer.width - canvas.lineHeight(props) / 2,
      plot.y + plot.height / 2,
    );
  }

  // Value → position along the value axis.
  const along = (scale: Scale, reversed: boolean) => (v: number) => {
    const t = (v - scale.min) / (scale.max - scale.min);
    const u = reversed ? 1 - t : t;
    return horizontalBars ? plot.x + u * plot.width : plot.y + plot.height - u * plot.height;
  };
  const primaryAt = along(primary, primaryAxis?.reversed ?? false);
  const secondaryAt = secondary ? along(secondary, secondaryAxis?.reversed ?? false) : primaryAt;

  // Gridlines and value labels.
  const gridlines = primaryAxis?.majorGridlines ?? true;
  const gridColor = primaryAxis?.gridlineColor ?? GRID;
  for (const [i, v] of ticks(primary).entries()) {
    const p = primaryAt(v);
    if (horizontalBars) {
      if (gridlines) canvas.line(p, plot.y, p, plot.y + plot.height, gridColor);
      const label = primaryLabels[i];
      if (label) canvas.text(label, primaryAxis?.labelProps ?? labelProps, p, plot.y + plot.height + 3, 'center');
    } else {
      if (gridlines) canvas.line(plot.x, p, plot.x + plot.width, p, gridColor);
      const label = primaryLabels[i];
      if (label) canvas.text(label, primaryAxis?.labelProps ?? labelProps, plot.x - 4, p - labelHeight / 2, 'right');
    }
  }
  if (secondary) {
    for (const [i, v] of ticks(secondary).entries()) {
      const label = secondaryLabels[i];
      if (label)
        canvas.text(
          label,
          secondaryAxis?.labelProps ?? labelProps,
          plot.x + plot.width + 4,
          secondaryAt(v) - labelHeight / 2,
        );
    }
  }

  // Category positions.
  const reversedCategories = categoryAxis?.reversed ?? false;
  const band = (horizontalBars ? plot.height : plot.width) / categories;
  const bandStart = (i: number) => {
    const index = reversedCategories !== horizontalBars ? categories - 1 - i : i;
    return (horizontalBars ? plot.y : plot.x) + index * band;
  };
  const hasBars = chart.plots.some((p) => p.type === 'bar');
  const onlyArea = chart.plots.every((p) => p.type === 'area');
  const categoryCenter = (i: number) => {
    if (onlyArea && !hasBars && categories > 1) {
      const step = plot.width / (categories - 1);
      return plot.x + (reversedCategories ? categories - 1 - i : i) * step;
    }
    return bandStart(i) + band / 2;
  };

  // Category axis line and labels.
  const zero = primaryAt(Math.max(primary.min, Math.min(primary.max, 0)));
  const axisColor = categoryAxis?.lineColor ?? GRID;
  if (!xy) {
    if (horizontalBars) canvas.line(zero, plot.y, zero, plot.y + plot.height, axisColor);
    else canvas.line(plot.x, zero, plot.x + plot.width, zero, axisColor);
  }
  if (!xy && showCategories) {
    const props = categoryAxis?.labelProps ?? labelProps;
    // Labels wider than their band: show every n-th.
    const widestLabel = widest(categoryLabels, props);
    const every = horizontalBars
      ? Math.max(1, Math.ceil(labelHeight / band))
      : Math.max(1, Math.ceil((widestLabel + 4) / band));
    for (let i = 0; i < categories; i += every) {
      const label = categoryLabels[i] ?? '';
      const c = categoryCenter(i);
      if (horizontalBars) canvas.text(label, props, plot.x - 4, c - labelHeight / 2, 'right');
      // Labels sit next to the axis (c:tickLblPos nextTo, the default): at zero when values go below it.
      else canvas.text(label, props, c, Math.max(zero, plot.y) + 3, 'center');
    }
  }
  if (xy && xScale) {
    const props = xAxis?.labelProps ?? labelProps;
    for (const v of ticks(xScale)) {
      const x = plot.x + ((v - xScale.min) / (xScale.max - xScale.min)) * plot.width;
      if (xAxis?.majorGridlines) canvas.line(x, plot.y, x, plot.y + plot.height, xAxis.gridlineColor);
      if (!xAxis?.deleted) canvas.text(format(v, xScale.format), props, x, plot.y + plot.height + 3, 'center');
    }
    canvas.line(plot.x, zero, plot.x + plot.width, zero, GRID);
  }

  // Data.
  const barPlots = chart.plots.filter((p) => p.type === 'bar');
  for (const p of chart.plots.filter((p) => p.type === 'area'))
    drawArea(canvas, p, categories, categoryCenter, p.secondary ? secondaryAt : primaryAt, zero);
  for (const p of barPlots)
    drawBars(canvas, p, categories, band, bandStart, p.secondary ? secondaryAt : primaryAt, horizontalBars);
  for (const p of chart.plots.filter((p) => p.type === 'line' || p.type === 'radar'))
    drawLines(canvas, p, categoryCenter, p.secondary ? secondaryAt : primaryAt);
  if (xScale) {
    const xAt = (v: number) =>
      plot.x + ((v - (xScale as Scale).min) / ((xScale as Scale).max - (xScale as Scale).min)) * plot.width;
    for (const p of chart.plots.filter((p) => p.type === 'scatter' || p.type === 'bubble'))
      drawXY(canvas, p, xAt, primaryAt, plot);
  }
}

function stackedValues(plot: ChartPlot, i: number): { base: number[]; top: number[] } {
  const base: number[] = [];
  const top: number[] = [];
  let up = 0;
  let down = 0;
  let total = 0;
  if (plot.grouping === 'percentStacked') for (const s of plot.series) total += Math.abs(s.values[i] ?? 0);
  for (const s of plot.series) {
    let v = s.values[i] ?? 0;
    if (plot.grouping === 'percentStacked') v = total > 0 ? v / total : 0;
    if (plot.grouping === 'stacked' || plot.grouping === 'percentStacked') {
      if (v >= 0) {
        base.push(up);
        up += v;
        top.push(up);
      } else {
        base.push(down);
        down += v;
        top.push(down);
      }
    } else {
      base.push(0);
      top.push(v);
    }
  }
  return { base, top };
}

function drawBars(
  canvas: Canvas,
  plot: ChartPlot,
  categories: number,
  band: number,
  bandStart: (i: number) => number,
  at: (v: number) => number,
  horizontal: boolean,
): void {
  const stacked = plot.grouping === 'stacked' || plot.grouping === 'percentStacked';
  const n = stacked ? 1 : Math.max(1, plot.series.length);
  const overlap = stacked ? 1 : Math.max(-1, Math.min(1, plot.overlap / 100));
  const gap = Math.max(0, plot.gapWidth / 100);
  const barWidth = band / (n - (n - 1) * overlap + gap);
  const labels: { text: string; x: number; y: number }[] = [];
  for (let i = 0; i < categories; i++) {
    const { base, top } = stackedValues(plot, i);
    plot.series.forEach((series, s) => {
      const value = series.values[i];
      if (value === undefined) return;
      // Horizontal bars stack their series upwards, the first nearest the axis (as Excel draws them).
      const slot = stacked ? 0 : horizontal ? n - 1 - s : s;
      const offset = bandStart(i) + (gap * barWidth) / 2 + slot * barWidth * (1 - overlap);
      const a = at(base[s] ?? 0);
      const b = at(top[s] ?? 0);
      const color = series.pointColors?.[i] ?? series.color;
      const rect = horizontal
        ? { x: Math.min(a, b), y: offset, width: Math.abs(b - a), height: barWidth }
        : { x: offset, y: Math.min(a, b), width: barWidth, height: Math.abs(b - a) };
      canvas.rect(rect, color);
      if (plot.dataLabels?.value || plot.dataLabels?.series || plot.dataLabels?.category) {
        const text = dataLabel(plot, series, i, value);
        labels.push(
          horizontal
            ? { text, x: rect.x + rect.width + 2, y: rect.y + rect.height / 2 }
            : { text, x: rect.x + rect.width / 2, y: stacked ? rect.y + rect.height / 2 : rect.y - 2 },
        );
      }
    });
  }
  drawLabels(canvas, plot, labels, horizontal ? 'left' : 'center', !horizontal && !stacked);
}

function dataLabel(plot: ChartPlot, series: ChartSeries, i: number, value: number): string {
  const labels = plot.dataLabels;
  const parts: string[] = [];
  if (labels?.series) parts.push(series.name);
  if (labels?.category) parts.push(series.categories[i] ?? '');
  if (labels?.value) parts.push(formatSpreadsheetNumber(value, series.formatCode));
  return parts.join(', ');
}

/** A line or scatter series: its polyline (unless it is drawn without one) and its markers. */
function drawSeriesLine(canvas: Canvas, series: ChartSeries, points: readonly { x: number; y: number }[]): void {
  if (!series.noLine && points.length > 1) {
    canvas.path(
      points.map((p, k) => ({ op: k === 0 ? 'M' : 'L', x: p.x, y: p.y })),
      undefined,
      series.color,
      series.lineWidth,
    );
  }
  if (series.marker) for (const p of points) canvas.path(circle(p.x, p.y, 2.5), series.color, series.color, 0.75);
}

function drawLabels(
  canvas: Canvas,
  plot: ChartPlot,
  labels: { text: string; x: number; y: number }[],
  align: 'left' | 'center',
  above: boolean,
): void {
  const props = plot.dataLabels?.props;
  if (!props) return;
  const h = canvas.lineHeight(props);
  for (const label of labels) canvas.text(label.text, props, label.x, above ? label.y - h : label.y - h / 2, align);
}

function drawLines(canvas: Canvas, plot: ChartPlot, center: (i: number) => number, at: (v: number) => number): void {
  const labels: { text: string; x: number; y: number }[] = [];
  const count = Math.max(0, ...plot.series.map((s) => s.values.length));
  const points: { x: number; y: number }[][] = plot.series.map(() => []);
  for (let i = 0; i < count; i++) {
    const { top } = stackedValues(plot, i);
    plot.series.forEach((series, s) => {
      const value = series.values[i];
      if (value === undefined) return;
      points[s]?.push({ x: center(i), y: at(top[s] ?? value) });
      if (plot.dataLabels)
        labels.push({ text: dataLabel(plot, series, i, value), x: center(i), y: at(top[s] ?? value) - 4 });
    });
  }
  plot.series.forEach((series, s) => {
    drawSeriesLine(canvas, series, points[s] ?? []);
  });
  drawLabels(canvas, plot, labels, 'center', true);
}

function drawArea(
  canvas: Canvas,
  plot: ChartPlot,
  categories: number,
  center: (i: number) => number,
  at: (v: number) => number,
  zero: number,
): void {
  const stacks = Array.from({ length: categories }, (_, i) => stackedValues(plot, i));
  // Later series first so that the first (nearest) series is drawn on top in standard areas.
  const order = plot.grouping === 'standard' ? [...plot.series.keys()].reverse() : [...plot.series.keys()];
  for (const s of order) {
    const series = plot.series[s];
    if (!series) continue;
    const topLine = stacks.map((stack, i) => ({ x: center(i), y: at(stack.top[s] ?? 0) }));
    const baseLine = stacks
      .map((stack, i) => ({ x: center(i), y: plot.grouping === 'standard' ? zero : at(stack.base[s] ?? 0) }))
      .reverse();
    const commands: PathCommand[] = [
      ...topLine.map((p, k) => ({ op: (k === 0 ? 'M' : 'L') as 'M' | 'L', x: p.x, y: p.y })),
      ...baseLine.map((p) => ({ op: 'L' as const, x: p.x, y: p.y })),
      { op: 'Z' },
    ];
    canvas.path(commands, series.color);
  }
}

function drawXY(
  canvas: Canvas,
  plot: ChartPlot,
  xAt: (v: number) => number,
  yAt: (v: number) => number,
  area: Rect,
): void {
  const maxSize = Math.max(1e-9, ...plot.series.flatMap((s) => (s.sizes ?? []).map((v) => Math.abs(v ?? 0))));
  const maxRadius = Math.min(area.width, area.height) * 0.125;
  const labels: { text: string; x: number; y: number }[] = [];
  for (const series of plot.series) {
    const points: { x: number; y: number; i: number }[] = [];
    series.values.forEach((value, i) => {
      if (value === undefined) return;
      const xv = series.xValues?.[i] ?? i + 1;
      points.push({ x: xAt(xv), y: yAt(value), i });
    });
    if (plot.type === 'bubble') {
      for (const p of points) {
        const size = Math.abs(series.sizes?.[p.i] ?? 0);
        // Bubble area proportional to size (c:sizeRepresents area, the default).
        const r = maxRadius * Math.sqrt(size / maxSize);
        if (r > 0) canvas.path(circle(p.x, p.y, r), series.pointColors?.[p.i] ?? series.color, 'FFFFFF', 0.75);
        if (plot.dataLabels)
          labels.push({ text: dataLabel(plot, series, p.i, series.values[p.i] ?? 0), x: p.x, y: p.y });
      }
      continue;
    }
    drawSeriesLine(canvas, series, points);
  }
  drawLabels(canvas, plot, labels, 'center', false);
}
