/**
 * A section's w:sectPr (ECMA-376 Part 1 §17.6.17), children in CT_SectPr's order: header and
 * footer references, type, pgSz, pgMar, pgNumType, cols, titlePg, textDirection, docGrid.
 */
import type { Section } from '../../model';
import { toTwips } from './measures';

/** `references`: the section's w:headerReference / w:footerReference elements (header-footer-writer.ts). */
export function sectionPropertiesXml(section: Section, references: string): string {
  const page = section.page;
  const m = page.margins;
  let xml = references;
  if (section.start !== 'nextPage') xml += `<w:type w:val="${section.start}"/>`;
  const orient = page.width > page.height ? ' w:orient="landscape"' : '';
  xml += `<w:pgSz w:w="${toTwips(page.width)}" w:h="${toTwips(page.height)}"${orient}/>`;
  xml += `<w:pgMar w:top="${toTwips(m.top)}" w:right="${toTwips(m.right)}" w:bottom="${toTwips(m.bottom)}" w:left="${toTwips(m.left)}" w:header="${toTwips(m.header)}" w:footer="${toTwips(m.footer)}" w:gutter="${toTwips(m.gutter)}"/>`;
  const numbering = section.pageNumbering;
  let pgNumType = '';
  if (numbering.format !== 'decimal') pgNumType += ` w:fmt="${numbering.format}"`;
  if (numbering.start !== undefined) pgNumType += ` w:start="${Math.round(numbering.start)}"`;
  if (pgNumType !== '') xml += `<w:pgNumType${pgNumType}/>`;
  xml += columnsXml(section.columns);
  if (section.titlePage) xml += '<w:titlePg/>';
  if (page.vertical) xml += '<w:textDirection w:val="tbRl"/>';
  if (page.lineGrid !== undefined) xml += `<w:docGrid w:type="lines" w:linePitch="${toTwips(page.lineGrid)}"/>`;
  return `<w:sectPr>${xml}</w:sectPr>`;
}

/** w:cols (§17.6.4): equal columns by count and space, or explicit w:col widths. */
function columnsXml(columns: Section['columns']): string {
  const separator = columns.separator ? ' w:sep="1"' : '';
  if (columns.widths && columns.widths.length > 0) {
    const cols = columns.widths.map((c) => `<w:col w:w="${toTwips(c.width)}" w:space="${toTwips(c.space)}"/>`).join('');
    return `<w:cols w:num="${columns.widths.length}"${separator} w:space="${toTwips(columns.space)}" w:equalWidth="0">${cols}</w:cols>`;
  }
  return `<w:cols w:num="${Math.max(1, columns.count)}"${separator} w:space="${toTwips(columns.space)}"/>`;
}
