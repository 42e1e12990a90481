import type { FieldInline, Inline, LinkTarget, NoteReferenceInline, RunProperties, TextInline } from '../../model';
import { DEFAULT_DATE_PICTURE, DEFAULT_TIME_PICTURE, formatDate } from '../../text';
import { type FieldInstruction, parseFieldInstruction } from './field-instruction';
import type { OpenField, StoryContext } from './read-context';
import type { XmlElement } from './xml-tree';

/**
 * Where inline content goes. Outside fields it is appended to the paragraph (merging text that
 * looks the same, since Word splits runs for editing history alone). Inside a complex field
 * (ECMA-376 Part 1, §17.16.2: begin, instruction, separate, result, end; nested freely) it feeds
 * the instruction, or the cached result of a field the layout recomputes, or prints as the
 * field's result, linked for HYPERLINK.
 */

export interface ParagraphBuilder {
  inlines: Inline[];
  story: StoryContext;
  /** The styles the paragraph's runs cascade from. */
  tableStyleId: string | undefined;
  paragraphStyleId: string | undefined;
  /** The face for text mapped out of a symbol font (the paragraph mark's). */
  textFont: string;
  /** A note reference with w:customMarkFollows, waiting for the text of the next run as its mark. */
  pendingNoteReference?: NoteReferenceInline;
}

/** Fields whose value depends on layout: kept as FieldInline with Word's cached result. */
const LAYOUT_FIELDS = new Set(['PAGE', 'NUMPAGES', 'SECTIONPAGES', 'PAGEREF']);
const DATE_FIELDS: Record<string, 'created' | 'modified' | 'date'> = {
  DATE: 'date',
  TIME: 'date',
  CREATEDATE: 'created',
  SAVEDATE: 'modified',
  PRINTDATE: 'modified',
};

export function emit(builder: ParagraphBuilder, inline: Inline): void {
  // A bookmark marks a position whatever field it is in.
  if (inline.kind === 'bookmark') {
    builder.inlines.push(inline);
    return;
  }
  const fields = builder.story.fields;
  let link: LinkTarget | undefined;
  for (let i = fields.length - 1; i >= 0; i--) {
    const field = fields[i] as OpenField;
    if (field.phase === 'instruction') {
      // Nested fields' results (and plain text) inside an instruction are part of it.
      if (inline.kind === 'text') field.instruction += inline.text;
      return;
    }
    field.hadResult = true;
    if (field.capture !== undefined) {
      if (inline.kind === 'text') field.cached += inline.text;
      field.props ??= inline.props;
      return;
    }
    field.props ??= inline.props;
    link ??= field.link;
  }
  if (link !== undefined && inline.link === undefined) inline.link = link;
  append(builder.inlines, inline);
}

/**
 * Text that may be the custom mark of a waiting note reference (§17.11.14 customMarkFollows): the
 * reference takes the text and its formatting and is emitted in its place. Whether it did.
 */
export function takeCustomMark(builder: ParagraphBuilder, text: string, props: RunProperties): boolean {
  const reference = builder.pendingNoteReference;
  if (reference === undefined || text === '') return false;
  builder.pendingNoteReference = undefined;
  reference.mark = text;
  reference.props = props;
  emit(builder, reference);
  return true;
}

/** A custom-mark reference with no run after it in its paragraph still marks where its note belongs. */
export function flushNoteReference(builder: ParagraphBuilder): void {
  const reference = builder.pendingNoteReference;
  if (reference === undefined) return;
  builder.pendingNoteReference = undefined;
  emit(builder, reference);
}

/** Appends, merging a text inline into the previous one when nothing but the text differs. */
export function append(inlines: Inline[], inline: Inline): void {
  if (inline.kind === 'text') {
    const last = inlines[inlines.length - 1];
    if (
      last !== undefined &&
      last.kind === 'text' &&
      last.revision === inline.revision &&
      last.link === inline.link &&
      sameProps(last.props, inline.props)
    ) {
      (last as TextInline).text += inline.text;
      return;
    }
  }
  inlines.push(inline);
}

