/**
 * The inline drawing a picture field becomes: `<w:drawing><wp:inline>…<pic:pic>…</w:drawing>`
 * (ECMA-376 Part 1 §20.4.2.8 inline, §20.2.2.5 pic, §20.1.2.2.x DrawingML). The part it goes into
 * may declare none of the DrawingML prefixes (a template with no picture declares only w: for
 * sure), so every prefix is declared on the element that first uses it: wp on wp:inline, a on
 * the elements of the main namespace at the top of their subtree, pic on pic:pic, r on a:blip,
 * asvg on asvg:svgBlip. Redundant declarations of a prefix the part already binds to the same URI
 * change nothing (Namespaces in XML 1.0 §6.1).
 */
import { escapeAttribute } from '../../engine';

const NS = {
  wp: 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  pic: 'http://schemas.openxmlformats.org/drawingml/2006/picture',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  asvg: 'http://schemas.microsoft.com/office/drawing/2016/SVG/main',
} as const;

/** The a:ext of a:blip that points Word 2016+ to the SVG original ([MS-ODRAWXML] §2.3.1.33). */
const SVG_BLIP_EXTENSION = '{96DAC541-7B7A-43D3-8B79-37D633B846F1}';

export interface PictureXmlOptions {
  /** Relationship id of the raster (PNG/JPEG/GIF/BMP) image part: a:blip/@r:embed. */
  relId: string;
  /** Relationship id of the SVG image part, when the picture is an SVG with a PNG fallback. */
  svgRelId?: string;
  widthEmu: number;
  heightEmu: number;
  /** wp:docPr/@id: unique among the document's drawings (§20.4.2.5). */
  docPrId: number;
  name: string;
  /** wp:docPr/@descr: the alternative text. */
  description?: string;
}

export function pictureXml(p: PictureXmlOptions): string {
  const cx = Math.max(1, Math.round(p.widthEmu));
  const cy = Math.max(1, Math.round(p.heightEmu));
  const name = escapeAttribute(p.name);
  const descr = p.description === undefined ? '' : ` descr="${escapeAttribute(p.description)}"`;
  const svg =
    p.svgRelId === undefined
      ? ''
      : `<a:extLst><a:ext uri="${SVG_BLIP_EXTENSION}"><asvg:svgBlip xmlns:asvg="${NS.asvg}" r:embed="${escapeAttribute(p.svgRelId)}"/></a:ext></a:extLst>`;
  return (
    `<w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0" xmlns:wp="${NS.wp}">` +
    `<wp:extent cx="${cx}" cy="${cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/>` +
    `<wp:docPr id="${Math.trunc(p.docPrId)}" name="${name}"${descr}/>` +
    `<wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="${NS.a}" noChangeAspect="1"/></wp:cNvGraphicFramePr>` +
    `<a:graphic xmlns:a="${NS.a}"><a:graphicData uri="${NS.pic}"><pic:pic xmlns:pic="${NS.pic}">` +
    // cNvPr id 0, as Word writes it: the drawing's identity is wp:docPr's.
    `<pic:nvPicPr><pic:cNvPr id="0" name="${name}"${descr}/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip xmlns:r="${NS.r}" r:embed="${escapeAttribute(p.relId)}">${svg}</a:blip>` +
    '<a:stretch><a:fillRect/></a:stretch></pic:blipFill>' +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm>` +
    '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>' +
    '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>'
  );
}
