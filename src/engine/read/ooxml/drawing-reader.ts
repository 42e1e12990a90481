import type {
  Block,
  Drawing,
  DrawingInline,
  FloatingPlacement,
  ImageInline,
  Inline,
  RunProperties,
  Shape,
} from '../../model';
import { readChart } from './chart-reader';
import type { DrawingStyleContext } from './drawingml-style';
import { checkImage } from './image-resource';
import { append, emit, type ParagraphBuilder } from './inline-output';
import { chooseAlternative, effectiveChildren } from './markup-compatibility';
import { relationshipKind } from './package-reader';
import { PartError } from './part-error';
import type { InlineScope, StoryContext } from './read-context';
import { IDENTITY_FRAME, readDiagramShape, readWordShape, type ShapeFrame, transformBox } from './shape-reader';
import { emu } from './units';
import { cssDeclarations, cssLength, readVmlShape, vmlPlacement, wordArtText } from './vml-shape-reader';
import { child, type XmlElement } from './xml-tree';

/**
 * Pictures, shapes, text boxes, charts and SmartArt in runs: DrawingML (w:drawing, ECMA-376 Part 1,
 * §20.4) and VML (w:pict, w:object; Part 4, §19). Pictures become ImageInline; charts, shapes and
 * SmartArt become DrawingInline (src/engine/model/drawing.ts), and so do floating (wp:anchor) pictures:
 * those take no room in the line and carry their position and wrapping (engine/layout/float-wrap.ts
 * flows text around them). VML shapes and text boxes are read alike (vml-shape-reader.ts); inside
 * a VML group only the members' text is kept, following the paragraph that anchors them.
 */

export function readDrawing(drawing: XmlElement, builder: ParagraphBuilder, props: RunProperties, scope: InlineScope) {
  for (const placement of drawing.children) {
    const anchored = placement.name === 'wp:anchor';
    if (placement.name !== 'wp:inline' && !anchored) continue;
    const extent = child(placement, 'wp:extent');
    const width = emu(extent?.attributes.cx) ?? 0;
    const height = emu(extent?.attributes.cy) ?? 0;
    const docPr = child(placement, 'wp:docPr');
    const description = docPr?.attributes.descr || docPr?.attributes.title || undefined;
    const data = child(child(placement, 'a:graphic'), 'a:graphicData');
    if (data === undefined) continue;
    const floating = anchored ? floatingPlacement(placement, builder.story) : undefined;
    const frame: Frame = { width, height, scaleX: 1, scaleY: 1, inGroup: false, description };
    const shapes: Shape[] = [];
    for (const content of data.children) {
      readGraphic(content, builder, props, scope, frame, { shapes, frame: IDENTITY_FRAME, floating });
    }
    if (shapes.length > 0) emitDrawing(builder, props, scope, { kind: 'shapes', shapes }, width, height, floating);
  }
}

/**
 * Where an anchored object sits (§20.4.2.3) and how text wraps around it. Objects anchored in a
 * header or footer never push its text: Word lets them float over the page.
 */
