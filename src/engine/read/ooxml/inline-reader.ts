import type {
  BookmarkInline,
  Inline,
  LinkTarget,
  MathInline,
  NoteReferenceInline,
  PositionalTab,
  RevisionMark,
  RunProperties,
  TextInline,
} from '../../model';
import { hasSymbolCodes, isSymbolFont, mapSymbolCharacter, mapSymbolText } from '../../text';
import { readDrawing, readVml } from './drawing-reader';
import {
  addInstruction,
  beginField,
  beginSimpleField,
  emit,
  emitDocumentDate,
  endField,
  type ParagraphBuilder,
  separateField,
  takeCustomMark,
} from './inline-output';
import { chooseAlternative } from './markup-compatibility';
import { officeMathJustification, readOfficeMath } from './math-reader';
import type { InlineScope, StoryContext } from './read-context';
import { CHANGE_ELEMENTS, isRemoval, isShown, revisionMark } from './revisions';
import { previousRunProperties } from './run-properties';
import { clamp, FONT_SIZE, halfPoints, onOff } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * Paragraph content (ECMA-376 Part 1, §17.3.2 runs and §17.3.3 run content) into inlines: runs and
 * their text, tabs, breaks, symbols, pictures and field characters, inside the containers that
 * wrap them — hyperlinks (§17.16.22), tracked changes (§17.13.5), content controls (§17.5.2),
 * smart tags and custom XML (§17.5.1), markup-compatibility alternatives.
 */

export function readInlineContent(container: XmlElement, builder: ParagraphBuilder, scope: InlineScope): void {
  const doc = builder.story.doc;
  // Indexed, not for…of: runs and their content are most of a document, and for…of's iterators
  // were a good part of what reading them allocated.
  const elements = container.children;
  for (let index = 0; index < elements.length; index++) {
    const element = elements[index] as XmlElement;
    const name = element.name;
    switch (name) {
      case 'w:r':
        readRun(element, builder, scope);
        continue;
      case 'w:hyperlink': {
        const link = hyperlinkTarget(element, builder.story);
        readInlineContent(element, builder, link ? { ...scope, link } : scope);
        continue;
      }
      case 'w:fldSimple': {
        const instruction = element.attributes['w:instr'] ?? '';
        beginSimpleField(builder.story, instruction, baseProps(builder));
        readInlineContent(element, builder, scope);
        endField(builder);
        continue;
      }
      case 'w:sdt':
        readSdt(element, builder, scope);
        continue;
      case 'w:smartTag':
      case 'w:customXml':
      case 'w:dir':
      case 'w:bdo':
      // A paragraph inside a paragraph (some generators nest one in an inline content control) is
      // invalid, but its text is kept rather than lost.
      case 'w:p':
        readInlineContent(element, builder, scope);
        continue;
      case 'mc:AlternateContent': {
        const branch = chooseAlternative(element);
        if (branch) readInlineContent(branch, builder, scope);
        continue;
      }
      case 'w:bookmarkStart': {
        const bookmark = element.attributes['w:name'];
        if (bookmark && bookmark !== '_GoBack') emit(builder, { kind: 'bookmark', name: bookmark });
        continue;
      }
      case 'm:oMathPara':
      case 'm:oMath':
        readMath(element, builder, scope);
        continue;
      case 'w:subDoc':
        emitSubdocument(element, builder, scope);
        continue;
    }
    const change = CHANGE_ELEMENTS[name];
    if (change !== undefined) {
      if (!isShown(change, doc.revisions)) continue;
      const inner: InlineScope = { ...scope };
      if (doc.revisions === 'markup') inner.revision = revisionMark(element, change);
      if (isRemoval(change)) inner.showDeleted = true;
      readInlineContent(element, builder, inner);
    }
  }
}

/** A content control (w:sdt): its content is ordinary content (§17.5.2.34 sdtContent). */
function readSdt(sdt: XmlElement, builder: ParagraphBuilder, scope: InlineScope): void {
  const content = child(sdt, 'w:sdtContent');
  if (content) readInlineContent(content, builder, scope);
}

/**
 * w:subDoc (§17.17.1.1): a subdocument of a master document, a separate file the package only
 * names. Its content cannot be read here; Word shows a collapsed subdocument as a link to the
 * file, and so is it printed, with a warning.
 */
function emitSubdocument(subDoc: XmlElement, builder: ParagraphBuilder, scope: InlineScope): void {
  const id = subDoc.attributes['r:id'];
  const relationship = id ? builder.story.relationships.find((candidate) => candidate.id === id) : undefined;
  const target = relationship?.target ?? '';
  builder.story.doc.warn(
    `A subdocument${target ? ` (${target})` : ''} is a separate file; its content is not included, only its name.`,
  );
  if (target === '') return;
  const inline: Inline = { kind: 'text', text: target, props: baseProps(builder) };
  if (scope.revision) inline.revision = scope.revision;
  inline.link = scope.link ?? { url: target };
  emit(builder, inline);
}

