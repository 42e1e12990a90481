import type { Block, DocumentModel, Inline, Paragraph, TextInline } from '../../../../src/engine/model/document';
import { mathText } from '../../../../src/engine/model/math';
import { type ReadDocxOptions, readDocx } from '../../../../src/engine/read/ooxml/docx-reader';
import { DEFAULT_LIMITS } from '../../../../src/limits';
import { buildDocx, type DocxParts } from '../../../helpers/docx-fixture';

/** Reads a package built from `parts` (markup revisions, a generous inflate cap unless told). */
export function readParts(parts: DocxParts, options: Partial<ReadDocxOptions> = {}): DocumentModel {
  return readDocx(buildDocx(parts), { revisions: 'markup', limits: DEFAULT_LIMITS, ...options });
}

/** Every paragraph of the body, tables included, in order. */
export function paragraphs(model: DocumentModel): Paragraph[] {
  const out: Paragraph[] = [];
  for (const section of model.sections) collect(section.blocks, out);
  return out;
}

export function collect(blocks: Block[], out: Paragraph[] = []): Paragraph[] {
  for (const block of blocks) {
    if (block.kind === 'paragraph') out.push(block);
    else for (const row of block.rows) for (const cell of row.cells) collect(cell.blocks, out);
  }
  return out;
}

/** A paragraph's text: text inlines as they are, tabs as \t, breaks as \n, fields as their cached text, note references as their marks. */
export function textOf(paragraph: Paragraph): string {
  return paragraph.inlines.map(inlineText).join('');
}

function inlineText(inline: Inline): string {
  switch (inline.kind) {
    case 'text':
      return inline.text;
    case 'tab':
      return '\t';
    case 'break':
      return '\n';
    case 'field':
      return inline.cached;
    case 'noteReference':
      return inline.mark;
    case 'math':
      return mathText(inline.nodes);
    default:
      return '';
  }
}

export function texts(paragraph: Paragraph): TextInline[] {
  return paragraph.inlines.filter((inline): inline is TextInline => inline.kind === 'text');
}

/** The first text inline containing `needle`. */
export function textInline(model: DocumentModel, needle: string): TextInline {
  for (const paragraph of paragraphs(model)) {
    for (const inline of texts(paragraph)) if (inline.text.includes(needle)) return inline;
  }
  throw new Error(`no text inline contains ${JSON.stringify(needle)}`);
}