function floatingPlacement(anchor: XmlElement, story: StoryContext): FloatingPlacement {
  const behindText = anchor.attributes.behindDoc === '1' || anchor.attributes.behindDoc === 'true';
  const inHeader = /(^|\/)(header|footer)[^/]*$/i.test(story.partName);
  const horizontal = child(anchor, 'wp:positionH');
  const vertical = child(anchor, 'wp:positionV');
  const hFrom = horizontal?.attributes.relativeFrom ?? 'column';
  const vFrom = vertical?.attributes.relativeFrom ?? 'paragraph';
  const hAlign = child(horizontal, 'wp:align')?.text;
  const vAlign = child(vertical, 'wp:align')?.text;
  const wrapElement = anchor.children.find((c) => c.name.startsWith('wp:wrap'));
  let wrap: FloatingPlacement['wrap'] = 'none';
  if (wrapElement?.name === 'wp:wrapTopAndBottom') wrap = 'topAndBottom';
  else if (wrapElement && wrapElement.name !== 'wp:wrapNone') wrap = 'square';
  if (inHeader) wrap = 'none';
  const sideValue = wrapElement?.attributes.wrapText;
  const distance = (name: string) => emu(anchor.attributes[name]) ?? 0;
  const placement: FloatingPlacement = {
    x: {
      from: hFrom === 'page' ? 'page' : hFrom === 'character' ? 'character' : hFrom === 'column' ? 'column' : 'margin',
      offset: emu(child(horizontal, 'wp:posOffset')?.text) ?? 0,
    },
    y: {
      from: vFrom === 'page' ? 'page' : vFrom === 'line' ? 'line' : vFrom === 'paragraph' ? 'paragraph' : 'margin',
      offset: emu(child(vertical, 'wp:posOffset')?.text) ?? 0,
    },
    behindText,
    wrap,
    side: sideValue === 'left' || sideValue === 'right' || sideValue === 'largest' ? sideValue : 'both',
    distance: { top: distance('distT'), bottom: distance('distB'), left: distance('distL'), right: distance('distR') },
  };
  if (hAlign === 'center' || hAlign === 'right' || hAlign === 'left') placement.x.align = hAlign;
  else if (hAlign === 'inside' || hAlign === 'outside') placement.x.align = hAlign === 'inside' ? 'left' : 'right';
  if (vAlign === 'center' || vAlign === 'bottom' || vAlign === 'top') placement.y.align = vAlign;
  else if (vAlign === 'inside' || vAlign === 'outside') placement.y.align = vAlign === 'inside' ? 'top' : 'bottom';
  const polygon = wrap === 'square' ? wrapPolygon(child(wrapElement, 'wp:wrapPolygon')) : undefined;
  if (polygon) placement.polygon = polygon;
  return placement;
}

/** wp:wrapPolygon's points (wp:start, wp:lineTo) in 21600ths of the object's extent (§20.4.2.17). */
function wrapPolygon(element: XmlElement | undefined): { x: number; y: number }[] | undefined {
  if (element === undefined) return undefined;
  const points: { x: number; y: number }[] = [];
  for (const point of element.children) {
    if (point.name !== 'wp:start' && point.name !== 'wp:lineTo') continue;
    const x = Number(point.attributes.x) / 21600;
    const y = Number(point.attributes.y) / 21600;
    if (Number.isFinite(x) && Number.isFinite(y)) points.push({ x, y });
    if (points.length >= 1024) break;
  }
  return points.length >= 3 ? points : undefined;
}

/** Shapes met while reading one w:drawing: collected into one DrawingInline in their group's frame. */
interface ShapeSink {
  shapes: Shape[];
  frame: ShapeFrame;
  floating: FloatingPlacement | undefined;
}

function styleContext(story: StoryContext): DrawingStyleContext {
  return { colors: story.doc.colors, fonts: story.doc.themeFonts };
}

function emitDrawing(
  builder: ParagraphBuilder,
  props: RunProperties,
  scope: InlineScope,
  drawing: Drawing,
  width: number,
  height: number,
  floating: FloatingPlacement | undefined,
): void {
  const inline: DrawingInline = { kind: 'drawing', width, height, drawing, props };
  if (floating) inline.floating = floating;
  if (scope.revision) inline.revision = scope.revision;
  if (scope.link) inline.link = scope.link;
  emit(builder, inline);
}

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
  sink: ShapeSink,
): void {
  switch (content.name) {
    case 'pic:pic':
      // Inline pictures stay ImageInline; floating ones and pictures in groups are picture shapes.
      if (sink.floating || frame.inGroup) {
        const picture = pictureShape(content, builder.story, sink.frame, frame);
        if (picture) sink.shapes.push(picture);
      } else emitPicture(content, builder, props, scope, frame);
      return;
    case 'wps:wsp':
      sink.shapes.push(
        readWordShape(content, builder.story, styleContext(builder.story), sink.frame, {
          width: frame.width,
          height: frame.height,
        }),
      );
      return;
    case 'wpg:wgp':
    case 'wpg:grpSp':
    case 'wpc:wpc':
    case 'wpc:wpg':
      readGroup(content, builder, props, scope, frame, sink);
      return;
    case 'mc:AlternateContent': {
      const branch = chooseAlternative(content);
      for (const inner of branch?.children ?? []) readGraphic(inner, builder, props, scope, frame, sink);
      return;
    }
    case 'c:chart': {
      const chart = readChartPart(content, builder.story, props);
      if (chart) emitDrawing(builder, props, scope, chart, frame.width, frame.height, sink.floating);
      return;
    }
    case 'dgm:relIds': {
      const diagram = readDiagramPart(content, builder.story, props);
      if (diagram) emitDrawing(builder, props, scope, diagram, frame.width, frame.height, sink.floating);
      return;
    }
    default:
      if (content.name.startsWith('a:') || content.name.endsWith(':wpc') || content.name === 'wpc:bg') return;
      builder.story.doc.warn(`Drawings of type ${content.name} are not drawn yet; they are left out.`);
  }
}

