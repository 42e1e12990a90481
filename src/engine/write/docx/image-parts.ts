/**
 * Pictures as media parts (word/media/imageN.png|jpeg) and their inline drawings (ECMA-376 Part 1
 * §20.4.2.8 wp:inline, §20.2.2.5 pic:pic). Each image of the model becomes one part however often
 * it is placed; decoded pixels are encoded as PNG.
 */

import type { ImageInline, ImageResource } from '../../model';
import { encodePng } from '../../read';
import { toEmu } from './measures';
import { addRelationship, RELATIONSHIP_TYPES } from './package-parts';
import type { MediaParts, PartWriteContext } from './write-context';
import { escapeAttribute } from './xml-escape';

/** The image's bytes as a PNG or JPEG part, and its extension. */
export function encodedImage(image: ImageResource): { bytes: Uint8Array; extension: 'png' | 'jpeg' } {
  if (image.format !== 'pixels') return { bytes: image.bytes, extension: image.format };
  const { pixelWidth: width, pixelHeight: height, rgb, alpha } = image;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = rgb[i * 3] ?? 0;
    data[i * 4 + 1] = rgb[i * 3 + 1] ?? 0;
    data[i * 4 + 2] = rgb[i * 3 + 2] ?? 0;
    data[i * 4 + 3] = alpha ? (alpha[i] ?? 255) : 255;
  }
  return { bytes: encodePng({ width, height, data }), extension: 'png' };
}

/** The media part of an image id (made on first use), or undefined when the model lacks the image. */
export function mediaPartOf(
  media: MediaParts,
  images: Record<string, ImageResource>,
  imageId: string,
): string | undefined {
  const known = media.byImageId.get(imageId);
  if (known !== undefined) return known;
  if (!Object.hasOwn(images, imageId)) return undefined;
  const { bytes, extension } = encodedImage(images[imageId] as ImageResource);
  const name = `word/media/image${media.parts.length + 1}.${extension}`;
  media.parts.push({ name, bytes });
  media.byImageId.set(imageId, name);
  return name;
}

const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const PIC = 'http://schemas.openxmlformats.org/drawingml/2006/picture';

/** `<w:drawing>` for an inline picture, or '' when its image is missing. */
export function drawingXml(inline: ImageInline, part: PartWriteContext): string {
  const doc = part.doc;
  const media = mediaPartOf(doc.media, doc.model.images, inline.imageId);
  if (media === undefined) return '';
  // Targets are relative to the source part's folder (word/).
  const rId = addRelationship(part.relationships, RELATIONSHIP_TYPES.image, media.slice('word/'.length));
  doc.counters.drawing += 1;
  const id = doc.counters.drawing;
  const cx = toEmu(inline.width);
  const cy = toEmu(inline.height);
  const descr = inline.description ? ` descr="${escapeAttribute(inline.description)}"` : '';
  const name = `Picture ${id}`;
  return `<w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="${id}" name="${name}"${descr}/><wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="${A}" noChangeAspect="1"/></wp:cNvGraphicFramePr><a:graphic xmlns:a="${A}"><a:graphicData uri="${PIC}"><pic:pic xmlns:pic="${PIC}"><pic:nvPicPr><pic:cNvPr id="${id}" name="${name}"${descr}/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${rId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>`;
}
