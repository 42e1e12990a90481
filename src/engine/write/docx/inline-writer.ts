/**
 * A paragraph's inlines as runs (ECMA-376 Part 1 §17.3.2) and the containers around them:
 * hyperlinks (§17.16.22), simple fields (§17.16.19), bookmarks (§17.13.6), note references
 * (§17.11.14), Office Math (§22.1, math-writer.ts). Each run names its character style and writes only what its properties add to it.
 */
import type { FieldInline, Inline, LinkTarget, RunProperties } from '../../model';
import { drawingXml } from './image-parts';
import { mathXml } from './math-writer';
import { appendRelationship, RELATIONSHIP_TYPES } from './package-parts';
import { runPropertiesXml } from './run-properties-xml';
import type { PartWriteContext } from './write-context';
import { escapeAttribute, escapeText } from './xml-escape';

/** Where the inlines sit: what the run properties are resolved against. */
export interface InlineScope {
  part: PartWriteContext;
  tableStyleId: string | undefined;
  /** The paragraph's style as the cascade resolves it (the default when it names none). */
  paragraphStyleId: string | undefined;
  /** Written w:rPr for this paragraph's bases (write-context.ts ParagraphBases.rPr). */
  runPropertiesXml: Map<string | undefined, Map<RunProperties, string>>;
  /**
   * In a note's first paragraph: the note's own mark (a leading FootnoteReference-styled text) is
   * written as w:footnoteRef / w:endnoteRef, which Word numbers itself.
   */
  noteMark?: 'footnote' | 'endnote';
}

export const NOTE_REFERENCE_STYLE = 'FootnoteReference';

export function inlinesXml(inlines: readonly Inline[], scope: InlineScope): string {
  let xml = '';
  let index = 0;
  if (scope.noteMark !== undefined) {
    const first = inlines[0];
    if (first?.kind === 'text' && first.styleId === NOTE_REFERENCE_STYLE) {
      const mark = scope.noteMark === 'footnote' ? 'w:footnoteRef' : 'w:endnoteRef';
      xml += `<w:r>${runProperties(first.props, first.styleId, scope)}<${mark}/></w:r>`;
      index = 1;
    }
  }
  // Consecutive inlines with the same link share one w:hyperlink.
  while (index < inlines.length) {
    const inline = inlines[index] as Inline;
    const link = inline.kind === 'bookmark' ? undefined : inline.link;
    if (link === undefined) {
      xml += inlineXml(inline, scope);
      index++;
      continue;
    }
    let content = '';
    while (index < inlines.length) {
      const next = inlines[index] as Inline;
      if (next.kind === 'bookmark' || !sameLink(next.link, link)) break;
      content += inlineXml(next, scope);
      index++;
    }
    xml += hyperlinkXml(link, content, scope.part);
  }
  return xml;
}

function sameLink(a: LinkTarget | undefined, b: LinkTarget): boolean {
  if (a === undefined) return false;
  if ('url' in a) return 'url' in b && a.url === b.url;
  return 'anchor' in b && a.anchor === b.anchor;
}

/** An external link is a relationship (TargetMode External); an internal one names a bookmark. */
function hyperlinkXml(link: LinkTarget, content: string, part: PartWriteContext): string {
  if ('anchor' in link) return `<w:hyperlink w:anchor="${escapeAttribute(link.anchor)}">${content}</w:hyperlink>`;
  part.hyperlinkIds ??= new Map();
  let rId = part.hyperlinkIds.get(link.url);
  if (rId === undefined) {
    // Only links add hyperlink relationships, so a URL not in the map is not in the list.
    rId = appendRelationship(part.relationships, RELATIONSHIP_TYPES.hyperlink, link.url, true);
    part.hyperlinkIds.set(link.url, rId);
  }
  return `<w:hyperlink r:id="${rId}">${content}</w:hyperlink>`;
}