/**
 * A picture's blip (pic:blipFill/a:blip), also where Word for Mac wrapped the fill in
 * mc:AlternateContent (a PDF for Mac Word 2011, ma, and a PNG fallback for everyone else).
 */
function pictureBlip(pic: XmlElement): XmlElement | undefined {
  const fill = child(pic, 'pic:blipFill') ?? effectiveChildren(pic).find((e) => e.name === 'pic:blipFill');
  return child(fill, 'a:blip');
}

/** A picture as a shape of its drawing: its own box inside a group, else the whole drawing. */
function pictureShape(pic: XmlElement, story: StoryContext, shapeFrame: ShapeFrame, frame: Frame): Shape | undefined {
  const embed = pictureBlip(pic)?.attributes['r:embed'];
  if (!embed) return undefined;
  const imageId = resolveImage(story, embed);
  if (imageId === undefined) return undefined;
  const xfrm = child(child(pic, 'pic:spPr'), 'a:xfrm');
  const box = frame.inGroup
    ? transformBox(xfrm, shapeFrame, { width: frame.width, height: frame.height })
    : { x: 0, y: 0, width: frame.width, height: frame.height, rotation: 0, flipH: false, flipV: false };
  return { geometry: 'rect', ...box, imageId };
}

function emitPicture(
  pic: XmlElement,
  builder: ParagraphBuilder,
  props: RunProperties,
  scope: InlineScope,
  frame: Frame,
): void {
  const blip = pictureBlip(pic);
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
  sink: ShapeSink,
): void {
  const xfrm = child(child(group, 'wpg:grpSpPr'), 'a:xfrm');
  const off = child(xfrm, 'a:off');
  const ext = child(xfrm, 'a:ext');
  const childOff = child(xfrm, 'a:chOff');
  const childExt = child(xfrm, 'a:chExt');
  let scaleX = frame.scaleX;
  let scaleY = frame.scaleY;
  const cx = Number(ext?.attributes.cx);
  const cy = Number(ext?.attributes.cy);
  const chx = Number(childExt?.attributes.cx);
  const chy = Number(childExt?.attributes.cy);
  const groupScaleX = cx > 0 && chx > 0 ? cx / chx : 1;
  const groupScaleY = cy > 0 && chy > 0 ? cy / chy : 1;
  scaleX *= groupScaleX;
  scaleY *= groupScaleY;
  const inner: Frame = { ...frame, scaleX, scaleY, inGroup: true, description: undefined };
  // Members are in the group's child coordinates (§20.1.7.6 a:xfrm chOff/chExt): the group's own
  // offset is in its parent's, so the outermost group sits at the drawing's origin.
  const outer = sink.frame;
  const nested = group.name === 'wpg:grpSp';
  const originX = nested ? outer.x + (emu(off?.attributes.x) ?? 0) * outer.scaleX : 0;
  const originY = nested ? outer.y + (emu(off?.attributes.y) ?? 0) * outer.scaleY : 0;
  const innerFrame: ShapeFrame = {
    scaleX: outer.scaleX * groupScaleX,
    scaleY: outer.scaleY * groupScaleY,
    x: originX - (emu(childOff?.attributes.x) ?? 0) * outer.scaleX * groupScaleX,
    y: originY - (emu(childOff?.attributes.y) ?? 0) * outer.scaleY * groupScaleY,
  };
  const innerSink: ShapeSink = { ...sink, frame: innerFrame };
  for (const member of group.children) {
    if (member.name === 'wpg:grpSpPr' || member.name === 'wpg:cNvGrpSpPr') continue;
    readGraphic(member, builder, props, scope, inner, innerSink);
  }
}

