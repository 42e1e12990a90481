import type {
  Chart,
  ChartAxis,
  ChartDataLabels,
  ChartPlot,
  ChartPlotType,
  ChartSeries,
  ChartText,
  RunProperties,
} from '../../model';
import { type DrawingStyleContext, drawingRunProps, fillOf, schemeColor, strokeOf } from './drawingml-style';
import { chooseAlternative } from './markup-compatibility';
import { child, type XmlElement } from './xml-tree';

/**
 * A chart part (c:chartSpace, ECMA-376 Part 1 §21.2) into the chart model. Values, categories and
 * names come from the caches Word keeps beside each formula (c:strCache, c:numCache, literals),
 * never from the embedded workbook. Transitional and Strict files read alike (namespaces.ts).
 * Defaults are those of Word's default chart style (2013 and later): grey 9 pt labels, a 14 pt
 * title, light grey gridlines, the theme's accent colours in order.
 */

/**
 * What a chart without text or line properties of its own shows: Word 2007's default chart style
 * (black 10 pt text, an 18 pt bold title, grey lines). Word 2013 and later write every colour and
 * size explicitly (grey 9 pt labels, a 14 pt title), so those come from the part.
 */
const DEFAULT_TEXT = '000000';
const AXIS_LINE_GREY = '868686';

const PLOT_TYPES: Record<string, ChartPlotType> = {
  'c:barChart': 'bar',
  'c:bar3DChart': 'bar',
  'c:lineChart': 'line',
  'c:line3DChart': 'line',
  'c:stockChart': 'line',
  'c:areaChart': 'area',
  'c:area3DChart': 'area',
  'c:pieChart': 'pie',
  'c:pie3DChart': 'pie',
  'c:ofPieChart': 'pie',
  'c:doughnutChart': 'doughnut',
  'c:scatterChart': 'scatter',
  'c:bubbleChart': 'bubble',
  'c:radarChart': 'radar',
  'c:surfaceChart': 'area',
  'c:surface3DChart': 'area',
};

/** Points per series and series per chart read: Excel's own limits are 32,000 and 255. */
const MAX_POINTS = 32_000;
const MAX_SERIES = 255;

const val = (element: XmlElement | undefined): string | undefined => element?.attributes.val;
const flag = (element: XmlElement | undefined, fallback: boolean): boolean => {
  if (element === undefined) return fallback;
  const v = element.attributes.val;
  return v === undefined || v === '1' || v === 'true';
};
const num = (element: XmlElement | undefined): number | undefined => {
  const v = Number(element?.attributes.val);
  return element?.attributes.val !== undefined && Number.isFinite(v) ? v : undefined;
};

export function readChart(space: XmlElement, context: DrawingStyleContext, base: RunProperties): Chart {
  const chart = child(space, 'c:chart');
  if (space.name !== 'c:chartSpace' || chart === undefined) {
    throw new Error(`its root is <${space.name}>${space.name === 'c:chartSpace' ? ' without <c:chart>' : ''}`);
  }
  const textBase: RunProperties = drawingRunProps(
    defRPr(child(space, 'c:txPr')),
    {
      ...base,
      font: context.fonts.minor.latin ?? base.font,
      size: 10,
      bold: false,
      italic: false,
      color: DEFAULT_TEXT,
    },
    context,
  );
  const plotArea = child(chart, 'c:plotArea');
  const axes: ChartAxis[] = [];
  for (const element of plotArea?.children ?? []) {
    if (element.name === 'c:catAx' || element.name === 'c:dateAx' || element.name === 'c:valAx') {
      axes.push(readAxis(element, context, textBase));
    }
  }
  const firstValue = axes.find((axis) => axis.kind === 'value');
  const style = chartStyle(space);
  const plots: ChartPlot[] = [];
  let seriesCount = 0;
  for (const element of plotArea?.children ?? []) {
    const type = PLOT_TYPES[element.name];
    if (type === undefined) continue;
    const plot = readPlot(element, type, context, textBase, seriesCount, style);
    seriesCount += plot.series.length;
    const axisIds = element.children.filter((c) => c.name === 'c:axId').map((c) => val(c));
    // A plot whose value axis is not the first one is on the secondary axis.
    const valueAxis = axes.find((axis) => axis.kind === 'value' && axisIds.includes(axis.id) && axis !== firstValue);
    plot.secondary = type !== 'scatter' && type !== 'bubble' && valueAxis !== undefined;
    plots.push(plot);
  }
  const out: Chart = { plots, axes };
  const titleElement = child(chart, 'c:title');
  const autoDeleted = flag(child(chart, 'c:autoTitleDeleted'), false);
  if (titleElement !== undefined) {
    // A title without text of its own shows the series name of a one-series chart (Word's "auto title").
    const single = plots.length === 1 && plots[0]?.series.length === 1 ? plots[0].series[0]?.name : undefined;
    const title = readTitle(
      titleElement,
      context,
      { ...textBase, size: textBase.size * 1.8, bold: true },
      single ?? 'Chart Title',
    );
    if (title) out.title = title;
  } else if (
    !autoDeleted &&
    plots.length === 1 &&
    plots[0]?.series.length === 1 &&
    plots[0].type.match(/pie|doughnut/)
  ) {
    const name = plots[0].series[0]?.name;
    if (name) out.title = { text: name, props: { ...textBase, size: textBase.size * 1.8, bold: true } };
  }
  const legend = child(chart, 'c:legend');
  if (legend !== undefined) {
    const position = val(child(legend, 'c:legendPos')) ?? 'r';
    out.legend = {
      position: (['r', 'l', 't', 'b', 'tr'].includes(position) ? position : 'r') as 'r',
      props: drawingRunProps(defRPr(child(legend, 'c:txPr')), textBase, context),
    };
  }
  const spPr = child(space, 'c:spPr');
  const background = fillOf(spPr, context);
  if (background !== 'none') out.background = background ?? 'FFFFFF';
  const border = strokeOf(child(spPr, 'a:ln'), context);
  if (border !== undefined && border !== 'none') out.border = border.color;
  else if (spPr === undefined) out.border = AXIS_LINE_GREY;
  return out;
}

