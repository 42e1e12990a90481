/** DEFLATE's bit order (RFC 1951 §3.1.1): values packed from the least significant bit up. */
export interface BitWriter {
  bytes: Uint8Array;
  position: number;
  /** Bits not yet written writer, and how many. */
  buffer: number;
  count: number;
}

export function bitWriter(capacity: number): BitWriter {
  return { bytes: new Uint8Array(capacity), position: 0, buffer: 0, count: 0 };
}

/** Appends the `width` (at most 16) low bits of `value`. */
export function writeBits(writer: BitWriter, value: number, width: number): void {
  writer.buffer |= value << writer.count;
  writer.count += width;
  while (writer.count >= 8) {
    writer.bytes[writer.position++] = writer.buffer & 0xff;
    writer.buffer >>>= 8;
    writer.count -= 8;
  }
}

/** The bytes written, the last one padded with zero bits. */
export function flushBits(writer: BitWriter): Uint8Array {
  if (writer.count > 0) writer.bytes[writer.position++] = writer.buffer & 0xff;
  writer.buffer = 0;
  writer.count = 0;
  return writer.bytes.subarray(0, writer.position);
}