/** The part a drawing element's relationship (r:id) names in this story, read as XML; warns and gives undefined. */
function relatedXml(story: StoryContext, id: string | undefined, what: string): XmlElement | undefined {
  const doc = story.doc;
  const relationship = id ? story.relationships.find((candidate) => candidate.id === id) : undefined;
  if (relationship === undefined || relationship.external) {
    doc.warn(
      `A ${what} refers to a relationship (${id ?? 'none'}) that ${story.partName} does not have; it is left out.`,
    );
    return undefined;
  }
  try {
    const root = doc.pkg.readXml(relationship.target);
    if (root === undefined) doc.warn(`The ${what} part ${relationship.target} is missing; it is left out.`);
    return root;
  } catch (error) {
    if (!(error instanceof PartError) || error.fatal) throw error;
    doc.warn(`${error.message} The ${what} is left out.`);
    return undefined;
  }
}

/** A chart (c:chart r:id → the chart part, §21.2.2.27). */
function readChartPart(element: XmlElement, story: StoryContext, props: RunProperties): Drawing | undefined {
  const root = relatedXml(story, element.attributes['r:id'], 'chart');
  if (root === undefined) return undefined;
  try {
    return { kind: 'chart', chart: readChart(root, styleContext(story), props) };
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    story.doc.warn(`A chart part cannot be read (${error.message}); the chart is left out.`);
    return undefined;
  }
}

/**
 * SmartArt (dgm:relIds, §21.4): Word keeps the diagram drawn as shapes in a diagramDrawing part
 * (Office 2010+), named by the data part's dsp:dataModelExt relId. That drawing is what is shown.
 */
function readDiagramPart(element: XmlElement, story: StoryContext, props: RunProperties): Drawing | undefined {
  const data = relatedXml(story, element.attributes['r:dm'], 'SmartArt diagram');
  if (data === undefined) return undefined;
  const drawingId = findAttribute(data, 'relId');
  const drawingRelationship = story.relationships.find((r) => r.id === drawingId) ?? undefined;
  if (drawingRelationship === undefined || relationshipKind(drawingRelationship) !== 'diagramDrawing') {
    story.doc.warn('A SmartArt diagram has no pre-drawn version (a diagramDrawing part); it is left out.');
    return undefined;
  }
  const drawing = relatedXml(story, drawingRelationship.id, 'SmartArt drawing');
  const tree = child(drawing, 'dsp:spTree');
  if (tree === undefined) return undefined;
  const context = styleContext(story);
  const base = {
    paragraph: story.doc.cascade.paragraphProperties({}, undefined),
    // The fallbacks over the run's own formatting, its unset fields (script fonts, colour…) kept.
    run: {
      ...props,
      ...setFields(story.doc.cascade.toRunProperties({})),
      font: story.doc.themeFonts.minor.latin ?? props.font,
    },
  };
  const shapes: Shape[] = [];
  const walk = (group: XmlElement) => {
    for (const member of group.children) {
      if (member.name === 'dsp:sp') shapes.push(readDiagramShape(member, context, IDENTITY_FRAME, base));
      else if (member.name === 'dsp:grpSp') walk(member);
    }
  };
  walk(tree);
  return shapes.length > 0 ? { kind: 'shapes', shapes } : undefined;
}

