/**
 * Filling a table (§17.4.38 w:tbl) with rows of strings: one row (§17.4.79 w:tr) per entry, made
 * from a template row. With copyRowStyle the template row is cloned, so its row properties
 * (§17.4.82 w:trPr), cell properties (§17.4.70 w:tcPr) and each cell's first paragraph and run
 * properties carry over; without it, only the cell properties that hold the grid together (width,
 * span) are kept. A template row that holds placeholders (or nothing at all) is replaced by the
 * data rows; any other template row stays and the data rows follow it.
 */
import {
  createW,
  type Element,
  elementChildren,
  isW,
  ownerOf,
  removeChildren,
  removeNode,
  wChild,
  wChildren,
  wDescendants,
} from './ooxml-dom';
import { firstRunProperties, textRun } from './run-content';

export interface TableTarget {
  /** The row the data rows are modelled on. */
  templateRow: Element;
}

/** The template row of a table: the last row with a placeholder, else the last row. */
export function templateRowOf(table: Element): Element | undefined {
  const rows = tableRows(table);
  return rows.findLast((row) => rowText(row).includes('{{')) ?? rows[rows.length - 1];
}

/**
 * `replace`: whether the template row goes (a row a control marks as the repeating one); by
 * default, when it holds placeholders or no text.
 */
export function fillTableRows(templateRow: Element, data: string[][], copyRowStyle: boolean, replace?: boolean): void {
  const parent = templateRow.parentNode;
  if (!parent) return;
  const text = rowText(templateRow);
  replace ??= text.includes('{{') || text.trim() === '';
  const next = templateRow.nextSibling;
  for (const values of data) parent.insertBefore(dataRow(templateRow, values, copyRowStyle), next);
  if (replace) removeNode(templateRow);
}

function dataRow(template: Element, values: string[], copyRowStyle: boolean): Element {
  const document = ownerOf(template);
  const row = copyRowStyle ? (template.cloneNode(true) as Element) : createW(document, 'tr');
  if (!copyRowStyle) {
    for (const cell of wChildren(template, 'tc')) {
      const copy = createW(document, 'tc');
      const properties = wChild(cell, 'tcPr');
      if (properties) {
        const kept = createW(document, 'tcPr');
        for (const name of ['tcW', 'gridSpan', 'vMerge', 'hMerge']) {
          const property = wChild(properties, name);
          if (property) kept.appendChild(property.cloneNode(true));
        }
        copy.appendChild(kept);
      }
      copy.appendChild(createW(document, 'p'));
      row.appendChild(copy);
    }
  }
  wChildren(row, 'tc').forEach((cell, index) => {
    fillCell(cell, values[index] ?? '', copyRowStyle);
  });
  return row;
}

function fillCell(cell: Element, value: string, copyRowStyle: boolean): void {
  const document = ownerOf(cell);
  const paragraph = wChild(cell, 'p') ?? createW(document, 'p');
  const properties = copyRowStyle ? firstRunProperties(cell) : undefined;
  const runProperties = properties?.cloneNode(true) as Element | undefined;
  removeChildren(cell, (child) => isW(child, 'tcPr') || child === paragraph);
  if (!paragraph.parentNode) cell.appendChild(paragraph);
  removeChildren(paragraph, (child) => isW(child, 'pPr'));
  if (value !== '') paragraph.appendChild(textRun(document, value, runProperties));
}

/** Rows of the table itself, including those inside row-level controls, not of nested tables. */
export function tableRows(table: Element): Element[] {
  const rows: Element[] = [];
  const visit = (container: Element) => {
    for (const child of elementChildren(container)) {
      if (isW(child, 'tr')) rows.push(child);
      else if (isW(child, 'sdt') || isW(child, 'sdtContent') || isW(child, 'customXml')) visit(child);
    }
  };
  visit(table);
  return rows;
}

function rowText(row: Element): string {
  return wDescendants(row, 't')
    .map((t) => t.textContent ?? '')
    .join('');
}