function defRPr(txPr: XmlElement | undefined): XmlElement | undefined {
  return child(child(child(txPr, 'a:p'), 'a:pPr'), 'a:defRPr');
}

function readTitle(
  title: XmlElement,
  context: DrawingStyleContext,
  base: RunProperties,
  fallback: string,
): ChartText | undefined {
  let props = drawingRunProps(defRPr(child(title, 'c:txPr')), base, context);
  const tx = child(title, 'c:tx');
  const rich = child(tx, 'c:rich');
  if (rich !== undefined) {
    const lines: string[] = [];
    for (const p of rich.children) {
      if (p.name !== 'a:p') continue;
      props = drawingRunProps(child(child(p, 'a:pPr'), 'a:defRPr'), props, context);
      let line = '';
      for (const r of p.children) {
        if (r.name === 'a:r' || r.name === 'a:fld') {
          if (line === '') props = drawingRunProps(child(r, 'a:rPr'), props, context);
          line += child(r, 'a:t')?.text ?? '';
        }
      }
      lines.push(line);
    }
    const text = lines.join(' ').trim();
    return text ? { text, props } : undefined;
  }
  const ref = stringValues(tx);
  const text = ref.length > 0 ? ref.join(' ') : fallback;
  return text ? { text, props } : undefined;
}

function readAxis(axis: XmlElement, context: DrawingStyleContext, textBase: RunProperties): ChartAxis {
  const scaling = child(axis, 'c:scaling');
  const position = val(child(axis, 'c:axPos')) ?? 'b';
  const numFmt = child(axis, 'c:numFmt');
  const labelProps = drawingRunProps(defRPr(child(axis, 'c:txPr')), textBase, context);
  const gridlines = child(axis, 'c:majorGridlines');
  const gridStroke = strokeOf(child(child(gridlines, 'c:spPr'), 'a:ln'), context);
  const out: ChartAxis = {
    id: val(child(axis, 'c:axId')) ?? '',
    kind: axis.name === 'c:valAx' ? 'value' : 'category',
    position: (['b', 't', 'l', 'r'].includes(position) ? position : 'b') as 'b',
    deleted: flag(child(axis, 'c:delete'), false),
    // A source-linked format follows the data's own format code (filled in by layout from the series).
    numberFormat:
      numFmt && numFmt.attributes.sourceLinked !== '1' ? (numFmt.attributes.formatCode ?? 'General') : 'General',
    reversed: val(child(scaling, 'c:orientation')) === 'maxMin',
    majorGridlines: gridlines !== undefined && gridStroke !== 'none',
    gridlineColor: gridStroke !== undefined && gridStroke !== 'none' ? gridStroke.color : AXIS_LINE_GREY,
    labels: val(child(axis, 'c:tickLblPos')) !== 'none',
    labelProps,
  };
  const min = num(child(scaling, 'c:min'));
  const max = num(child(scaling, 'c:max'));
  const majorUnit = num(child(axis, 'c:majorUnit'));
  if (min !== undefined) out.min = min;
  if (max !== undefined) out.max = max;
  if (majorUnit !== undefined && majorUnit > 0) out.majorUnit = majorUnit;
  const titleElement = child(axis, 'c:title');
  if (titleElement !== undefined) {
    const title = readTitle(titleElement, context, { ...textBase, bold: false }, 'Axis Title');
    if (title) out.title = title;
  }
  const line = strokeOf(child(child(axis, 'c:spPr'), 'a:ln'), context);
  if (line !== undefined && line !== 'none') out.lineColor = line.color;
  else if (line === undefined && out.kind === 'category') out.lineColor = AXIS_LINE_GREY;
  return out;
}

