import type { Block, ImageInline, Inline, RunProperties } from '../model/document';
import { readBlockContent } from './block-reader';
import { checkImage } from './image-resource';
import { append, emit, type ParagraphBuilder } from './inline-output';
import { chooseAlternative } from './markup-compatibility';
import { PartError } from './part-error';
import type { InlineScope, StoryContext } from './read-context';
import { emu } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * Pictures and text boxes in runs: DrawingML (w:drawing, ECMA-376 Part 1, §20.4) and VML (w:pict,
 * w:object; Part 4, §19). Inline pictures become ImageInline. Floating (wp:anchor) objects are not
 * positioned yet: their pictures are placed inline and their text boxes' text follows the anchor's
 * text, so nothing is lost.
 */

export function readDrawing(drawing: XmlElement, builder: ParagraphBuilder, props: RunProperties, scope: InlineScope) {
  for (const placement of drawing.children) {
    const floating = placement.name === 'wp:anchor';
    if (placement.name !== 'wp:inline' && !floating) continue;
    if (floating) builder.story.doc.warn(FLOATING_WARNING);
    const extent = child(placement, 'wp:extent');
    const width = emu(extent?.attributes.cx) ?? 0;
    const height = emu(extent?.attributes.cy) ?? 0;
    const docPr = child(placement, 'wp:docPr');
    const description = docPr?.attributes.descr || docPr?.attributes.title || undefined;
    const data = child(child(placement, 'a:graphic'), 'a:graphicData');
    if (data === undefined) continue;
    for (const content of data.children) {
      readGraphic(content, builder, props, scope, { width, height, scaleX: 1, scaleY: 1, inGroup: false, description });
    }
  }
}

const FLOATING_WARNING =
  'Floating pictures and text boxes are not positioned yet: their pictures are placed in the text line, and text boxes’ text follows the paragraph that anchors them.';

interface Frame {
  width: number;
  height: number;
  /** Group scaling from child coordinates to points' EMU. */
  scaleX: number;
  scaleY: number;
  /** Inside a group each picture has its own extent; outside, wp:extent is the size. */
  inGroup: boolean;
  description: string | undefined;
}

function readGraphic(
  content: XmlElement,
  builder: ParagraphBuilder,
  props: RunProperties,
  scope: InlineScope,
  frame: Frame,
): void {
  switch (content.name) {
    case 'pic:pic':
      emitPicture(content, builder, props, scope, frame);
      return;
    case 'wps:wsp':
      readShape(content, builder, props);
      return;
    case 'wpg:wgp':
    case 'wpg:grpSp':
    case 'wpc:wpc':
    case 'wpc:wpg':
      readGroup(content, builder, props, scope, frame);
      return;
    case 'mc:AlternateContent': {
      const branch = chooseAlternative(content);
      for (const inner of branch?.children ?? []) readGraphic(inner, builder, props, scope, frame);
      return;
    }
    case 'c:chart':
      builder.story.doc.warn('Charts are not drawn yet; each chart is left out.');
      return;
    case 'dgm:relIds':
      builder.story.doc.warn('SmartArt diagrams are not drawn yet; each diagram is left out.');
      return;
    default:
      if (content.name.startsWith('a:') || content.name.endsWith(':wpc') || content.name === 'wpc:bg') return;
      builder.story.doc.warn(`Drawings of type ${content.name} are not drawn yet; they are left out.`);
  }
}

function emitPicture(
  pic: XmlElement,
  builder: ParagraphBuilder,
  props: RunProperties,
  scope: InlineScope,
  frame: Frame,
): void {
  const blip = child(child(pic, 'pic:blipFill'), 'a:blip');
  const embed = blip?.attributes['r:embed'];
  if (embed === undefined || embed === '') {
    if (blip?.attributes['r:link']) builder.story.doc.warn('Linked (not embedded) pictures are left out.');
    return;
  }
  const imageId = resolveImage(builder.story, embed);
  if (imageId === undefined) return;
  let { width, height } = frame;
  const ext = child(child(child(pic, 'pic:spPr'), 'a:xfrm'), 'a:ext');
  if (frame.inGroup || width === 0 || height === 0) {
    // Inside a group the picture's own extent, scaled to the group's, is its size.
    width = (emu(ext?.attributes.cx) ?? 0) * frame.scaleX;
    height = (emu(ext?.attributes.cy) ?? 0) * frame.scaleY;
  }
  const description = frame.description ?? child(child(pic, 'pic:nvPicPr'), 'pic:cNvPr')?.attributes.descr;
  emitImage(builder, props, scope, imageId, width, height, description);
}

function readGroup(
  group: XmlElement,
  builder: ParagraphBuilder,
  props: RunProperties,
  scope: InlineScope,
  frame: Frame,
): void {
  const xfrm = child(child(group, 'wpg:grpSpPr'), 'a:xfrm');
  const ext = child(xfrm, 'a:ext');
  const childExt = child(xfrm, 'a:chExt');
  let scaleX = frame.scaleX;
  let scaleY = frame.scaleY;
  const cx = Number(ext?.attributes.cx);
  const cy = Number(ext?.attributes.cy);
  const chx = Number(childExt?.attributes.cx);
  const chy = Number(childExt?.attributes.cy);
  if (cx > 0 && chx > 0) scaleX *= cx / chx;
  if (cy > 0 && chy > 0) scaleY *= cy / chy;
  const inner: Frame = { ...frame, scaleX, scaleY, inGroup: true, description: undefined };
  for (const member of group.children) {
    if (member.name === 'wpg:grpSpPr' || member.name === 'wpg:cNvGrpSpPr') continue;
    readGraphic(member, builder, props, scope, inner);
  }
}