/** The first value of an attribute anywhere under `element` (depth-first), bounded by the tree. */
function findAttribute(element: XmlElement, name: string): string | undefined {
  const value = element.attributes[name];
  if (value !== undefined) return value;
  for (const inner of element.children) {
    const found = findAttribute(inner, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * VML pictures and text boxes (w:pict, w:object): v:imagedata's r:id is the picture, sized by the
 * shape's CSS-like style (width:…;height:…); v:textbox/w:txbxContent holds a text box.
 */
export function readVml(
  pict: XmlElement,
  builder: ParagraphBuilder,
  props: RunProperties,
  scope: InlineScope,
  inGroup = false,
) {
  for (const shape of pict.children) {
    if (shape.name === 'w:drawing') {
      readDrawing(shape, builder, props, scope);
      continue;
    }
    if (!shape.name.startsWith('v:')) continue;
    if (shape.name === 'v:group') {
      // Members of a VML group are in its coordinate space (coordsize): only their content is kept.
      readVml(shape, builder, props, scope, true);
      continue;
    }
    const vmlDrawing = inGroup ? undefined : readVmlShape(shape, builder.story);
    if (vmlDrawing) {
      const { shape: drawn, width, height, floating } = vmlDrawing;
      emitDrawing(builder, props, scope, { kind: 'shapes', shapes: [drawn] }, width, height, floating);
      continue;
    }
    const imageData = child(shape, 'v:imagedata');
    const relationship = imageData?.attributes['r:id'] ?? imageData?.attributes['r:pict'];
    if (imageData !== undefined && relationship) {
      const imageId = resolveImage(builder.story, relationship);
      if (imageId !== undefined) {
        const style = parseStyle(shape.attributes.style);
        const declarations = cssDeclarations(shape.attributes.style);
        if (!inGroup && declarations.get('position') === 'absolute') {
          // An absolutely positioned picture (a watermark, a logo placed on the page) floats like a
          // wp:anchor picture: it takes no room in its line, which a page-sized watermark in a
          // header would otherwise make taller than the page, leaving the body no room at all.
          const width = style.width ?? 0;
          const height = style.height ?? 0;
          const picture: Shape = {
            geometry: 'rect',
            x: 0,
            y: 0,
            width,
            height,
            rotation: 0,
            flipH: false,
            flipV: false,
            imageId,
          };
          const floating = vmlPlacement(declarations, shape, builder.story);
          emitDrawing(builder, props, scope, { kind: 'shapes', shapes: [picture] }, width, height, floating);
        } else {
          const description = imageData.attributes['o:title'] || shape.attributes.alt || undefined;
          emitImage(builder, props, scope, imageId, style.width ?? 0, style.height ?? 0, description);
        }
      }
    }
    const content = child(child(shape, 'v:textbox'), 'w:txbxContent');
    if (content !== undefined) appendTextBox(content, builder, props);
    // WordArt inside a group keeps its text, as the group's text boxes do.
    const art = inGroup ? wordArtText(shape) : '';
    if (art.trim() !== '') {
      art.split('\n').forEach((line, i) => {
        if (i > 0) builder.inlines.push({ kind: 'break', type: 'line', props });
        if (line !== '') append(builder.inlines, { kind: 'text', text: line, props });
      });
    }
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
  const blocks = builder.story.doc.readBlocks(content, builder.story, undefined).blocks;
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

/**
 * A picture bullet's image (w:numPicBullet, §17.9.20: a VML v:shape with v:imagedata, or a
 * w:drawing), resolved through the numbering part's relationships, with its size in points.
 */
export function pictureBullet(
  story: StoryContext,
  bullet: XmlElement,
): { imageId: string; width: number; height: number } | undefined {
  const find = (element: XmlElement): XmlElement | undefined => {
    if (element.name === 'v:imagedata' || element.name === 'a:blip') return element;
    for (const inner of element.children) {
      const found = find(inner);
      if (found) return found;
    }
    return undefined;
  };
  const image = find(bullet);
  const id = image?.attributes['r:id'] ?? image?.attributes['r:embed'];
  if (!image || !id) return undefined;
  const imageId = resolveImage(story, id);
  if (imageId === undefined) return undefined;
  const shape = bullet.children.find((c) => c.name === 'w:pict')?.children.find((c) => c.name === 'v:shape');
  const style = parseStyle(shape?.attributes.style);
  const resource = story.doc.images[imageId];
  const width = style.width ?? (resource ? resource.pixelWidth * 0.75 : 12);
  const height = style.height ?? (resource ? resource.pixelHeight * 0.75 : 12);
  return { imageId, width, height };
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
  const checked = checkImage(bytes, doc.checkedPngs.get(bytes), doc.pixelBudget);
  if ('problem' in checked) {
    doc.warn(`The picture ${partName} is left out: ${checked.problem}.`);
    doc.imageIds.set(partName, null);
    return undefined;
  }
  if ('picture' in checked) {
    for (const warning of checked.warnings) doc.warn(`The picture ${partName}: ${warning}.`);
    doc.pictures[partName] = checked.picture;
  } else doc.images[partName] = checked.image;
  doc.imageIds.set(partName, partName);
  return partName;
}

/** width/height from a VML style attribute ("width:120pt;height:3.5in"), in points. */
export function parseStyle(style: string | undefined): { width?: number; height?: number } {
  const declarations = cssDeclarations(style);
  const out: { width?: number; height?: number } = {};
  for (const property of ['width', 'height'] as const) {
    const value = cssLength(declarations.get(property));
    if (value !== undefined && value > 0) out[property] = value;
  }
  return out;
}

/**
 * The fields of `value` that are set. Run properties carry every field, unset ones undefined
 * (toRunProperties), and spreading those would unset the same fields of what they go over.
 */
function setFields<T extends object>(value: T): Partial<T> {
  const set: Partial<T> = {};
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] !== undefined) set[key] = value[key];
  return set;
}
