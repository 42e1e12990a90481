/**
 * A small laid-out document for the painter's tests: two pages, text in two fonts, an external
 * and an internal link, a line, a filled rectangle, a PNG and a two-level outline.
 */
import { zlibSync } from 'fflate';
import type { FontSet } from '../../../../src/engine/fonts/font-face';
import type { TextItem } from '../../../../src/engine/layout/page-items';
import type { LaidOutDocument } from '../../../../src/engine/pages/display-list';

export const BODY = { family: 'Calibri', bold: false, italic: false };
export const HEADING = { family: 'Times New Roman', bold: true, italic: false };

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A 2×2 RGB PNG: red, green / blue, white. */
export function tinyPng(): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, 2);
  view.setUint32(4, 2);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter method, no interlace
  const rows = new Uint8Array([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(rows)),
    chunk('IEND', new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}

export const EXTERNAL_TEXT = 'Visit example.com for more.';
export const BODY_TEXT = 'Quire paints “office” text: naïve café, 1½ ½.';

export function sampleDocument(fonts: FontSet): LaidOutDocument {
  const body = fonts.face(BODY);
  const heading = fonts.face(HEADING);
  const text = (x: number, y: number, t: string, font = body, size = 11, extra: Partial<TextItem> = {}): TextItem => ({
    kind: 'text',
    x,
    y,
    font: font.key,
    size,
    color: '000000',
    text: t,
    ...extra,
  });
  return {
    pages: [
      {
        width: 595.28,
        height: 841.89,
        items: [
          { kind: 'anchor', name: 'intro', y: 60 },
          text(72, 90, 'Chapter 1', heading, 16),
          text(72, 120, BODY_TEXT),
          text(72, 140, EXTERNAL_TEXT, body, 11, { color: '1F4E79' }),
          {
            kind: 'link',
            x: 72,
            y: 140 - body.ascent * 11,
            width: body.measure(EXTERNAL_TEXT) * 11,
            height: (body.ascent + body.descent) * 11,
            target: { url: 'https://example.com' },
          },
          text(72, 160, 'See chapter 2.', body, 11, { characterSpacing: 0.5 }),
          { kind: 'link', x: 72, y: 150, width: 80, height: 14, target: { anchor: 'chapter-2' } },
          { kind: 'line', x1: 72, y1: 170, x2: 523, y2: 170, width: 0.5, color: '808080', dash: [3, 2] },
          { kind: 'rect', x: 72, y: 180, width: 100, height: 20, fill: 'DDEEFF' },
          { kind: 'rect', x: 200, y: 180, width: 50, height: 20, stroke: 'FF0000', strokeWidth: 2 },
          { kind: 'rect', x: 300, y: 180, width: 50, height: 20, fill: '00FF00', stroke: '0000FF' },
          { kind: 'image', x: 72, y: 210, width: 40, height: 40, image: 'img1' },
        ],
      },
      {
        width: 612,
        height: 792,
        items: [
          { kind: 'anchor', name: 'chapter-2', y: 72 },
          text(72, 90, 'Chapter 2', heading, 16),
          text(72, 120, 'The second page.'),
          { kind: 'image', x: 300, y: 300, width: 20, height: 20, image: 'img1' },
        ],
      },
    ],
    outline: [
      { title: 'Chapter 1', level: 0, page: 0, y: 72 },
      { title: 'Section 1.1 – naïve', level: 1, page: 0, y: 110 },
      { title: 'Chapter 2', level: 0, page: 1, y: 72 },
    ],
    metadata: {
      title: 'Painter test',
      author: 'Quire Tests',
      subject: 'Display list to PDF',
      keywords: 'pdf, test',
      created: '2024-05-01T10:00:00Z',
    },
    fonts: { [body.key]: body, [heading.key]: heading },
    images: { img1: { format: 'png', bytes: tinyPng(), pixelWidth: 2, pixelHeight: 2 } },
  };
}
