/**
 * `{{name}}` placeholders in paragraph text (docs/api.md "Placeholder text"). Word splits typed text
 * into several runs whenever formatting, proofing marks (w:proofErr, §17.13.8.1), bookmarks
 * (§17.13.6), revision ids or the like intervene, so a placeholder is looked for in the
 * paragraph's text as a whole: the w:t texts of its runs (§17.3.3.31) in document order, each
 * character traced back to its w:t. Text of paragraphs nested inside (text boxes) belongs to those
 * paragraphs, not this one.
 */
import { descendants, type Element, isW, wDescendants } from './ooxml-dom';

/** `{{ name }}`: spaces inside the braces ignored; names of letters, digits, `_`, `.`, `-`. */
const PLACEHOLDER = /\{\{\s*([\p{L}\p{N}_.-]+)\s*\}\}/gu;

/** The characters [from, to) of one w:t that belong to a placeholder. */
export interface TextPiece {
  t: Element;
  from: number;
  to: number;
}

export interface Placeholder {
  name: string;
  paragraph: Element;
  /** In document order; the first holds the `{{`. */
  pieces: TextPiece[];
}

/** The w:t elements of the paragraph itself (not of paragraphs nested in its text boxes). */
export function paragraphTexts(paragraph: Element): Element[] {
  return descendants(
    paragraph,
    (element) => isW(element, 't'),
    (element) => isW(element, 'p'),
  );
}

export function paragraphText(paragraph: Element): string {
  return paragraphTexts(paragraph)
    .map((t) => t.textContent ?? '')
    .join('');
}

export function paragraphPlaceholders(paragraph: Element): Placeholder[] {
  const texts = paragraphTexts(paragraph);
  const starts: number[] = [];
  let text = '';
  for (const t of texts) {
    starts.push(text.length);
    text += t.textContent ?? '';
  }
  if (!text.includes('{{')) return [];
  const placeholders: Placeholder[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const start = match.index;
    const end = start + match[0].length;
    const pieces: TextPiece[] = [];
    texts.forEach((t, index) => {
      const from = Math.max(start, starts[index] as number);
      const to = Math.min(end, (starts[index] as number) + (t.textContent ?? '').length);
      if (from < to) pieces.push({ t, from: from - (starts[index] as number), to: to - (starts[index] as number) });
    });
    placeholders.push({ name: match[1] as string, paragraph, pieces });
  }
  return placeholders;
}

/** Every placeholder in the part, paragraph by paragraph in document order. */
export function findPlaceholders(root: Element): Placeholder[] {
  return wDescendants(root, 'p').flatMap(paragraphPlaceholders);
}
