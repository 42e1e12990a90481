import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { pictureXml } from '../../../src/services/annotate/picture-xml';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const WP = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const ASVG = 'http://schemas.microsoft.com/office/drawing/2016/SVG/main';

/** Inside a paragraph of a part that declares w: only, as a template may. */
function parse(drawing: string) {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  }).parseFromString(
    `<w:document xmlns:w="${W}"><w:body><w:p><w:r>${drawing}</w:r></w:p></w:body></w:document>`,
    'text/xml',
  );
  expect(errors).toEqual([]);
  return doc;
}

describe('pictureXml', () => {
  it('is a well-formed inline picture with its extent, declaring its own namespaces', () => {
    const xml = pictureXml({
      relId: 'rId7',
      widthEmu: 1_428_750,
      heightEmu: 476_250,
      docPrId: 12,
      name: 'Signature <A & B>',
      description: 'Signed "by" Jane',
    });
    const doc = parse(xml);
    const extent = doc.getElementsByTagNameNS(WP, 'extent')[0];
    expect(extent?.getAttribute('cx')).toBe('1428750');
    expect(extent?.getAttribute('cy')).toBe('476250');
    const docPr = doc.getElementsByTagNameNS(WP, 'docPr')[0];
    expect(docPr?.getAttribute('id')).toBe('12');
    expect(docPr?.getAttribute('name')).toBe('Signature <A & B>');
    expect(docPr?.getAttribute('descr')).toBe('Signed "by" Jane');
    const blip = doc.getElementsByTagNameNS(A, 'blip')[0];
    expect(blip?.getAttributeNS(R, 'embed')).toBe('rId7');
    expect(doc.getElementsByTagNameNS(ASVG, 'svgBlip').length).toBe(0);
    const ext = doc.getElementsByTagNameNS(A, 'ext')[0];
    expect(ext?.getAttribute('cx')).toBe('1428750');
  });

  it('points to the SVG through the Office 2016 svgBlip extension', () => {
    const doc = parse(
      pictureXml({ relId: 'rId3', svgRelId: 'rId4', widthEmu: 9525, heightEmu: 9525, docPrId: 1, name: 'Logo' }),
    );
    const ext = doc.getElementsByTagNameNS(A, 'ext')[0];
    expect(ext?.getAttribute('uri')).toBe('{96DAC541-7B7A-43D3-8B79-37D633B846F1}');
    const svgBlip = doc.getElementsByTagNameNS(ASVG, 'svgBlip')[0];
    expect(svgBlip?.getAttributeNS(R, 'embed')).toBe('rId4');
    expect(doc.getElementsByTagNameNS(A, 'blip')[0]?.getAttributeNS(R, 'embed')).toBe('rId3');
  });
});