function readPlot(
  element: XmlElement,
  type: ChartPlotType,
  context: DrawingStyleContext,
  textBase: RunProperties,
  seriesBefore: number,
  style: number,
): ChartPlot {
  const grouping = val(child(element, 'c:grouping'));
  const varyColors = flag(child(element, 'c:varyColors'), false);
  const pieLike = type === 'pie' || type === 'doughnut';
  const plot: ChartPlot = {
    type,
    direction: val(child(element, 'c:barDir')) === 'bar' ? 'bar' : 'col',
    grouping:
      grouping === 'stacked' || grouping === 'percentStacked' || grouping === 'clustered'
        ? grouping
        : type === 'bar'
          ? 'clustered'
          : 'standard',
    series: [],
    secondary: false,
    gapWidth: num(child(element, 'c:gapWidth')) ?? 150,
    overlap: num(child(element, 'c:overlap')) ?? (grouping === 'stacked' || grouping === 'percentStacked' ? 100 : 0),
    holeSize: num(child(element, 'c:holeSize')) ?? 50,
    firstSliceAngle: num(child(element, 'c:firstSliceAngle')) ?? 0,
  };
  const plotLabels = readDataLabels(child(element, 'c:dLbls'), context, textBase);
  const lineChartMarkers = flag(child(element, 'c:marker'), true);
  const scatterStyle = val(child(element, 'c:scatterStyle'));
  let index = 0;
  for (const ser of element.children) {
    if (ser.name !== 'c:ser' || seriesBefore + index >= MAX_SERIES) continue;
    const idx = num(child(ser, 'c:idx')) ?? seriesBefore + index;
    index++;
    const spPr = child(ser, 'c:spPr');
    const accent = accentColor(context, idx, style);
    const fill = fillOf(spPr, context);
    const stroke = strokeOf(child(spPr, 'a:ln'), context);
    const lineLike = type === 'line' || type === 'scatter' || type === 'radar';
    let color = accent;
    if (lineLike && stroke !== undefined && stroke !== 'none') color = stroke.color;
    else if (!lineLike && fill !== undefined && fill !== 'none') color = fill;
    const catElement = child(ser, 'c:cat') ?? child(ser, 'c:xVal');
    const valElement = child(ser, 'c:val') ?? child(ser, 'c:yVal');
    const values = numberValues(valElement);
    const symbol = val(child(child(ser, 'c:marker'), 'c:symbol'));
    const series: ChartSeries = {
      name: stringValues(child(ser, 'c:tx')).join(' ') || `Series${idx + 1}`,
      categories: stringValues(catElement),
      values: values.values,
      color,
      lineWidth: stroke !== undefined && stroke !== 'none' ? stroke.width : 2.25,
      noLine:
        stroke === 'none' ||
        (type === 'scatter' && (scatterStyle === 'marker' || scatterStyle === 'none') && stroke === undefined),
      // Without a symbol of its own a series shows automatic markers where its plot asks for them.
      marker: symbol !== undefined ? symbol !== 'none' : type === 'scatter' || (type === 'line' && lineChartMarkers),
      formatCode: values.formatCode,
    };
    if (type === 'scatter' || type === 'bubble') {
      const x = numberValues(child(ser, 'c:xVal'));
      if (x.values.some((v) => v !== undefined) && !child(child(ser, 'c:xVal'), 'c:strRef')) series.xValues = x.values;
    }
    if (type === 'bubble') series.sizes = numberValues(child(ser, 'c:bubbleSize')).values;
    const points: (string | undefined)[] = [];
    if (pieLike && (varyColors || plot.series.length === 0)) {
      for (let i = 0; i < values.values.length; i++) points[i] = accentColor(context, i, style);
    }
    for (const dPt of ser.children) {
      if (dPt.name !== 'c:dPt') continue;
      const i = num(child(dPt, 'c:idx'));
      const pointFill = fillOf(child(dPt, 'c:spPr'), context);
      if (i !== undefined && pointFill !== undefined && pointFill !== 'none') points[i] = pointFill;
    }
    if (points.length > 0) series.pointColors = points;
    plot.series.push(series);
    const labels = readDataLabels(child(ser, 'c:dLbls'), context, textBase) ?? plotLabels;
    if (labels && plot.dataLabels === undefined) plot.dataLabels = labels;
  }
  return plot;
}

