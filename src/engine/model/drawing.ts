/**
 * Drawings that are not pictures: DrawingML charts (ECMA-376 Part 1 §21.2), shapes and text boxes
 * (wps:wsp, §20.4 / §20.1.9), and SmartArt's pre-drawn shapes (the diagramDrawing part). Plain
 * data with everything resolved by the reader: colours are 6-digit hex (theme colours applied),
 * lengths are points, text carries computed run properties. Layout draws them; it reads no XML.
 */
import type { Block, RunProperties } from './document';

export type Drawing = ChartDrawing | ShapesDrawing;

export interface ChartDrawing {
  kind: 'chart';
  chart: Chart;
}

/** Shapes in the drawing's own frame (0,0 = the drawing's top-left corner), in paint order. */
export interface ShapesDrawing {
  kind: 'shapes';
  shapes: Shape[];
}

// ---- Shapes --------------------------------------------------------------------------------------

/** The preset geometries drawn as themselves (§20.1.10.56 ST_ShapeType); others draw as their box. */
export type ShapeGeometry =
  | 'rect'
  | 'roundRect'
  | 'ellipse'
  | 'line'
  | 'triangle'
  | 'rtTriangle'
  | 'diamond'
  | 'parallelogram'
  | 'hexagon'
  | 'octagon'
  | 'chevron'
  | 'homePlate'
  | 'rightArrow'
  | 'leftArrow'
  | 'upArrow'
  | 'downArrow';

export interface ShapeStroke {
  color: string;
  /** Points. */
  width: number;
  dash?: number[];
}

export interface ShapeText {
  blocks: Block[];
  /** bodyPr insets (lIns, tIns, rIns, bIns), points; Word's defaults are 7.2 / 3.6 pt. */
  insets: { left: number; top: number; right: number; bottom: number };
  /** Vertical placement of the text in the shape (bodyPr anchor). */
  anchor: 'top' | 'middle' | 'bottom';
}

export interface Shape {
  geometry: ShapeGeometry;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Degrees clockwise (a:xfrm rot). */
  rotation: number;
  flipH: boolean;
  flipV: boolean;
  fill?: string;
  stroke?: ShapeStroke;
  text?: ShapeText;
  /** A picture filling the shape's box (pic:pic in a drawing): the id of DocumentModel.images. */
  imageId?: string;
}

// ---- Charts --------------------------------------------------------------------------------------

export interface ChartText {
  text: string;
  props: RunProperties;
}

export type ChartPlotType = 'bar' | 'line' | 'area' | 'pie' | 'doughnut' | 'scatter' | 'bubble' | 'radar';

export interface ChartSeries {
  name: string;
  /** Category labels (c:cat), or the x values of scatter and bubble series as text. */
  categories: string[];
  values: (number | undefined)[];
  /** Scatter and bubble: c:xVal as numbers (undefined when they are text categories). */
  xValues?: (number | undefined)[];
  /** Bubble: c:bubbleSize. */
  sizes?: (number | undefined)[];
  /** Fill (bars, areas, slices) or line colour. */
  color: string;
  /** Per data point colours (c:dPt, or varyColors), by point index. */
  pointColors?: (string | undefined)[];
  /** Line width, points (lines and scatter). */
  lineWidth: number;
  /** No line drawn (a:ln noFill): scatter plots of markers only. */
  noLine: boolean;
  marker: boolean;
  formatCode: string;
}

export interface ChartDataLabels {
  value: boolean;
  percent: boolean;
  category: boolean;
  series: boolean;
  props: RunProperties;
}

export interface ChartPlot {
  type: ChartPlotType;
  /** Bars: vertical columns (col) or horizontal bars (bar). */
  direction: 'col' | 'bar';
  grouping: 'clustered' | 'stacked' | 'percentStacked' | 'standard';
  series: ChartSeries[];
  /** Plotted against the secondary value axis. */
  secondary: boolean;
  /** Bars: gap between categories as a percentage of a bar's width (c:gapWidth, default 150). */
  gapWidth: number;
  /** Bars: overlap of the series' bars, percent (c:overlap; negative leaves gaps). */
  overlap: number;
  /** Doughnut hole, percent of the radius. */
  holeSize: number;
  /** Pie: angle of the first slice, degrees clockwise from 12 o'clock. */
  firstSliceAngle: number;
  dataLabels?: ChartDataLabels;
}

export interface ChartAxis {
  id: string;
  kind: 'category' | 'value';
  /** Where the axis sits (c:axPos): b, t, l, r. */
  position: 'b' | 't' | 'l' | 'r';
  deleted: boolean;
  title?: ChartText;
  numberFormat: string;
  min?: number;
  max?: number;
  majorUnit?: number;
  reversed: boolean;
  majorGridlines: boolean;
  /** c:majorGridlines/c:spPr line colour. */
  gridlineColor: string;
  labels: boolean;
  labelProps: RunProperties;
  lineColor?: string;
}

export interface Chart {
  title?: ChartText;
  plots: ChartPlot[];
  axes: ChartAxis[];
  legend?: { position: 'r' | 'l' | 't' | 'b' | 'tr'; props: RunProperties };
  /** Chart area fill (c:chartSpace/c:spPr), undefined for none. */
  background?: string;
  border?: string;
}
