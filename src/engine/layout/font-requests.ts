/** Every family and style a document uses, so the font stage can load them before layout. */

import {
  CodePointSet,
  chineseFontVariant,
  type EastAsianVariant,
  eastAsianVariant,
  type FallbackCharacters,
  type FallbackFaceRequest,
  type FontRequest,
  fallbackScriptOf,
  isAmbiguousQuote,
  isDefaultIgnorable,
  scriptClassOf,
} from '../fonts';
import { type Block, type Chart, type DocumentModel, type RunProperties, storyBlocks } from '../model';
import { complexFontRequest, quoteFont } from './inline-boxes';
import { visitMathRuns } from './math-layout';

/** The run properties of every text a chart draws, with that text (names and categories). */
function chartTexts(chart: Chart): [RunProperties, string][] {
  const names = chart.plots.flatMap((plot) => plot.series.map((s) => s.name)).join(' ');
  const categories = chart.plots.flatMap((plot) => plot.series.flatMap((s) => s.categories)).join(' ');
  const out: [RunProperties, string][] = [];
  if (chart.title) out.push([chart.title.props, chart.title.text]);
  if (chart.legend) out.push([chart.legend.props, `${names} ${categories}`]);
  for (const axis of chart.axes) {
    out.push([axis.labelProps, axis.kind === 'category' ? categories : '']);
    if (axis.title) out.push([axis.title.props, axis.title.text]);
  }
  for (const plot of chart.plots) if (plot.dataLabels) out.push([plot.dataLabels.props, `${names} ${categories}`]);
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
        // An equation's text is set in the math font's styles (math-layout.ts).
        if (inline.kind === 'math') visitMathRuns(inline, visit);
        if (inline.kind === 'drawing') {
          const { drawing } = inline;
          if (drawing.kind === 'shapes') for (const shape of drawing.shapes) walk(shape.text?.blocks);
          else for (const [props, text] of chartTexts(drawing.chart)) visit(props, text);
        }
      }
    }
  };
  for (const blocks of storyBlocks(model)) walk(blocks);
}

/** What the font stage loads for a document: its families and styles, and its Noto faces. */
export interface FontNeeds {
  requests: FontRequest[];
  /** The face of each character's script (fallback-faces.ts fallbackScriptOf). */
  fallbackFaces: FallbackFaceRequest[];
  /** The characters from U+0590 up, for the faces that have them (fallback-coverage.ts). */
  fallbackCharacters: FallbackCharacters[];
}

/** Both collections in one walk over the model: on a long document the walk is the cost. */
export function collectFontNeeds(model: DocumentModel): FontNeeds {
  const requests = new FontRequestCollector();
  const faces = new FallbackFaceCollector();
  visitRuns(model, (props, text) => {
    requests.visit(props);
    faces.visit(props, text);
  });
  // Metafile text is set in its own fonts (engine/pages/metafile-layout.ts).
  for (const id in model.pictures ?? {}) {
    for (const item of model.pictures?.[id]?.items ?? []) {
      if (item.kind !== 'text') continue;
      requests.add(item.font);
      faces.scan(item.text, item.font.family, () => item.font.bold);
    }
  }
  return {
    requests: [...requests.seen.values()],
    fallbackFaces: [...faces.seen.values()],
    fallbackCharacters: [...faces.characters.values()],
  };
}

/** Every family and style the document uses. */
export function collectFontRequests(model: DocumentModel): FontRequest[] {
  return collectFontNeeds(model).requests;
}

/**
 * The Noto faces (script and weight) the document's characters may need: every script of
 * fallback-faces.ts its text uses. Hebrew is also in the bundled Liberation faces, which come
 * first; its Noto face is small.
 */
export function collectFallbackFaces(model: DocumentModel): FallbackFaceRequest[] {
  return collectFontNeeds(model).fallbackFaces;
}

class FontRequestCollector {
  readonly seen = new Map<string, FontRequest>();
  // Run properties are interned (property-interner.ts): runs formatted alike share one object, so
  // each object needs looking at once.
  readonly #visited = new Set<RunProperties>();

  add(request: FontRequest): void {
    const key = `${request.family}|${request.bold}|${request.italic}`;
    if (!this.seen.has(key)) this.seen.set(key, request);
  }

  visit(props: RunProperties): void {
    if (this.#visited.has(props)) return;
    this.#visited.add(props);
    this.add({ family: props.font, bold: props.bold, italic: props.italic });
    // East Asian and complex-script characters are set in their own faces (§17.3.2.26).
    if (props.fontEastAsia) this.add({ family: props.fontEastAsia, bold: props.bold, italic: props.italic });
    this.add(complexFontRequest(props));
  }
}

/** A UTF-16 unit at or after U+0590, below which fallbackScriptOf finds no script. */
const BEYOND_HEBREW_START = /[\u0590-\uffff]/;

class FallbackFaceCollector {
  readonly seen = new Map<string, FallbackFaceRequest>();
  /** The characters, by East Asian variant and weight. */
  readonly characters = new Map<string, FallbackCharacters & { codePoints: CodePointSet }>();

  #characters(variant: EastAsianVariant, bold: boolean): CodePointSet {
    const key = `${variant}|${bold}`;
    let entry = this.characters.get(key);
    if (!entry) {
      entry = { variant, bold, codePoints: new CodePointSet() };
      this.characters.set(key, entry);
    }
    return entry.codePoints;
  }

  scan(text: string, eastAsianFont: string | undefined, boldOf: (cp: number) => boolean, language?: string): void {
    let variant: EastAsianVariant | undefined;
    // Neighbouring characters are mostly of one script and weight, already noted.
    let lastScript: FallbackFaceRequest['script'] | undefined;
    let lastBold = false;
    let regular: CodePointSet | undefined;
    let bold: CodePointSet | undefined;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x0590) continue;
      const cp = text.codePointAt(i) ?? unit;
      if (cp > 0xffff) i++;
      // Nothing to draw: default ignorables (shaping.ts), line and paragraph separators.
      if (isDefaultIgnorable(cp) || cp === 0x2028 || cp === 0x2029) continue;
      variant ??= eastAsianVariant(eastAsianFont, language);
      const isBold = boldOf(cp);
      if (isBold) bold ??= this.#characters(variant, true);
      else regular ??= this.#characters(variant, false);
      (isBold ? bold : regular)?.add(cp);
      const script = fallbackScriptOf(cp, variant);
      if (script === undefined) continue;
      if (script === lastScript && isBold === lastBold) continue;
      lastScript = script;
      lastBold = isBold;
      const key = `${script}|${isBold}`;
      if (!this.seen.has(key)) this.seen.set(key, { script, bold: isBold });
    }
  }

  visit(props: RunProperties, text: string): void {
    // Most text has nothing from U+0590 on, where every fallback script and the curly quotes
    // are: one native regular-expression test settles it without a loop over the characters.
    if (!BEYOND_HEBREW_START.test(text)) return;
    this.scan(
      text,
      props.fontEastAsia,
      (cp) =>
        scriptClassOf(cp) === 'complex' || props.rtl || props.complexScript ? props.boldComplex === true : props.bold,
      props.languageEastAsia,
    );
    // Curly quotes in a Chinese font are set in the CJK face (inline-boxes.ts chineseQuoteFace).
    let quoted = false;
    for (let i = 0; i < text.length && !quoted; i++) quoted = isAmbiguousQuote(text.charCodeAt(i));
    const slotFont = quoted ? quoteFont(props) : undefined;
    if (slotFont && chineseFontVariant(slotFont)) this.scan('\u4e00', slotFont, () => props.bold);
  }
}