/** A run's w:rPr, written once per character style and properties in the paragraph's bases. */
function runProperties(props: RunProperties, styleId: string | undefined, scope: InlineScope): string {
  let byProps = scope.runPropertiesXml.get(styleId);
  if (byProps === undefined) {
    byProps = new Map();
    scope.runPropertiesXml.set(styleId, byProps);
  }
  let xml = byProps.get(props);
  if (xml === undefined) {
    const base = scope.part.doc.cascade.runProperties(scope.tableStyleId, scope.paragraphStyleId, styleId, undefined);
    xml = runPropertiesXml(props, base, styleId);
    byProps.set(props, xml);
  }
  return xml;
}

function inlineXml(inline: Inline, scope: InlineScope): string {
  switch (inline.kind) {
    case 'text':
      return inline.text === ''
        ? ''
        : `<w:r>${runProperties(inline.props, inline.styleId, scope)}${textXml(inline.text)}</w:r>`;
    case 'tab':
      return `<w:r>${runProperties(inline.props, inline.styleId, scope)}<w:tab/></w:r>`;
    case 'break': {
      const type = inline.type === 'line' ? '' : ` w:type="${inline.type}"`;
      return `<w:r>${runProperties(inline.props, inline.styleId, scope)}<w:br${type}/></w:r>`;
    }
    case 'image': {
      const drawing = drawingXml(inline, scope.part);
      return drawing === '' ? '' : `<w:r>${runProperties(inline.props, inline.styleId, scope)}${drawing}</w:r>`;
    }
    case 'field':
      return fieldXml(inline, scope);
    case 'bookmark': {
      // A point bookmark: start and end together (§17.13.6.2, ids unique in the document).
      const id = scope.part.doc.counters.bookmark++;
      return `<w:bookmarkStart w:id="${id}" w:name="${escapeAttribute(inline.name)}"/><w:bookmarkEnd w:id="${id}"/>`;
    }
    case 'noteReference': {
      const id = scope.part.doc.noteIds[inline.note].get(inline.id);
      if (id === undefined) return '';
      const styleId = inline.styleId ?? NOTE_REFERENCE_STYLE;
      const element = inline.note === 'footnote' ? 'w:footnoteReference' : 'w:endnoteReference';
      return `<w:r>${runProperties(inline.props, styleId, scope)}<${element} w:id="${id}"/></w:r>`;
    }
    case 'math':
      return mathXml(inline);
    case 'drawing':
      // Charts, shapes and floating drawings come only from DOCX sources; markup models have none.
      return '';
  }
}

/**
 * w:t text with line feeds as w:br and tabs as w:tab (a line feed inside w:t reads as a space,
 * §17.3.3.31); xml:space="preserve" keeps leading and trailing spaces.
 */
export function textXml(text: string): string {
  if (text === '') return '';
  // Most runs have neither: one w:t, without splitting.
  if (!text.includes('\n') && !text.includes('\t')) return `<w:t xml:space="preserve">${escapeText(text)}</w:t>`;
  let xml = '';
  for (const piece of text.split(/(\n|\t)/)) {
    if (piece === '\n') xml += '<w:br/>';
    else if (piece === '\t') xml += '<w:tab/>';
    else if (piece !== '') xml += `<w:t xml:space="preserve">${escapeText(piece)}</w:t>`;
  }
  return xml;
}

/** A simple field (§17.16.19) with its instruction and Word's cached result. */
function fieldXml(inline: FieldInline, scope: InlineScope): string {
  let instruction = ` ${inline.field}`;
  if (inline.argument !== undefined) instruction += ` ${inline.argument}`;
  if (inline.field === 'PAGEREF') instruction += ' \\h';
  if (inline.format !== undefined) instruction += ` \\* ${inline.format}`;
  instruction += ' ';
  const result =
    inline.cached === ''
      ? ''
      : `<w:r>${runProperties(inline.props, inline.styleId, scope)}${textXml(inline.cached)}</w:r>`;
  return `<w:fldSimple w:instr="${escapeAttribute(instruction)}">${result}</w:fldSimple>`;
}
