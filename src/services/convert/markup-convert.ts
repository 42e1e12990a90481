/**
 * Markdown and HTML to PDF or DOCX: the reader makes the document model (Markdown through
 * markdown-it's HTML and the HTML reader, see src/markdown), then the model goes either through
 * the same layout and painter as DOCX (modelToPdf) or to the DOCX writer. Knows nothing of HTTP.
 */

import {
  hasCssTables,
  type PaperMargins,
  type PaperSize,
  readHtml,
  renderMarkdown,
  sizeCssTables,
  writeDocx,
} from '../../engine';
import type { PageRange } from '../../kit';
import { Budget, type Limits } from '../../limits';
import { decodeText } from '../input';
import { type EngineResources, loadModelFonts, modelToPdf } from './docx-to-pdf';
import { createImageLoader, type ImageLoaderOptions } from './image-loader';

export interface MarkupConvertOptions {
  from: 'md' | 'html';
  to: 'pdf' | 'docx';
  /** The caller's paper; absent: the CSS @page size, else US Letter. */
  pageSize?: PaperSize;
  /** Turn the paper (the caller's or @page's) to landscape. */
  landscape?: boolean;
  /** The caller's margins; absent: the CSS @page margins, else the source's default (below). */
  margins?: PaperMargins;
  /** Paint backgrounds; absent: not in a PDF (as a browser prints), kept in a DOCX (Word prints shading). */
  printBackground?: boolean;
  /** The address the document's relative URLs are relative to (after any <base href>). */
  baseUrl?: string;
  /** PDF only: the pages to write (1-based); absent: all. */
  pageRanges?: readonly PageRange[];
  images: ImageLoaderOptions;
  /** What the conversion may cost (src/limits.ts): pages and time for PDF output. */
  limits: Limits;
  /** The clock the time budget reads; Date.now unless a test drives it. */
  now?: () => number;
}

/**
 * Chromium's default print margins, 1 cm on every side (its "Default" margins in the print dialog
 * and printToPDF's 0.4 in; measured: text starts at 35.5 pt, 1 cm plus the body's 8 px margin).
 */
const CM = 72 / 2.54;
const BROWSER_PRINT_MARGINS: PaperMargins = { top: CM, right: CM, bottom: CM, left: CM };

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
  const text = decodeText(bytes, options.from === 'html');
  const { html, title } = options.from === 'md' ? renderMarkdown(text) : { html: text, title: undefined };
  const model = await readHtml(html, {
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    ...(options.landscape !== undefined ? { landscape: options.landscape } : {}),
    ...(options.margins ? { margins: options.margins } : {}),
    // HTML printed to PDF gets a browser's margins when neither the caller nor its CSS gives any;
    // Markdown (no CSS of its own) and any DOCX keep a Word document's 1 in, the reader's default.
    ...(options.from === 'html' && options.to === 'pdf' ? { fallbackMargins: BROWSER_PRINT_MARGINS } : {}),
    // Nor do they get a browser's 8px body margin inside them (body-box.ts): only HTML printed.
    ...(options.from === 'md' || options.to === 'docx' ? { defaultBodyMargin: 0 } : {}),
    source: options.from === 'md' ? 'markdown' : 'html',
    printBackground: options.printBackground ?? options.to === 'docx',
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
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
  // The layout's clock starts once the images are in: their fetches have their own deadline (the
  // loader's timeoutMs), and time spent waiting on other hosts is not the layout's to answer for.
  const budget = new Budget(options.limits, options.now);
  const pdf = await modelToPdf(model, resources, budget, options.pageRanges);
  return { bytes: pdf.pdf, pages: pdf.pages, warnings: pdf.warnings };
}
