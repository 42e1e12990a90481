/**
 * One border (CT_Border, ECMA-376 Part 1 §17.3.4) and shading (CT_Shd, §17.3.5), shared by
 * paragraphs, table edges and cells.
 */
import type { Border } from '../../model';
import { toEighthPoints } from './measures';
import { escapeAttribute } from './xml-escape';

/**
 * `<w:NAME …/>` for a border side; undefined or style "none" writes w:val="nil", which removes
 * whatever a lower level (a style) set. Widths are eighths of a point, space whole points.
 */
export function borderXml(name: string, border: Border | undefined): string {
  if (border === undefined || border.style === 'none' || border.style === 'nil') {
    return `<w:${name} w:val="nil"/>`;
  }
  const color = border.color ?? 'auto';
  return `<w:${name} w:val="${escapeAttribute(border.style)}" w:sz="${toEighthPoints(border.width)}" w:space="${Math.round(border.space)}" w:color="${escapeAttribute(color)}"/>`;
}

/** A solid fill (pattern clear, §17.18.78); undefined turns a lower level's shading off (nil). */
export function shadingXml(fill: string | undefined): string {
  if (fill === undefined) return '<w:shd w:val="nil"/>';
  return `<w:shd w:val="clear" w:color="auto" w:fill="${escapeAttribute(fill)}"/>`;
}

export function sameBorder(a: Border | undefined, b: Border | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.style === b.style && a.width === b.width && a.space === b.space && a.color === b.color;
}
