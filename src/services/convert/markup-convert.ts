/**
 * Markdown and HTML to PDF or DOCX: the reader makes the document model (Markdown through
 * markdown-it's HTML and the HTML reader, see src/markdown), then the model goes either through
 * the same layout and painter as DOCX (modelToPdf) or to the DOCX writer. Knows nothing of HTTP.
 */

import { hasCssTables, PAPER_SIZES, readHtml, renderMarkdown, sizeCssTables, writeDocx } from '../../engine';
import { Budget, type Limits } from '../../limits';
import { decodeText } from '../input';
import { type EngineResources, loadModelFonts, modelToPdf } from './docx-to-pdf';
import { createImageLoader, type ImageLoaderOptions } from './image-loader';

export interface MarkupConvertOptions {
  from: 'md' | 'html';
  to: 'pdf' | 'docx';
  pageSize: 'letter' | 'a4';
  images: ImageLoaderOptions;
  /** What the conversion may cost (src/limits.ts): pages and time for PDF output. */
  limits: Limits;
  /** The clock the time budget reads; Date.now unless a test drives it. */
  now?: () => number;
}

export interface ConvertedMarkup {
  bytes: Uint8Array;
  /** PDF only. */
  pages?: number;
  warnings: string[];
}

export async function convertMarkup(
  bytes: Uint8Array,
  options: MarkupConvertOptions,
  resources: EngineResources,
): Promise<ConvertedMarkup> {
  const budget = new Budget(options.limits, options.now);
  const text = decodeText(bytes, options.from === 'html');
  const { html, title } = options.from === 'md' ? renderMarkdown(text) : { html: text, title: undefined };
  const model = await readHtml(html, {
    pageSize: PAPER_SIZES[options.pageSize],
    ...(title !== undefined ? { title } : {}),
    loadImages: createImageLoader(options.images),
  });
  if (options.to === 'docx') {
    // The tables' columns are sized from their content as for the PDF (CSS table layout, which
    // measures text), so that w:tblGrid and w:tcW give Word the widths the PDF has.
    if (hasCssTables(model)) sizeCssTables(model, await loadModelFonts(model, resources));
    // A DOCX names its fonts; the ones sent are not embedded in it (Word draws what is installed).
    const warnings = resources.fonts?.length
      ? [
          ...model.warnings,
          `The fonts sent are not embedded in DOCX output: the document names their families, and Word draws them with the fonts installed where it is opened (${resources.fonts.map((font) => font.source).join(', ')}).`,
        ]
      : model.warnings;
    return { bytes: await writeDocx(model), warnings };
  }
  const pdf = await modelToPdf(model, resources, budget);
  return { bytes: pdf.pdf, pages: pdf.pages, warnings: pdf.warnings };
}