/** A DrawingML shape: only its text box's text is kept (the shape itself is not drawn yet). */
function readShape(shape: XmlElement, builder: ParagraphBuilder, props: RunProperties): void {
  const content = child(child(shape, 'wps:txbx'), 'w:txbxContent');
  if (content !== undefined) appendTextBox(content, builder, props);
}

/**
 * VML pictures and text boxes (w:pict, w:object): v:imagedata's r:id is the picture, sized by the
 * shape's CSS-like style (width:…;height:…); v:textbox/w:txbxContent holds a text box.
 */
export function readVml(pict: XmlElement, builder: ParagraphBuilder, props: RunProperties, scope: InlineScope) {
  for (const shape of pict.children) {
    if (shape.name === 'w:drawing') {
      readDrawing(shape, builder, props, scope);
      continue;
    }
    if (!shape.name.startsWith('v:')) continue;
    if (shape.name === 'v:group') {
      readVml(shape, builder, props, scope);
      continue;
    }
    const imageData = child(shape, 'v:imagedata');
    const relationship = imageData?.attributes['r:id'] ?? imageData?.attributes['r:pict'];
    if (imageData !== undefined && relationship) {
      const imageId = resolveImage(builder.story, relationship);
      if (imageId !== undefined) {
        const style = parseStyle(shape.attributes.style);
        const description = imageData.attributes['o:title'] || shape.attributes.alt || undefined;
        emitImage(builder, props, scope, imageId, style.width ?? 0, style.height ?? 0, description);
      }
    }
    const content = child(child(shape, 'v:textbox'), 'w:txbxContent');
    if (content !== undefined) appendTextBox(content, builder, props);
  }
}

function emitImage(
  builder: ParagraphBuilder,
  props: RunProperties,
  scope: InlineScope,
  imageId: string,
  width: number,
  height: number,
  description: string | undefined,
): void {
  const image = builder.story.doc.images[imageId];
  let w = width;
  let h = height;
  if ((w <= 0 || h <= 0) && image) {
    // No size given: the pixel size at 96 dpi, as Word inserts pictures.
    w = image.pixelWidth * 0.75;
    h = image.pixelHeight * 0.75;
  }
  const inline: ImageInline = { kind: 'image', imageId, width: w, height: h, props };
  if (description) inline.description = description;
  if (scope.revision) inline.revision = scope.revision;
  if (scope.link) inline.link = scope.link;
  emit(builder, inline);
}

/** Text box content flattened into the anchoring paragraph, paragraphs joined by line breaks. */
function appendTextBox(content: XmlElement, builder: ParagraphBuilder, props: RunProperties): void {
  const blocks = readBlockContent(content, builder.story, undefined).blocks;
  let first = true;
  const flatten = (list: Block[]) => {
    for (const block of list) {
      if (block.kind === 'table') {
        for (const row of block.rows) for (const cell of row.cells) flatten(cell.blocks);
        continue;
      }
      const inlines: Inline[] = block.inlines;
      if (inlines.length === 0 && block.label === undefined) continue;
      if (!first) builder.inlines.push({ kind: 'break', type: 'line', props });
      first = false;
      if (block.label !== undefined && block.label.text !== '') {
        append(builder.inlines, { kind: 'text', text: `${block.label.text} `, props: block.label.props });
      }
      for (const inline of inlines) append(builder.inlines, inline);
    }
  };
  flatten(blocks);
}

/** The image id (the part name) for a relationship of the story, reading the part once. */
export function resolveImage(story: StoryContext, relationshipId: string): string | undefined {
  const doc = story.doc;
  const relationship = story.relationships.find((candidate) => candidate.id === relationshipId);
  if (relationship === undefined) {
    doc.warn(
      `A picture refers to a relationship (${relationshipId}) that ${story.partName} does not have; it is left out.`,
    );
    return undefined;
  }
  if (relationship.external) {
    doc.warn('Linked (not embedded) pictures are left out.');
    return undefined;
  }
  const partName = relationship.target;
  const known = doc.imageIds.get(partName);
  if (known !== undefined) return known ?? undefined;
  let bytes: Uint8Array | undefined;
  try {
    bytes = doc.pkg.readPart(partName);
  } catch (error) {
    if (!(error instanceof PartError) || error.fatal) throw error;
    doc.warn(`${error.message} The picture is left out.`);
    doc.imageIds.set(partName, null);
    return undefined;
  }
  if (bytes === undefined) {
    doc.warn(`The picture ${partName} is missing from the package; it is left out.`);
    doc.imageIds.set(partName, null);
    return undefined;
  }
  const checked = checkImage(bytes);
  if ('problem' in checked) {
    doc.warn(`The picture ${partName} is left out: ${checked.problem}.`);
    doc.imageIds.set(partName, null);
    return undefined;
  }
  doc.images[partName] = checked.image;
  doc.imageIds.set(partName, partName);
  return partName;
}

const CSS_UNITS: Record<string, number> = { pt: 1, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, px: 0.75, pc: 12, '': 0.75 };

/** width/height from a VML style attribute ("width:120pt;height:3.5in"), in points. */
function parseStyle(style: string | undefined): { width?: number; height?: number } {
  const out: { width?: number; height?: number } = {};
  if (style === undefined) return out;
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon === -1) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    if (property !== 'width' && property !== 'height') continue;
    const match = /^\s*(-?[0-9.]+)\s*(pt|in|cm|mm|px|pc|)\s*$/i.exec(declaration.slice(colon + 1));
    if (!match) continue;
    const value = Number(match[1]) * (CSS_UNITS[(match[2] as string).toLowerCase()] ?? 0.75);
    if (Number.isFinite(value) && value > 0) out[property] = value;
  }
  return out;
}
