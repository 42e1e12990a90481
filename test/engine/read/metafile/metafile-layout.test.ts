import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../../src/engine/fonts/font-set';
import { collectFallbackFaces, collectFontRequests } from '../../../../src/engine/layout/font-requests';
import type { ImageItem, PathItem, TextItem } from '../../../../src/engine/layout/page-items';
import { layoutDocument } from '../../../../src/engine/pages/document-layout';
import { mintKey, withKey } from '../../../helpers/accounts';
import { call } from '../../../helpers/api';
import { buildDocx, type DocxParts } from '../../../helpers/docx-fixture';
import { pdfText } from '../../../helpers/pdf-text';
import { readParts } from '../ooxml/model-queries';
import { colourWords, emf, emr, emrFont, emrText, wmf, wmr, wmrFont, wmrTextOut } from './metafile-fixture';

/** 1000 × 500 logical units, a blue rectangle on the left half and "Sample WMF" in Courier New. */
const WMF = wmf([0, 0, 1000, 500], 1000, [
  wmr(0x020b, [0, 0]),
  wmr(0x020c, [500, 1000]),
  wmr(0x02fc, [0, ...colourWords(0x0000ff), 0]),
  wmr(0x012d, [0]),
  wmr(0x041b, [500, 500, 0, 0]),
  wmrFont(-100, 'Courier New'),
  wmr(0x012d, [1]),
  wmr(0x012e, [24]),
  wmrTextOut(600, 300, 'Sample WMF'),
]);

/** The picture placed 144 pt × 72 pt (VML style), so picture units are 0.144 pt. */
function docxWith(bytes: Uint8Array, name = 'image1.wmf'): DocxParts {
  return {
    document: `<w:body><w:p><w:r><w:pict><v:shape style="width:144pt;height:72pt"><v:imagedata r:id="rIdImg"/></v:shape></w:pict></w:r></w:p></w:body>`,
    relationships: [{ id: 'rIdImg', type: 'image', target: `media/${name}` }],
    extraParts: { [`word/media/${name}`]: bytes },
  };
}

describe('metafile pictures in layout', () => {
  it('draws a WMF into its box: paths scaled, text in the font the metafile names', async () => {
    const model = readParts(docxWith(WMF));
    expect(model.warnings.filter((w) => /picture/i.test(w))).toEqual([]);
    expect(collectFontRequests(model)).toContainEqual({ family: 'Courier New', bold: false, italic: false });
    const fonts = await loadFontSet(collectFontRequests(model), {
      assets: env.ASSETS,
      embedded: [],
      cache: createFontCache(),
    });
    const doc = layoutDocument(model, fonts);
    const items = doc.pages[0]?.items ?? [];
    expect(items.some((i) => i.kind === 'image')).toBe(false);
    const rect = items.find((i): i is PathItem => i.kind === 'path' && i.fill === '0000ff');
    const text = items.find((i): i is TextItem => i.kind === 'text' && i.text === 'Sample WMF');
    const [first] = rect?.commands ?? [];
    const left = first && first.op === 'M' ? first.x : Number.NaN;
    expect(text?.x).toBeCloseTo(left + 600 * 0.144, 1);
    expect(text?.size).toBeCloseTo(14.4, 1);
    expect(doc.fonts[text?.font ?? '']).toBeDefined();
  });

  it('asks for the fallback faces the metafile text needs', () => {
    const picture = emf([100, 100], [emrFont(1, -20, 'Tahoma', 700), emr(37, [1]), emrText(10, 50, 'سلام')]);
    const model = readParts(docxWith(picture, 'image1.emf'));
    expect(collectFallbackFaces(model)).toContainEqual({ script: 'arabic', bold: true });
  });

  it('keeps a bitmap the EMF holds as an image, mirrored when the transform flips it', async () => {
    // A 1 × 1 24-bit DIB via EMR_STRETCHDIBITS into (0, 0)–(100, 100) under a y-flip.
    const info = new Uint8Array(40);
    const view = new DataView(info.buffer);
    view.setUint32(0, 40, true);
    view.setInt32(4, 1, true);
    view.setInt32(8, 1, true);
    view.setUint16(12, 1, true);
    view.setUint16(14, 24, true);
    const record = new Uint8Array(80 + 40 + 4);
    const r = new DataView(record.buffer);
    r.setUint32(0, 81, true);
    r.setUint32(4, record.length, true);
    r.setInt32(24, 0, true);
    r.setInt32(28, 0, true);
    r.setUint32(40, 1, true);
    r.setUint32(44, 1, true);
    r.setUint32(48, 80, true);
    r.setUint32(52, 40, true);
    r.setUint32(56, 120, true);
    r.setUint32(60, 4, true);
    r.setUint32(68, 0x00cc0020, true);
    r.setInt32(72, 100, true);
    r.setInt32(76, 100, true);
    record.set(info, 80);
    record.set([0, 0, 255, 0], 120);
    const flip = new Uint8Array(32);
    const f = new DataView(flip.buffer);
    f.setUint32(0, 35, true);
    f.setUint32(4, 32, true);
    [1, 0, 0, -1, 0, 100].forEach((v, i) => {
      f.setFloat32(8 + 4 * i, v, true);
    });
    const model = readParts(docxWith(emf([100, 100], [flip, record, emr(33, [])]), 'image1.emf'));
    const fonts = await loadFontSet([], { assets: env.ASSETS, embedded: [], cache: createFontCache() });
    const doc = layoutDocument(model, fonts);
    const image = doc.pages[0]?.items.find((i): i is ImageItem => i.kind === 'image');
    expect(image).toMatchObject({ flipY: true, image: 'word/media/image1.emf#0' });
    expect(image?.width).toBeCloseTo(144);
    // Within the conversion's budget the bitmap stays pixels, for the painter to compress natively.
    expect(doc.images['word/media/image1.emf#0']?.format).toBe('pixels');
  });

  it('converts to a PDF whose metafile text is extractable', async () => {
    const form = new FormData();
    form.append('file', new File([buildDocx(docxWith(WMF)) as Uint8Array<ArrayBuffer>], 'pictures.docx'));
    const res = await call('/v1/convert?from=docx&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
    expect(res.status).toBe(200);
    const [text] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('Sample WMF');
  });
});
