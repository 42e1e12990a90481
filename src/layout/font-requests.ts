/** Every family and style a document uses, so the font stage can load them before layout. */
import type { FontRequest } from '../fonts/font-face';
import type { Block, DocumentModel, RunProperties } from '../model/document';
import type { Chart } from '../model/drawing';

/** The run properties of every text a chart draws. */
function chartTextProps(chart: Chart): RunProperties[] {
  const out: RunProperties[] = [];
  if (chart.title) out.push(chart.title.props);
  if (chart.legend) out.push(chart.legend.props);
  for (const axis of chart.axes) {
    out.push(axis.labelProps);
    if (axis.title) out.push(axis.title.props);
  }
  for (const plot of chart.plots) if (plot.dataLabels) out.push(plot.dataLabels.props);
  return out;
}

export function collectFontRequests(model: DocumentModel): FontRequest[] {
  const seen = new Map<string, FontRequest>();
  const add = (props: RunProperties) => {
    const key = `${props.font}|${props.bold}|${props.italic}`;
    if (!seen.has(key)) seen.set(key, { family: props.font, bold: props.bold, italic: props.italic });
  };
  const walk = (blocks: Block[] | undefined) => {
    for (const block of blocks ?? []) {
      if (block.kind === 'table') {
        for (const row of block.rows) for (const cell of row.cells) walk(cell.blocks);
        continue;
      }
      add(block.markProps);
      if (block.label) add(block.label.props);
      for (const inline of block.inlines) {
        if (inline.kind === 'bookmark') continue;
        add(inline.props);
        if (inline.kind === 'drawing') {
          const { drawing } = inline;
          if (drawing.kind === 'shapes') for (const shape of drawing.shapes) walk(shape.text?.blocks);
          else for (const props of chartTextProps(drawing.chart)) add(props);
        }
      }
    }
  };
  for (const section of model.sections) {
    walk(section.blocks);
    for (const set of [section.headers, section.footers]) {
      walk(set.default);
      walk(set.first);
      walk(set.even);
    }
  }
  for (const notes of [model.notes.footnotes, model.notes.endnotes]) for (const id in notes) walk(notes[id]);
  return [...seen.values()];
}