function readDataLabels(
  dLbls: XmlElement | undefined,
  context: DrawingStyleContext,
  textBase: RunProperties,
): ChartDataLabels | undefined {
  if (dLbls === undefined || flag(child(dLbls, 'c:delete'), false)) return undefined;
  const labels: ChartDataLabels = {
    value: flag(child(dLbls, 'c:showVal'), false),
    percent: flag(child(dLbls, 'c:showPercent'), false),
    category: flag(child(dLbls, 'c:showCatName'), false),
    series: flag(child(dLbls, 'c:showSerName'), false),
    props: drawingRunProps(defRPr(child(dLbls, 'c:txPr')), textBase, context),
  };
  return labels.value || labels.percent || labels.category || labels.series ? labels : undefined;
}

/** The chart style (c:style, §21.2.2.196; Office 2010+ wraps it in mc:AlternateContent): 2 by default. */
function chartStyle(space: XmlElement): number {
  for (const element of space.children) {
    const candidate = element.name === 'mc:AlternateContent' ? child(chooseAlternative(element), 'c:style') : element;
    if (candidate?.name === 'c:style') return num(candidate) ?? 2;
  }
  return 2;
}

/**
 * Series colours of a chart without its own (§21.2.2.196 c:style): styles 2, 10, 18… use
 * accent1…accent6, then the same darkened, then lightened; styles 3–8 (+8n) shade one accent
 * (accent1…accent6) from series to series; styles 1, 9… are greys.
 */
function accentColor(context: DrawingStyleContext, index: number, style = 2): string {
  const variant = ((Math.max(1, style) - 1) % 8) + 1;
  let base: string;
  let round: number;
  if (variant >= 3) {
    base = schemeColor(context.colors, `accent${variant - 2}`);
    round = index % 3;
  } else {
    base = variant === 1 ? '7F7F7F' : schemeColor(context.colors, `accent${(index % 6) + 1}`);
    round = variant === 1 ? index % 3 : Math.floor(index / 6) % 3;
  }
  if (round === 0) return base;
  const factor = round === 1 ? 0.6 : 1.4;
  return [0, 2, 4]
    .map((i) => {
      const c = Number.parseInt(base.slice(i, i + 2), 16);
      const v = factor < 1 ? c * factor : c + (255 - c) * (factor - 1);
      return Math.round(Math.max(0, Math.min(255, v)))
        .toString(16)
        .padStart(2, '0');
    })
    .join('')
    .toUpperCase();
}

/** The cached points of a data reference or literal, by c:pt/@idx (missing points stay empty). */
function cachedPoints(element: XmlElement | undefined): { points: string[]; formatCode: string; count: number } {
  const out: { points: string[]; formatCode: string; count: number } = { points: [], formatCode: 'General', count: 0 };
  if (element === undefined) return out;
  const cache =
    child(child(element, 'c:numRef'), 'c:numCache') ??
    child(child(element, 'c:strRef'), 'c:strCache') ??
    child(element, 'c:numLit') ??
    child(element, 'c:strLit') ??
    child(child(element, 'c:multiLvlStrRef'), 'c:multiLvlStrCache') ??
    (element.name === 'c:numCache' || element.name === 'c:strCache' ? element : undefined);
  if (cache === undefined) {
    // A series name given as a plain value (c:tx/c:v).
    const v = child(element, 'c:v');
    if (v) out.points.push(v.text);
    return out;
  }
  // Multi-level categories: the innermost level (the first c:lvl) labels the points.
  const source = child(cache, 'c:lvl') ?? cache;
  out.formatCode = child(cache, 'c:formatCode')?.text || 'General';
  out.count = num(child(cache, 'c:ptCount')) ?? 0;
  for (const pt of source.children) {
    if (pt.name !== 'c:pt') continue;
    const idx = Number(pt.attributes.idx);
    // Bounded: a hostile idx cannot make a huge sparse array.
    if (!Number.isInteger(idx) || idx < 0 || idx >= MAX_POINTS) continue;
    out.points[idx] = child(pt, 'c:v')?.text ?? '';
  }
  return out;
}

function stringValues(element: XmlElement | undefined): string[] {
  const { points, count } = cachedPoints(element);
  const length = Math.min(MAX_POINTS, Math.max(points.length, count));
  return Array.from({ length }, (_, i) => points[i] ?? '');
}

function numberValues(element: XmlElement | undefined): { values: (number | undefined)[]; formatCode: string } {
  const { points, formatCode, count } = cachedPoints(element);
  const length = Math.min(MAX_POINTS, Math.max(points.length, count));
  const values = Array.from({ length }, (_, i) => {
    const text = points[i];
    if (text === undefined || text === '') return undefined;
    const value = Number(text);
    // Values beyond ±1e100 would overflow the axis arithmetic; no real chart has them.
    return Number.isFinite(value) && Math.abs(value) < 1e100 ? value : undefined;
  });
  return { values, formatCode };
}
