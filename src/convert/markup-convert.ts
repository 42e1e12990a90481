/**
 * Markdown and HTML to PDF or DOCX: the reader makes the document model (Markdown through
 * markdown-it's HTML and the HTML reader, see src/markdown), then the model goes either through
 * the same layout and painter as DOCX (modelToPdf) or to the DOCX writer. Knows nothing of HTTP.
 */
import { writeDocx } from '../docx-writer/docx-writer';
import { readHtml } from '../html/html-reader';
import { Budget, type Limits } from '../limits';
import { renderMarkdown } from '../markdown/markdown-renderer';
import { createImageLoader, type ImageLoaderOptions } from '../markup/image-loader';
import { type EngineResources, modelToPdf } from './docx-to-pdf';

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
  const text = decodeText(bytes);
  const { html, title } = options.from === 'md' ? renderMarkdown(text) : { html: text, title: undefined };
  const model = await readHtml(html, {
    pageSize: options.pageSize,
    ...(title !== undefined ? { title } : {}),
    loadImages: createImageLoader(options.images),
  });
  if (options.to === 'docx') return { bytes: await writeDocx(model), warnings: model.warnings };
  const pdf = await modelToPdf(model, resources, budget);
  return { bytes: pdf.pdf, pages: pdf.pages, warnings: pdf.warnings };
}

/**
 * The source's text: UTF-16 when a byte order mark says so, else UTF-8 (WHATWG Encoding
 * §4.1 "decode": a BOM wins), malformed sequences replaced rather than refused.
 */
function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    // Swapped into little-endian order: workerd's TextDecoder is not sure to know 'utf-16be'.
    const swapped = new Uint8Array(bytes.length & ~1);
    for (let i = 0; i + 1 < bytes.length; i += 2) {
      swapped[i] = bytes[i + 1] as number;
      swapped[i + 1] = bytes[i] as number;
    }
    return new TextDecoder('utf-16le').decode(swapped);
  }
  return new TextDecoder('utf-8').decode(bytes);
}
