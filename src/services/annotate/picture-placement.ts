/**
 * Placing a prepared picture in a part: the image becomes a new media part next to the part
 * (…/media/), related from the part (Part 2 §9.3, image relationship, §15.2.14 of Part 1), its
 * extension given a content type Default if it has none (Part 2 §10.1.2.2), and the run holding
 * the inline drawing (§20.4.2.8 wp:inline) comes from the picture helper's markup.
 */
import type { PictureDimensions, PreparedPicture } from './annotate-types';
import { type Document, type Element, importFragment, WP_NS } from './ooxml-dom';
import type { PackageEditor } from './package-editor';
import type { pictureExtentEmu } from './picture-extent';
import type { PictureXmlOptions } from './picture-xml';
import { newRun } from './run-content';

const IMAGE_RELATIONSHIP = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';

export interface PicturePlacementDeps {
  pictureXml: (p: PictureXmlOptions) => string;
  pictureExtentEmu: typeof pictureExtentEmu;
}

export interface PicturePlacement {
  editor: PackageEditor;
  deps: PicturePlacementDeps;
  /** A wp:docPr id (§20.4.2.5) not yet used in the document. */
  nextDocPrId: () => number;
  maxWidthEmu: number;
}

export function pictureRun(
  placement: PicturePlacement,
  partName: string,
  document: Document,
  picture: PreparedPicture,
  request: {
    dimensions: PictureDimensions | undefined;
    placeholder: { widthEmu: number; heightEmu: number } | undefined;
    name: string;
  },
): Element {
  const { editor, deps } = placement;
  const folder = partName.slice(0, partName.lastIndexOf('/') + 1);
  const mediaName = editor.addPart(`${folder}media/quire-image.${picture.media.extension}`, picture.media.bytes);
  editor.ensureDefaultContentType(picture.media.extension, picture.media.contentType);
  const relId = editor.addRelationship(partName, IMAGE_RELATIONSHIP, mediaName.slice(folder.length));
  let svgRelId: string | undefined;
  if (picture.svg) {
    const svgName = editor.addPart(`${folder}media/quire-image.svg`, picture.svg);
    editor.ensureDefaultContentType('svg', 'image/svg+xml');
    svgRelId = editor.addRelationship(partName, IMAGE_RELATIONSHIP, svgName.slice(folder.length));
  }
  const extent = deps.pictureExtentEmu(picture, request.dimensions, request.placeholder, placement.maxWidthEmu);
  const xml = deps.pictureXml({
    relId,
    ...(svgRelId !== undefined ? { svgRelId } : {}),
    widthEmu: extent.widthEmu,
    heightEmu: extent.heightEmu,
    docPrId: placement.nextDocPrId(),
    name: request.name,
  });
  const run = newRun(document, undefined);
  for (const element of importFragment(document, xml)) run.appendChild(element);
  return run;
}

/** The size of an existing picture in `root` (its wp:extent, §20.4.2.7), if any. */
export function existingExtent(root: Element | undefined): { widthEmu: number; heightEmu: number } | undefined {
  if (!root) return undefined;
  const extent = root.getElementsByTagNameNS(WP_NS, 'extent')[0];
  const width = Number(extent?.getAttribute('cx'));
  const height = Number(extent?.getAttribute('cy'));
  return width > 0 && height > 0 ? { widthEmu: width, heightEmu: height } : undefined;
}

/** The largest wp:docPr id in the documents, so new drawings get fresh ones. */
export function maxDocPrId(documents: Iterable<Document>): number {
  let max = 0;
  for (const document of documents) {
    const all = document.getElementsByTagNameNS(WP_NS, 'docPr');
    for (let index = 0; index < all.length; index++) {
      const id = Number(all[index]?.getAttribute('id'));
      if (Number.isFinite(id) && id > max) max = id;
    }
  }
  return max;
}
