import type { Paragraph, RunProperties } from '../../model';
import { pictureBullet } from './drawing-reader';
import { flushNoteReference, type ParagraphBuilder } from './inline-output';
import { readInlineContent } from './inline-reader';
import { listLabel, paragraphNumbering } from './numbering';
import { type ParagraphDelta, previousParagraphProperties, readParagraphDelta } from './paragraph-properties';
import { newStory, type StoryContext } from './read-context';
import { changeOf, isRemoval, revisionMark } from './revisions';
import { previousRunProperties, type RunDelta } from './run-properties';
import { child, type XmlElement } from './xml-tree';

/**
 * One w:p (ECMA-376 Part 1, §17.3.1.22) into the model: properties through the cascade, its list
 * label, its inlines, and what the paragraph mark says about sections and tracked changes.
 */

export interface ParagraphResult {
  paragraph: Paragraph;
  /** w:pPr/w:sectPr: this paragraph ends a section (§17.6.17). */
  sectionProperties?: XmlElement;
  /**
   * The paragraph mark is absent in the chosen revision (deleted, under final; inserted, under
   * original), so this paragraph's content joins the next paragraph.
   */
  joinsNext: boolean;
}

/** The direct formatting of a paragraph without w:pPr (never written to). */
const NO_DELTA: ParagraphDelta = Object.freeze({});

export function readParagraph(p: XmlElement, story: StoryContext, tableStyleId: string | undefined): ParagraphResult {
  const doc = story.doc;
  const cascade = doc.cascade;
  const pPr = child(p, 'w:pPr');
  const markRPr = child(pPr, 'w:rPr');

  // The paragraph mark's own tracked change (§17.13.5.14 / §17.13.5.20: w:ins/w:del in its rPr).
  const markChange = changeOf(markRPr);
  const joinsNext =
    markChange !== undefined &&
    (doc.revisions === 'final'
      ? isRemoval(markChange.kind)
      : doc.revisions === 'original'
        ? !isRemoval(markChange.kind)
        : false);

  const propertiesSource = doc.revisions === 'original' ? (previousParagraphProperties(pPr) ?? pPr) : pPr;
  const direct = propertiesSource === undefined ? NO_DELTA : cascade.paragraphDeltaOf(propertiesSource, doc.colors);
  // pStyle lives in the current pPr even when the old properties are used, unless they name one.
  const requestedStyle =
    direct.styleId ?? (propertiesSource !== pPr ? readParagraphDelta(pPr, doc.colors).styleId : undefined);
  const styleId = cascade.paragraphStyleId(requestedStyle);

  const styleNumbering = cascade.paragraphChain(styleId).numbering;
  const numbering = joinsNext
    ? undefined
    : paragraphNumbering(doc.numbering, direct.numbering, styleNumbering, styleId);
  const numId = direct.numbering?.numId ?? styleNumbering?.numId;
  if (numbering === undefined && numId !== undefined && numId !== '0' && !doc.numbering.instances.has(numId)) {
    doc.warn(`Paragraphs refer to list ${numId}, which the numbering part does not define; they show no number.`);
  }
  const base = cascade.paragraphBase({
    styleId,
    tableStyleId,
    ...(numbering
      ? {
          numbering: {
            key: `${numbering.instance.numId}:${numbering.level}`,
            paragraph: numbering.definition.paragraph,
            fromStyle: numbering.fromStyle,
          },
        }
      : {}),
  });
  const props = cascade.paragraphPropertiesOf(base, direct);

  const markSource = doc.revisions === 'original' && markRPr ? (previousRunProperties(markRPr) ?? markRPr) : markRPr;
  let markDelta: RunDelta;
  let markProps: RunProperties;
  if (markSource === undefined) {
    markDelta = cascade.markDelta(tableStyleId, styleId, undefined);
    markProps = cascade.toRunProperties(markDelta);
  } else {
    ({ delta: markDelta, properties: markProps } = cascade.markOf(markSource, tableStyleId, styleId, doc.colors));
  }

  const paragraph: Paragraph = { kind: 'paragraph', props, markProps, inlines: [] };
  if (numbering) {
    const text = story.counters.next(numbering);
    const labelProps = cascade.toRunProperties({ ...markDelta, ...numbering.definition.run });
    paragraph.label = listLabel(text, numbering.definition, labelProps, markProps);
    const bulletId = numbering.definition.pictureBulletId;
    const bullet = bulletId === undefined ? undefined : doc.numbering.pictureBullets.get(bulletId);
    const numberingPart = doc.numbering.partName;
    if (bullet && numberingPart) {
      const image = pictureBullet(newStory(doc, numberingPart, doc.pkg.relationships(numberingPart)), bullet);
      if (image) paragraph.label.image = image;
    }
  }
  if (markChange !== undefined && doc.revisions === 'markup') {
    paragraph.markRevision = revisionMark(markChange.element, markChange.kind);
  }

  if (story.pendingBookmarks.length > 0) {
    paragraph.inlines.push(...story.pendingBookmarks);
    story.pendingBookmarks = [];
  }
  const builder: ParagraphBuilder = {
    inlines: paragraph.inlines,
    story,
    tableStyleId,
    paragraphStyleId: styleId,
    textFont: markProps.font,
  };
  readInlineContent(p, builder, { showDeleted: false });
  flushNoteReference(builder);

  const result: ParagraphResult = { paragraph, joinsNext };
  const sectPr = child(pPr, 'w:sectPr');
  if (sectPr !== undefined) result.sectionProperties = sectPr;
  return result;
}
