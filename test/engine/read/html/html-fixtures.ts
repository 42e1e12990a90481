/** Helpers for the HTML reader's tests: a fake image loader over data: URIs of tiny PNGs. */

import type { Block, DocumentModel, Inline, Paragraph, Table, TextInline } from '../../../../src/engine/model/document';
import { type HtmlReadOptions, readHtml } from '../../../../src/engine/read/html/html-reader';
import type { ImageLoader, LoadedImage } from '../../../../src/engine/read/html/image-loader-contract';
import { encodePng } from '../../../../src/engine/read/images/png-encoder';
import { checkImage } from '../../../../src/engine/read/ooxml/image-resource';

export function pngDataUri(width: number, height: number): string {
  const data = new Uint8Array(width * height * 4).fill(200);
  const bytes = encodePng({ width, height, data });
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `data:image/png;base64,${btoa(binary)}`;
}

export const fakeLoader: ImageLoader = async (sources) => {
  const out = new Map<string, LoadedImage>();
  for (const src of sources) {
    const m = /^data:image\/png;base64,(.*)$/.exec(src);
    if (!m) {
      out.set(src, { problem: 'not a data URI' });
      continue;
    }
    const bytes = Uint8Array.from(atob(m[1] ?? ''), (c) => c.charCodeAt(0));
    const checked = checkImage(bytes);
    out.set(
      src,
      'image' in checked ? { image: checked.image } : { problem: 'problem' in checked ? checked.problem : 'bad' },
    );
  }
  return out;
};

/** `html` read; `options` add to the defaults (printBackground: true to see the CSS backgrounds). */
export function read(
  html: string,
  title?: string,
  options: Partial<Omit<HtmlReadOptions, 'loadImages'>> = {},
): Promise<DocumentModel> {
  return readHtml(html, { loadImages: fakeLoader, ...options, ...(title ? { title } : {}) });
}

export function blocksOf(model: DocumentModel): Block[] {
  return model.sections[0]?.blocks ?? [];
}

export function paragraphs(model: DocumentModel): Paragraph[] {
  return blocksOf(model).filter((b): b is Paragraph => b.kind === 'paragraph');
}

export function tables(model: DocumentModel): Table[] {
  return blocksOf(model).filter((b): b is Table => b.kind === 'table');
}

export function textOf(block: Block | undefined): string {
  if (!block) return '';
  if (block.kind === 'table')
    return block.rows.map((r) => r.cells.map((c) => c.blocks.map(textOf).join('\n')).join('|')).join('\n');
  return block.inlines.map(inlineText).join('');
}

function inlineText(inline: Inline): string {
  if (inline.kind === 'text') return inline.text;
  if (inline.kind === 'break') return '\n';
  if (inline.kind === 'tab') return '\t';
  if (inline.kind === 'noteReference') return `[${inline.mark}]`;
  return '';
}

export function texts(paragraph: Paragraph | undefined): TextInline[] {
  return (paragraph?.inlines ?? []).filter((i): i is TextInline => i.kind === 'text');
}
