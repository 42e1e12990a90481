/**
 * EMF and WMF files built record by record for tests ([MS-EMF] §2.3, [MS-WMF] §2.3): each helper
 * writes one record with a DataView, `emf`/`wmf` add the header and the end-of-file record.
 */

function bytesOf(size: number, write: (view: DataView) => void): Uint8Array {
  const out = new Uint8Array(size);
  write(new DataView(out.buffer));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// ---- EMF -------------------------------------------------------------------------------------

/** An EMF record of 32-bit integers after type and size. */
export function emr(type: number, values: number[]): Uint8Array {
  return bytesOf(8 + values.length * 4, (view) => {
    view.setUint32(0, type, true);
    view.setUint32(4, 8 + values.length * 4, true);
    values.forEach((v, i) => {
      view.setInt32(8 + 4 * i, v, true);
    });
  });
}

/** EMR_MODIFYWORLDTRANSFORM / EMR_SETWORLDTRANSFORM with an XFORM of floats. */
export function emrTransform(type: 35 | 36, xform: number[], mode = 4): Uint8Array {
  return bytesOf(type === 36 ? 36 : 32, (view) => {
    view.setUint32(0, type, true);
    view.setUint32(4, type === 36 ? 36 : 32, true);
    xform.forEach((v, i) => {
      view.setFloat32(8 + 4 * i, v, true);
    });
    if (type === 36) view.setUint32(32, mode, true);
  });
}

/** EMR_EXTCREATEFONTINDIRECTW with a LogFont. */
export function emrFont(handle: number, height: number, face: string, weight = 400, italic = false): Uint8Array {
  return bytesOf(104, (view) => {
    view.setUint32(0, 82, true);
    view.setUint32(4, 104, true);
    view.setUint32(8, handle, true);
    view.setInt32(12, height, true);
    view.setInt32(28, weight, true);
    view.setUint8(32, italic ? 1 : 0);
    for (let i = 0; i < face.length && i < 31; i++) view.setUint16(40 + 2 * i, face.charCodeAt(i), true);
  });
}

/** EMR_EXTTEXTOUTW at (x, y), with a Dx array when `dx` is given. */
export function emrText(x: number, y: number, text: string, dx?: number[]): Uint8Array {
  const offString = 76;
  const stringBytes = Math.ceil((text.length * 2) / 4) * 4;
  const offDx = dx ? offString + stringBytes : 0;
  const size = offString + stringBytes + (dx ? dx.length * 4 : 0);
  return bytesOf(size, (view) => {
    view.setUint32(0, 84, true);
    view.setUint32(4, size, true);
    view.setUint32(24, 1, true); // GM_COMPATIBLE
    view.setInt32(36, x, true);
    view.setInt32(40, y, true);
    view.setUint32(44, text.length, true);
    view.setUint32(48, offString, true);
    view.setUint32(72, offDx, true);
    for (let i = 0; i < text.length; i++) view.setUint16(offString + 2 * i, text.charCodeAt(i), true);
    dx?.forEach((d, i) => {
      view.setInt32(offDx + 4 * i, d, true);
    });
  });
}

/** A 16-bit poly record (EMR_POLYGON16 86, EMR_POLYLINE16 87, …) from flat x, y pairs. */
export function emrPoly16(type: number, points: number[]): Uint8Array {
  const size = 28 + points.length * 2;
  return bytesOf(size, (view) => {
    view.setUint32(0, type, true);
    view.setUint32(4, size, true);
    view.setUint32(24, points.length / 2, true);
    points.forEach((v, i) => {
      view.setInt16(28 + 2 * i, v, true);
    });
  });
}

/**
 * A whole EMF: header with rclFrame in 0.01 mm and a reference device of 100 pixels per inch
 * (szlDevice 1000 px over szlMillimeters 254 mm), then the records and EMR_EOF.
 */
export function emf(framePixels: [number, number], records: Uint8Array[]): Uint8Array {
  const header = bytesOf(108, (view) => {
    view.setUint32(0, 1, true);
    view.setUint32(4, 108, true);
    view.setInt32(16, framePixels[0], true);
    view.setInt32(20, framePixels[1], true);
    view.setInt32(32, Math.round(framePixels[0] * 25.4), true);
    view.setInt32(36, Math.round(framePixels[1] * 25.4), true);
    view.setUint32(40, 0x464d4520, true);
    view.setUint32(44, 0x10000, true);
    view.setInt32(72, 1000, true);
    view.setInt32(76, 1000, true);
    view.setInt32(80, 254, true);
    view.setInt32(84, 254, true);
  });
  const all = concat([header, ...records, emr(14, [0, 16, 20])]);
  new DataView(all.buffer).setUint32(48, all.length, true);
  return all;
}

// ---- WMF -------------------------------------------------------------------------------------

/** A WMF record of 16-bit words after its size and function. */
export function wmr(fn: number, words: number[]): Uint8Array {
  return bytesOf(6 + words.length * 2, (view) => {
    view.setUint32(0, 3 + words.length, true);
    view.setUint16(4, fn, true);
    words.forEach((w, i) => {
      view.setInt16(6 + 2 * i, w, true);
    });
  });
}

/** A colour reference as the two words of a WMF record (0x00BBGGRR). */
export function colourWords(rgb: number): [number, number] {
  const ref = ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >> 16) & 0xff);
  return [ref & 0xffff, ref >>> 16];
}

/** META_CREATEFONTINDIRECT. */
export function wmrFont(height: number, face: string, charset = 0, weight = 400): Uint8Array {
  const faceBytes = Array.from(face, (c) => c.charCodeAt(0));
  faceBytes.push(0);
  if (faceBytes.length % 2) faceBytes.push(0);
  const body = new Uint8Array(18 + faceBytes.length);
  const view = new DataView(body.buffer);
  view.setInt16(0, height, true);
  view.setInt16(8, weight, true);
  body[13] = charset;
  body.set(faceBytes, 18);
  const words: number[] = [];
  for (let i = 0; i < body.length; i += 2) words.push(view.getInt16(i, true));
  return wmr(0x02fb, words);
}

/** META_TEXTOUT (string padded to a word, then y, x). */
export function wmrTextOut(x: number, y: number, text: string): Uint8Array {
  const bytes = Array.from(text, (c) => c.charCodeAt(0));
  if (bytes.length % 2) bytes.push(0);
  const words = [text.length];
  for (let i = 0; i < bytes.length; i += 2) words.push((bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8));
  words.push(y, x);
  return wmr(
    0x0521,
    words.map((w) => (w > 0x7fff ? w - 0x10000 : w)),
  );
}

/** A placeable WMF: bounding box in logical units at `inch` units per inch, META_HEADER, records, META_EOF. */
export function wmf(box: [number, number, number, number], inch: number, records: Uint8Array[]): Uint8Array {
  const placeable = bytesOf(22, (view) => {
    view.setUint32(0, 0x9ac6cdd7, true);
    box.forEach((v, i) => {
      view.setInt16(6 + 2 * i, v, true);
    });
    view.setUint16(14, inch, true);
  });
  const header = bytesOf(18, (view) => {
    view.setUint16(0, 1, true);
    view.setUint16(2, 9, true);
    view.setUint16(4, 0x300, true);
    view.setUint16(10, 8, true); // object table size
  });
  return concat([placeable, header, ...records, wmr(0, [])]);
}
