/**
 * Drawings (charts, shapes, text boxes, SmartArt) as display-list items: each drawing is laid out
 * once in its own frame (chart-layout.ts, shape-layout.ts) and moved to where the line painter
 * puts it, on every page that shows it (a header's logo repeats). The cache lives for one
 * conversion and holds one entry per drawing of the document.
 */
import type { FontSet } from '../fonts';
import type { DrawingInline } from '../model';
import { layoutChart } from './chart-layout';
import type { RenderedDrawing } from './display-list';
import type { DrawingSource } from './line-painter';
import { layoutShapes } from './shape-layout';

/** Lays each drawing out once (DrawingSource of line-painter.ts). */
export class DrawingRenderer implements DrawingSource {
  private readonly cache = new Map<DrawingInline, RenderedDrawing>();
  private readonly fonts: FontSet;
  private readonly defaultTabStop: number;

  constructor(fonts: FontSet, defaultTabStop: number) {
    this.fonts = fonts;
    this.defaultTabStop = defaultTabStop;
  }

  render(inline: DrawingInline): RenderedDrawing {
    let rendered = this.cache.get(inline);
    if (!rendered) {
      rendered =
        inline.drawing.kind === 'chart'
          ? layoutChart(inline.drawing.chart, inline.width, inline.height, this.fonts)
          : layoutShapes(inline.drawing.shapes, this.fonts, this.defaultTabStop, this);
      this.cache.set(inline, rendered);
    }
    return rendered;
  }
}