/** Shallow equality of run properties (all values are primitives). */
export function sameProps(a: RunProperties, b: RunProperties): boolean {
  if (a === b) return true;
  let count = 0;
  for (const key in a) {
    if (a[key as keyof RunProperties] !== b[key as keyof RunProperties]) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

export function beginField(story: StoryContext, props: RunProperties, fldChar: XmlElement): void {
  const field: OpenField = {
    instruction: '',
    phase: 'instruction',
    cached: '',
    props: undefined,
    beginProps: props,
    hadResult: false,
  };
  const checkBox = fldChar.children.find((c) => c.name === 'w:ffData')?.children.find((c) => c.name === 'w:checkBox');
  if (checkBox !== undefined) {
    const state =
      checkBox.children.find((c) => c.name === 'w:checked') ?? checkBox.children.find((c) => c.name === 'w:default');
    const value = state?.attributes['w:val'];
    field.checkBox = state !== undefined && value !== '0' && value !== 'false';
  }
  story.fields.push(field);
}

export function addInstruction(story: StoryContext, text: string): void {
  const field = story.fields[story.fields.length - 1];
  if (field?.phase === 'instruction') field.instruction += text;
}

export function separateField(story: StoryContext): void {
  const field = story.fields[story.fields.length - 1];
  if (field === undefined || field.phase !== 'instruction') return;
  field.phase = 'result';
  classify(field, parseFieldInstruction(field.instruction));
}

/** A field given whole (w:fldSimple, §17.16.19): its content is the result. */
export function beginSimpleField(story: StoryContext, instruction: string, props: RunProperties): void {
  const field: OpenField = {
    instruction,
    phase: 'result',
    cached: '',
    props: undefined,
    beginProps: props,
    hadResult: false,
  };
  story.fields.push(field);
  classify(field, parseFieldInstruction(instruction));
}

export function endField(builder: ParagraphBuilder): void {
  const story = builder.story;
  const field = story.fields.pop();
  if (field === undefined) return;
  if (field.parsed === undefined) classify(field, parseFieldInstruction(field.instruction));
  const parsed = field.parsed as FieldInstruction;
  const props = field.props ?? field.beginProps;
  if (field.capture !== undefined) {
    const inline: FieldInline = { kind: 'field', field: field.capture, cached: field.cached, props };
    if (field.capture === 'PAGEREF' && parsed.args[0] !== undefined) inline.argument = parsed.args[0];
    if (parsed.format !== undefined) inline.format = parsed.format;
    emit(builder, inline);
    return;
  }
  if (field.hadResult) return;
  const dateKind = DATE_FIELDS[parsed.name];
  if (dateKind !== undefined) {
    const picture = parsed.datePicture ?? (parsed.name === 'TIME' ? DEFAULT_TIME_PICTURE : DEFAULT_DATE_PICTURE);
    emitDocumentDate(builder, dateKind, picture, props);
    return;
  }
  if (parsed.name === 'FORMCHECKBOX' && field.checkBox !== undefined) {
    emit(builder, { kind: 'text', text: field.checkBox ? '\u2612' : '\u2610', props });
  }
}

/**
 * A date the document shows as "now" (DATE, TIME, a date block), or when it was created or saved,
 * as text: the document's own dates stand for the clock, so the same input gives the same output.
 * Nothing when the package records no date.
 */
export function emitDocumentDate(
  builder: ParagraphBuilder,
  kind: 'created' | 'modified' | 'date',
  picture: string,
  props: RunProperties,
): void {
  const properties = builder.story.doc.properties;
  const iso =
    kind === 'created' ? (properties.created ?? properties.modified) : (properties.modified ?? properties.created);
  if (iso === undefined) {
    builder.story.doc.warn(
      'A date (a DATE or TIME field without a result, or a date block) is left empty: the document records no date to show.',
    );
    return;
  }
  emit(builder, { kind: 'text', text: formatDate(iso, picture), props });
}

function classify(field: OpenField, parsed: FieldInstruction): void {
  field.parsed = parsed;
  if (LAYOUT_FIELDS.has(parsed.name)) {
    field.capture = parsed.name as OpenField['capture'];
    return;
  }
  if (parsed.name === 'HYPERLINK') {
    const anchor = parsed.switches.get('l');
    const url = parsed.args[0];
    if (url !== undefined && url !== '') field.link = { url: anchor ? `${url}#${anchor}` : url };
    else if (anchor) field.link = { anchor };
  }
}
