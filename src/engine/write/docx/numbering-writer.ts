/**
 * word/numbering.xml (ECMA-376 Part 1 §17.9): one w:abstractNum per ListDefinition, with all nine
 * levels (§17.9.6: Word expects 0–8), and one w:num instance per list referring to it. All
 * w:abstractNum elements come before the w:num elements, as CT_Numbering requires.
 */
import type { ListDefinition, ListLevel } from '../../model';
import { toTwips } from './measures';
import { defaultLevelIndent } from './paragraph-writer';
import { escapeAttribute, XML_DECLARATION } from './xml-escape';

const LEVELS = 9;

/**
 * The numbering part for the lists in `numIds` order (numId n ↔ abstractNumId n − 1), then each
 * list's continuation numbering (`continuationNumIds`): the later paragraphs of an item belong
 * to the list, indented as its text, but show no label (w:numFmt none, empty w:lvlText, and
 * w:suff nothing so that no tab follows the empty label, §17.9.28).
 */
export function numberingXml(
  lists: Record<string, ListDefinition>,
  numIds: ReadonlyMap<string, number>,
  continuationNumIds: ReadonlyMap<string, number>,
): string {
  let abstracts = '';
  let instances = '';
  const write = (numId: number, definition: ListDefinition, level: typeof levelXml) => {
    const abstractId = numId - 1;
    let levels = '';
    for (let i = 0; i < LEVELS; i++) levels += level(i, definition.levels[i], definition);
    abstracts += `<w:abstractNum w:abstractNumId="${abstractId}"><w:multiLevelType w:val="hybridMultilevel"/>${levels}</w:abstractNum>`;
    instances += `<w:num w:numId="${numId}"><w:abstractNumId w:val="${abstractId}"/></w:num>`;
  };
  for (const [listId, numId] of numIds) {
    const definition = lists[listId];
    if (definition !== undefined) write(numId, definition, levelXml);
  }
  for (const [listId, numId] of continuationNumIds) {
    const definition = lists[listId];
    if (definition !== undefined) write(numId, definition, continuationLevelXml);
  }
  return `${XML_DECLARATION}<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${abstracts}${instances}</w:numbering>`;
}

/**
 * One w:lvl (§17.9.6) in CT_Lvl's order: start, numFmt, lvlText, lvlJc, pPr, rPr. A level the
 * definition lacks continues the last one it has: same format, Word's default indents.
 */
function levelXml(level: number, given: ListLevel | undefined, definition: ListDefinition): string {
  const last = definition.levels[definition.levels.length - 1];
  const indent = given ? { left: given.indent, hanging: given.hanging } : fallbackIndent(level);
  const format = given?.format ?? last?.format ?? 'decimal';
  const text = given?.text ?? (format === 'bullet' ? (last?.text ?? '•') : `%${level + 1}.`);
  const start = given?.start ?? 1;
  const font = given?.font;
  const rPr = font
    ? `<w:rPr><w:rFonts w:ascii="${escapeAttribute(font)}" w:hAnsi="${escapeAttribute(font)}" w:hint="default"/></w:rPr>`
    : '';
  return `<w:lvl w:ilvl="${level}"><w:start w:val="${start}"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${escapeAttribute(text)}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${toTwips(indent.left)}" w:hanging="${toTwips(indent.hanging)}"/></w:pPr>${rPr}</w:lvl>`;
}

/** A continuation level: the level's text indent for every line, no label. */
function continuationLevelXml(level: number, given: ListLevel | undefined): string {
  const left = given ? given.indent : fallbackIndent(level).left;
  return `<w:lvl w:ilvl="${level}"><w:start w:val="1"/><w:numFmt w:val="none"/><w:suff w:val="nothing"/><w:lvlText w:val=""/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${toTwips(left)}" w:firstLine="0"/></w:pPr></w:lvl>`;
}

function fallbackIndent(level: number): { left: number; hanging: number } {
  const { left, firstLine } = defaultLevelIndent(level);
  return { left, hanging: -firstLine };
}