/**
 * w:hyperlink (§17.16.22): r:id names an external relationship (TargetMode="External"); w:anchor
 * a bookmark in this document. Both together mean a location inside the external target.
 */
export function hyperlinkTarget(element: XmlElement, story: StoryContext): LinkTarget | undefined {
  const anchor = element.attributes['w:anchor'];
  const id = element.attributes['r:id'];
  if (id) {
    const relationship = story.relationships.find((candidate) => candidate.id === id);
    if (relationship?.external) return { url: anchor ? `${relationship.target}#${anchor}` : relationship.target };
  }
  return anchor ? { anchor } : undefined;
}

/** The properties of text that has no run of its own (field results of w:fldSimple, equations). */
function baseProps(builder: ParagraphBuilder): RunProperties {
  return builder.story.doc.cascade.runProperties(builder.tableStyleId, builder.paragraphStyleId, undefined, undefined);
}

function readRun(run: XmlElement, builder: ParagraphBuilder, scope: InlineScope): void {
  const doc = builder.story.doc;
  let rPr = child(run, 'w:rPr');
  let revision = scope.revision;
  const formatChange = rPr === undefined ? undefined : child(rPr, 'w:rPrChange');
  if (formatChange !== undefined) {
    // original: the properties before the change; markup: mark the change unless a larger one is.
    if (doc.revisions === 'original') rPr = previousRunProperties(rPr);
    else if (doc.revisions === 'markup' && revision === undefined) revision = revisionMark(formatChange, 'format');
  }
  const props =
    rPr === undefined
      ? baseProps(builder)
      : doc.cascade.runPropertiesOf(rPr, builder.tableStyleId, builder.paragraphStyleId, doc.colors);
  readRunContent(run, builder, scope, props, revision, rPr);
}

/** Date blocks (§17.3.3.5–6, 17.3.3.15–16, 17.3.3.33–34): the date picture each shows. */
const DATE_BLOCKS: Readonly<Record<string, string>> = {
  'w:dayShort': 'dd',
  'w:dayLong': 'dddd',
  'w:monthShort': 'MM',
  'w:monthLong': 'MMMM',
  'w:yearShort': 'yy',
  'w:yearLong': 'yyyy',
};

/**
 * Run content (§17.3.3). What is not read here is deliberately invisible: w:annotationRef and
 * w:commentReference (comment marks; comments are not printed), w:lastRenderedPageBreak (where
 * Word last broke the page, a hint only), w:separator and w:continuationSeparator (the rule in
 * the separator notes, which layout draws itself), w:rPr.
 */
