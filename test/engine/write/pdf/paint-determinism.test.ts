import { type PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { FontSet } from '../../../../src/engine/fonts/font-face';
import type { LaidOutDocument } from '../../../../src/engine/pages/display-list';
import { paintPdf } from '../../../../src/engine/write/pdf/paint-pdf';
import { dict, get, pageContentText, shownText, streamText, toUnicodeMap } from '../../../helpers/pdf-inspect';
import { request, testFontSet } from '../../fonts/helpers';

const CAMBRIA = request('Cambria');
// Caladea's ccmp turns "j" before a combining accent (there is no precomposed j-acute) into its
// dotless glyph, also reached directly from U+0237: the glyph fontkit caches remembers whichever
// code point came first, and ToUnicode is written from it.
const TEXT = 'Cj\u0301lj';

function oneLine(fonts: FontSet): LaidOutDocument {
  const face = fonts.face(CAMBRIA);
  return {
    pages: [
      {
        width: 200,
        height: 100,
        items: [{ kind: 'text', x: 10, y: 50, font: face.key, size: 12, color: '000000', text: TEXT }],
      },
    ],
    outline: [],
    metadata: {},
    fonts: { [face.key]: face },
    images: {},
  };
}

async function extractedText(bytes: Uint8Array): Promise<string> {
  const pdf = await PDFDocument.load(bytes);
  const resources = dict(pdf, pdf.getPage(0).node.get(PDFName.of('Resources')));
  const [entry] = dict(pdf, get(pdf, resources, 'Font')).entries();
  const cmap = toUnicodeMap(streamText(pdf, get(pdf, dict(pdf, entry?.[1]) as PDFDict, 'ToUnicode')));
  return shownText(pageContentText(pdf, 0))
    .flatMap(({ codes }) => codes.map((code) => cmap.get(code) ?? '\uFFFD'))
    .join('');
}

describe('paintPdf determinism across conversions', () => {
  it('does not depend on what the isolate measured before', async () => {
    const fresh = await paintPdf(oneLine(await testFontSet([CAMBRIA])));

    const used = await testFontSet([CAMBRIA]);
    used.face(CAMBRIA).measure('\u0237 dotless'); // an earlier conversion's text
    const afterOthers = await paintPdf(oneLine(used));

    expect(afterOthers).toEqual(fresh);
    expect(await extractedText(afterOthers)).toBe(TEXT);
  });
});
