/** Every family and style a document uses, so the font stage can load them before layout. */
import { eastAsianVariant, fallbackScriptOf } from '../fonts/fallback-faces';
import type { FontRequest } from '../fonts/font-face';
import type { FallbackFaceRequest } from '../fonts/font-set';
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

/** Calls `visit` with the properties and text of every run, label and paragraph mark. */
function visitRuns(model: DocumentModel, visit: (props: RunProperties, text: string) => void): void {
  const walk = (blocks: Block[] | undefined) => {
    for (const block of blocks ?? []) {
      if (block.kind === 'table') {
        for (const row of block.rows) for (const cell of row.cells) walk(cell.blocks);
        continue;
      }
      visit(block.markProps, '');
      if (block.label) visit(block.label.props, block.label.text);
      for (const inline of block.inlines) {
        if (inline.kind === 'bookmark') continue;
        const text =
          inline.kind === 'text'
            ? inline.text
            : inline.kind === 'noteReference'
              ? inline.mark
              : inline.kind === 'field'
                ? inline.cached
                : '';
        visit(inline.props, text);
        if (inline.kind === 'drawing') {
          const { drawing } = inline;
          if (drawing.kind === 'shapes') for (const shape of drawing.shapes) walk(shape.text?.blocks);
          else for (const props of chartTextProps(drawing.chart)) visit(props, '');
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
}

export function collectFontRequests(model: DocumentModel): FontRequest[] {
  const seen = new Map<string, FontRequest>();
  const add = (family: string, props: RunProperties) => {
    const key = `${family}|${props.bold}|${props.italic}`;
    if (!seen.has(key)) seen.set(key, { family, bold: props.bold, italic: props.italic });
  };
  visitRuns(model, (props) => {
    add(props.font, props);
    // East Asian and complex-script characters are set in their own faces (§17.3.2.26).
    if (props.fontEastAsia) add(props.fontEastAsia, props);
    if (props.fontComplex) add(props.fontComplex, props);
  });
  return [...seen.values()];
}

/**
 * The Noto faces (script and weight) the document's characters may need: every script of
 * fallback-faces.ts its text uses. Hebrew is also in the bundled Liberation faces, which come
 * first; its Noto face is small.
 */
export function collectFallbackFaces(model: DocumentModel): FallbackFaceRequest[] {
  const seen = new Map<string, FallbackFaceRequest>();
  visitRuns(model, (props, text) => {
    let variant: ReturnType<typeof eastAsianVariant> | undefined;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x0590) continue;
      const cp = text.codePointAt(i) ?? unit;
      if (cp > 0xffff) i++;
      variant ??= eastAsianVariant(props.fontEastAsia);
      const script = fallbackScriptOf(cp, variant);
      if (script === undefined) continue;
      const key = `${script}|${props.bold}`;
      if (!seen.has(key)) seen.set(key, { script, bold: props.bold });
    }
  });
  return [...seen.values()];
}