function readRunContent(
  run: XmlElement,
  builder: ParagraphBuilder,
  scope: InlineScope,
  props: RunProperties,
  revision: RevisionMark | undefined,
  rPr: XmlElement | undefined,
): void {
  const story = builder.story;
  // Hidden text (w:vanish) prints nothing, but its field characters still open and close fields.
  const visible = !props.hidden;
  const decorate = <T extends Inline>(inline: T): T => {
    if (inline.kind !== 'bookmark') {
      if (revision !== undefined) inline.revision = revision;
      if (scope.link !== undefined) inline.link = scope.link;
    }
    return inline;
  };
  const items = run.children;
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as XmlElement;
    switch (item.name) {
      case 'w:t':
        if (visible) emitText(builder, textOf(item), props, decorate, rPr);
        break;
      case 'w:delText':
        if (visible && scope.showDeleted) emitText(builder, textOf(item), props, decorate, rPr);
        break;
      case 'w:tab':
        if (visible) emit(builder, decorate({ kind: 'tab', props }));
        break;
      // An absolute position tab (§17.3.3.23): to the margins' or the indents' edge or centre.
      case 'w:ptab':
        if (visible) emit(builder, decorate({ kind: 'tab', props, absolute: positionalTab(item) }));
        break;
      case 'w:br': {
        if (!visible) break;
        const type = item.attributes['w:type'];
        emit(
          builder,
          decorate({ kind: 'break', type: type === 'page' ? 'page' : type === 'column' ? 'column' : 'line', props }),
        );
        break;
      }
      case 'w:cr':
        if (visible) emit(builder, decorate({ kind: 'break', type: 'line', props }));
        break;
      // U+2011 draws as a hyphen that does not break (engine/fonts/shaping.ts stands U+002D in for a face
      // without it); U+00AD shows only where a line breaks at it (engine/layout/line-breaker.ts).
      case 'w:noBreakHyphen':
        if (visible) emit(builder, decorate({ kind: 'text', text: '\u2011', props }));
        break;
      case 'w:softHyphen':
        if (visible) emit(builder, decorate({ kind: 'text', text: '\u00ad', props }));
        break;
      case 'w:dayShort':
      case 'w:dayLong':
      case 'w:monthShort':
      case 'w:monthLong':
      case 'w:yearShort':
      case 'w:yearLong':
        if (visible) emitDocumentDate(builder, 'date', DATE_BLOCKS[item.name] as string, props);
        break;
      case 'w:sym':
        if (visible) emitSymbol(item, builder, props, decorate);
        break;
      case 'w:fldChar': {
        const type = item.attributes['w:fldCharType'];
        if (type === 'begin') beginField(story, props, item);
        else if (type === 'separate') separateField(story);
        else if (type === 'end') endField(builder);
        break;
      }
      case 'w:instrText':
        addInstruction(story, item.text);
        break;
      case 'w:delInstrText':
        if (scope.showDeleted) addInstruction(story, item.text);
        break;
      case 'w:drawing':
        if (visible) readDrawing(item, builder, props, { ...scope, ...(revision ? { revision } : {}) });
        break;
      case 'w:pict':
      case 'w:object':
        if (visible) readVml(item, builder, props, { ...scope, ...(revision ? { revision } : {}) });
        break;
      case 'w:footnoteReference':
      case 'w:endnoteReference':
        if (visible) emitNoteReference(item, builder, props, decorate);
        break;
      case 'w:footnoteRef':
      case 'w:endnoteRef':
        // The note's own mark, at the start of its text (§17.11.13, §17.11.6).
        if (visible && story.noteMark) emitText(builder, story.noteMark, props, decorate, rPr);
        break;
      case 'w:pgNum':
        if (visible) emit(builder, decorate({ kind: 'field', field: 'PAGE', cached: '', props }));
        break;
      case 'mc:AlternateContent': {
        const branch = chooseAlternative(item);
        if (branch) readRunContent(branch, builder, scope, props, revision, rPr);
        break;
      }
      case 'w:ruby':
        if (visible) readRuby(item, builder, revision ? { ...scope, revision } : scope);
        break;
      case 'w:contentPart':
        // Ink and other content parts (§17.3.3.2) come with a picture in mc:Fallback, which is
        // read; one on its own cannot be drawn.
        story.doc.warn('Ink or another embedded content part (w:contentPart) is not drawn; it is left out.');
        break;
    }
  }
}

/**
 * w:t text (§17.3.3.31). Without xml:space="preserve" Word drops leading and trailing white space;
 * a literal tab in the text is a tab, a line feed a space.
 */
/** w:ptab's alignment, base and leader (§17.3.3.23); left of the margin when they are missing. */
function positionalTab(ptab: XmlElement): PositionalTab {
  const { attributes } = ptab;
  const align = attributes['w:alignment'];
  const leader = attributes['w:leader'];
  return {
    align: align === 'center' || align === 'right' ? align : 'left',
    relativeTo: attributes['w:relativeTo'] === 'indent' ? 'indent' : 'margin',
    leader:
      leader === 'dot' || leader === 'hyphen' || leader === 'underscore' || leader === 'middleDot' ? leader : 'none',
  };
}

function textOf(t: XmlElement): string {
  const text = t.text;
  if (t.attributes['xml:space'] === 'preserve') return text;
  return text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
}

function emitText(
  builder: ParagraphBuilder,
  text: string,
  props: RunProperties,
  decorate: <T extends Inline>(inline: T) => T,
  rPr: XmlElement | undefined,
): void {
  if (text === '') return;
  let value = text;
  let textProps = props;
  if (isSymbolFont(props.font)) {
    const mapped = mapSymbolText(value, props.font);
    if (mapped.mapped) {
      value = mapped.text;
      textProps = { ...props, font: builder.textFont };
    }
  } else if (hasSymbolCodes(value)) {
    // Symbol codes (U+F0xx) are not ASCII, so Word sets them in the run's w:hAnsi face
    // (§17.3.2.26), which may be Symbol or Wingdings where w:ascii is not. The ASCII text around
    // them keeps the run's face.
    const doc = builder.story.doc;
    const face = doc.cascade.hAnsiFaceOf(rPr, builder.tableStyleId, builder.paragraphStyleId, doc.colors);
    if (isSymbolFont(face)) value = mapSymbolText(value, face, false).text;
  }
  if (value.indexOf('\n') !== -1 || value.indexOf('\r') !== -1) value = value.replace(/\r?\n|\r/g, ' ');
  if (takeCustomMark(builder, value, textProps)) return;
  if (value.indexOf('\t') === -1) {
    emit(builder, decorate({ kind: 'text', text: value, props: textProps }));
    return;
  }
  const parts = value.split('\t');
  parts.forEach((part, index) => {
    if (index > 0) emit(builder, decorate({ kind: 'tab', props: textProps }));
    if (part !== '') emit(builder, decorate({ kind: 'text', text: part, props: textProps }));
  });
}

