/**
 * A paragraph (w:p, ECMA-376 Part 1 §17.3.1.22): its properties against what its style (and list
 * level) resolve to, its mark's run properties, then its inlines. Paragraph.label is the reader's
 * computed list label: Word computes it again from the numbering part, so it is not written.
 */
import type { Paragraph } from '../../model';
import type { ParagraphContext, ParagraphDelta } from '../../read';
import { inlinesXml } from './inline-writer';
import { paragraphPropertiesXml } from './paragraph-properties-xml';
import { runPropertiesChildren } from './run-properties-xml';
import type { ParagraphBases, PartWriteContext } from './write-context';

export interface ParagraphOptions {
  /** The first paragraph of a note: its leading mark becomes w:footnoteRef / w:endnoteRef. */
  noteMark?: 'footnote' | 'endnote';
  /** w:sectPr of the section this paragraph ends (§17.6.17). */
  sectionProperties?: string;
}

export function paragraphXml(
  paragraph: Paragraph,
  part: PartWriteContext,
  tableStyleId: string | undefined,
  options: ParagraphOptions = {},
): string {
  const doc = part.doc;
  const cascade = doc.cascade;
  const styleId = cascade.paragraphStyleId(paragraph.props.styleId);
  const list = listOf(paragraph, part);
  const bases = paragraphBases(part, styleId, tableStyleId, list);
  const pPr =
    options.sectionProperties !== undefined
      ? paragraphPropertiesXml(paragraph.props, bases.paragraph, paragraph.props.styleId, {
          ...(list ? { numbering: { numId: list.numId, level: list.level } } : {}),
          markRunProperties: runPropertiesChildren(paragraph.markProps, bases.mark),
          sectionProperties: options.sectionProperties,
        })
      : cachedParagraphPropertiesXml(paragraph, bases, list);
  const content = inlinesXml(paragraph.inlines, {
    part,
    tableStyleId,
    paragraphStyleId: styleId,
    runPropertiesXml: bases.rPr,
    ...(options.noteMark ? { noteMark: options.noteMark } : {}),
  });
  return `<w:p>${pPr}${content}</w:p>`;
}

/**
 * The base properties for a style, table style and list level, resolved once per combination
 * in the call (write-context.ts paragraphBases). The list's level indents follow from its numId
 * and level, so those two stand for it in the key.
 */
function paragraphBases(
  part: PartWriteContext,
  styleId: string | undefined,
  tableStyleId: string | undefined,
  list: ReturnType<typeof listOf>,
): ParagraphBases {
  const doc = part.doc;
  const key = `${styleId ?? '\u0000'}\u0001${tableStyleId ?? '\u0000'}\u0001${list ? `${list.numId}:${list.level}` : ''}`;
  const known = doc.paragraphBases.get(key);
  if (known !== undefined) return known;
  const cascade = doc.cascade;
  const context: ParagraphContext = { styleId, tableStyleId };
  if (list) context.numbering = { key: `${list.numId}:${list.level}`, paragraph: list.paragraph, fromStyle: false };
  const bases: ParagraphBases = {
    paragraph: cascade.paragraphProperties(cascade.paragraphBase(context), undefined),
    mark: cascade.runProperties(tableStyleId, styleId, undefined, undefined),
    pPr: new Map(),
    rPr: new Map(),
  };
  doc.paragraphBases.set(key, bases);
  return bases;
}

/** w:pPr of a paragraph that ends no section: a function of its properties, mark and bases. */
function cachedParagraphPropertiesXml(
  paragraph: Paragraph,
  bases: ParagraphBases,
  list: ReturnType<typeof listOf>,
): string {
  let byMark = bases.pPr.get(paragraph.props);
  if (byMark === undefined) {
    byMark = new Map();
    bases.pPr.set(paragraph.props, byMark);
  }
  let xml = byMark.get(paragraph.markProps);
  if (xml === undefined) {
    xml = paragraphPropertiesXml(paragraph.props, bases.paragraph, paragraph.props.styleId, {
      ...(list ? { numbering: { numId: list.numId, level: list.level } } : {}),
      markRunProperties: runPropertiesChildren(paragraph.markProps, bases.mark),
    });
    byMark.set(paragraph.markProps, xml);
  }
  return xml;
}

/**
 * The paragraph's list: its w:numId, level, and the indents the level gives (numbering-writer.ts
 * writes them as the level's w:ind), which the reader lays over the style's (§17.9.23).
 */
function listOf(
  paragraph: Paragraph,
  part: PartWriteContext,
): { numId: number; level: number; paragraph: ParagraphDelta } | undefined {
  const membership = paragraph.list;
  if (membership === undefined) return undefined;
  const numId = (membership.continuation ? part.doc.continuationNumIds : part.doc.numIds).get(membership.listId);
  const definition = part.doc.model.lists?.[membership.listId];
  if (numId === undefined || definition === undefined) return undefined;
  const level = Math.max(0, Math.min(8, membership.level));
  const own = definition.levels[level];
  const indent = own ? { left: own.indent, firstLine: -own.hanging } : defaultLevelIndent(level);
  // A continuation's level indents every line alike (numbering-writer.ts continuationLevelXml).
  return { numId, level, paragraph: membership.continuation ? { left: indent.left, firstLine: 0 } : indent };
}

/** Levels a definition does not give: Word's own steps, 0.5 in per level with a 0.25 in hanging label. */
export function defaultLevelIndent(level: number): { left: number; firstLine: number } {
  return { left: 36 * (level + 1), firstLine: -18 };
}
