/**
 * List labels and definitions for <ul>/<ol> (HTML §4.4.5–4.4.8, CSS Lists 3 §3 list-style-type):
 * the label each item shows, and the ListDefinition the DOCX writer turns into w:abstractNum
 * (ECMA-376 §17.9): one definition per top-level list, its levels described by the nested lists.
 */
import type { ListDefinition, ListLevel } from '../../model';

export type ListFormat = ListLevel['format'];

/** Word has nine list levels (§17.9.7 ilvl 0–8); deeper HTML lists share the last. */
export const MAX_LIST_LEVEL = 8;
/** Each level's text starts 36 pt further in, its label hanging 18 pt before it. */
export const LEVEL_INDENT = 36;
export const LABEL_HANGING = 18;

const BULLETS = ['\u2022', '\u25E6', '\u25AA'] as const;

export function bulletFor(level: number): string {
  return BULLETS[level % BULLETS.length] as string;
}

/** <ol type> (HTML §4.4.5) and list-style-type names to a level format. */
export function orderedFormat(type: string | undefined): ListFormat {
  switch (type?.trim()) {
    case 'a':
    case 'lower-alpha':
    case 'lower-latin':
      return 'lowerLetter';
    case 'A':
    case 'upper-alpha':
    case 'upper-latin':
      return 'upperLetter';
    case 'i':
    case 'lower-roman':
      return 'lowerRoman';
    case 'I':
    case 'upper-roman':
      return 'upperRoman';
    default:
      return 'decimal';
  }
}

/** A CSS list-style-type to a format; undefined when it does not say. */
export function listStyleFormat(value: string | undefined): ListFormat | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase().split(/\s+/)[0] ?? '';
  if (v === 'disc' || v === 'circle' || v === 'square' || v === 'none') return 'bullet';
  if (v === 'decimal' || v === 'decimal-leading-zero') return 'decimal';
  if (/^(lower|upper)-(alpha|latin|roman)$/.test(v)) return orderedFormat(v);
  return undefined;
}

export function levelDefinition(level: number, format: ListFormat, start: number): ListLevel {
  return {
    format,
    text: format === 'bullet' ? bulletFor(level) : `%${level + 1}.`,
    start,
    indent: LEVEL_INDENT * (level + 1),
    hanging: LABEL_HANGING,
  };
}

/** A new top-level list's definition: every level a bullet or a number until a nested list says. */
export function newListDefinition(format: ListFormat): ListDefinition {
  return {
    levels: Array.from({ length: MAX_LIST_LEVEL + 1 }, (_, level) =>
      levelDefinition(level, format === 'bullet' ? 'bullet' : 'decimal', 1),
    ),
  };
}