/**
 * Ruby (§17.3.3.25): phonetic guide text (w:rt) over its base text (w:rubyBase). Layout has no
 * ruby line above the text, so the guide follows its base in parentheses, at the ruby size
 * (w:rubyPr/w:hps, §17.3.3.12) when given, as HTML shows ruby where it cannot set it above; a
 * warning says so.
 */
function readRuby(ruby: XmlElement, builder: ParagraphBuilder, scope: InlineScope): void {
  const base = child(ruby, 'w:rubyBase');
  if (base) readInlineContent(base, builder, scope);
  const guide = child(ruby, 'w:rt');
  if (guide === undefined) return;
  const inner: ParagraphBuilder = { ...builder, inlines: [] };
  delete inner.pendingNoteReference;
  readInlineContent(guide, inner, scope);
  const first = inner.inlines.find((inline): inline is TextInline => inline.kind === 'text');
  if (first === undefined) return;
  builder.story.doc.warn('Ruby (phonetic guides) is shown in parentheses after its base text, not above it.');
  const size = clamp(halfPoints(child(child(ruby, 'w:rubyPr'), 'w:hps')?.attributes['w:val']), FONT_SIZE);
  const sized = <T extends Exclude<Inline, BookmarkInline>>(inline: T): T =>
    size === undefined || inline.props.size === size ? inline : { ...inline, props: { ...inline.props, size } };
  const bracket = (text: string): TextInline => {
    const inline: TextInline = { kind: 'text', text, props: first.props };
    if (first.revision) inline.revision = first.revision;
    if (first.link) inline.link = first.link;
    return sized(inline);
  };
  emit(builder, bracket('('));
  for (const inline of inner.inlines) emit(builder, inline.kind === 'bookmark' ? inline : sized(inline));
  emit(builder, bracket(')'));
}

/** w:sym (§17.3.3.30): a character of a symbol font, mapped to Unicode where known. */
function emitSymbol(
  sym: XmlElement,
  builder: ParagraphBuilder,
  props: RunProperties,
  decorate: <T extends Inline>(inline: T) => T,
): void {
  const code = Number.parseInt(sym.attributes['w:char'] ?? '', 16);
  if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) return;
  const font = sym.attributes['w:font'];
  const mapped = mapSymbolCharacter(code, font);
  if (mapped !== undefined) {
    const mappedProps = { ...props, font: builder.textFont };
    if (takeCustomMark(builder, mapped, mappedProps)) return;
    emit(builder, decorate({ kind: 'text', text: mapped, props: mappedProps }));
    return;
  }
  const symbolProps = font ? { ...props, font } : props;
  if (takeCustomMark(builder, String.fromCodePoint(code), symbolProps)) return;
  emit(builder, decorate({ kind: 'text', text: String.fromCodePoint(code), props: symbolProps }));
}

/**
 * Footnote and endnote references (§17.11.14, §17.11.7). Their numbers are given once the whole
 * body is read (note-numbering.ts: formats and restarts per section); a reference with
 * w:customMarkFollows shows the text of the next run instead, which is then not printed twice.
 */
function emitNoteReference(
  reference: XmlElement,
  builder: ParagraphBuilder,
  props: RunProperties,
  decorate: <T extends Inline>(inline: T) => T,
): void {
  const inline: NoteReferenceInline = decorate({
    kind: 'noteReference',
    note: reference.name === 'w:footnoteReference' ? 'footnote' : 'endnote',
    id: reference.attributes['w:id'] ?? '',
    mark: '',
    props,
  });
  const custom = reference.attributes['w:customMarkFollows'];
  if (custom !== undefined && onOff(custom)) {
    builder.story.doc.customNoteMarks.add(inline);
    builder.pendingNoteReference = inline;
    return;
  }
  emit(builder, inline);
}

/**
 * Office Math (§22.1) as math inlines (math-reader.ts): each equation of an m:oMathPara is
 * display math (§22.1.2.78) set as its m:jc says, an m:oMath in the line is inline math.
 */
function readMath(math: XmlElement, builder: ParagraphBuilder, scope: InlineScope): void {
  const display = math.name === 'm:oMathPara';
  const equations = display ? math.children.filter((c) => c.name === 'm:oMath') : [math];
  for (const equation of equations) {
    const nodes = readOfficeMath(equation, (message) => builder.story.doc.warn(message));
    if (nodes.length === 0) continue;
    const inline: MathInline = { kind: 'math', display, nodes, props: baseProps(builder) };
    if (display) inline.justification = officeMathJustification(math);
    if (scope.revision) inline.revision = scope.revision;
    if (scope.link) inline.link = scope.link;
    emit(builder, inline);
  }
}
