/**
 * Reading an encrypted PDF that opens without a password (ISO 32000-1 §7.6.3, the Standard
 * security handler, revisions 2–4: RC4 and AESV2), far enough for the verifier: the object
 * streams (§7.5.7), where a form and its signature fields often sit, are decrypted up front,
 * because the cross-reference reader is synchronous and WebCrypto is not. Strings in plain objects
 * stay as written (a signature's /Contents is never encrypted, §7.6.2). A user password, an
 * unknown handler or revision 5–6 (AES-256) leaves the file as it is, with a problem saying so.
 */
import { concatBytes } from '../../kit';
import { ObjectReader } from './object-reader';
import { stringBytes } from './pdf-string';
import type { PdfValue } from './pdf-syntax';
import type { RevisionScan } from './revision-types';

/** The password padding string (§7.6.3.3, Algorithm 2 step a). */
const PADDING = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00,
  0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

/** Object streams decrypted at most (each is also bounded by the inflate budget later). */
const MAX_STREAMS = 10_000;

export interface Decryption {
  /** Decrypted stream data by the file offset of the stored (encrypted) data. */
  streams: Map<number, Uint8Array>;
  problems: string[];
}

type Cipher = 'RC4' | 'AESV2' | 'None';

async function md5(...parts: Uint8Array[]): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('MD5', concatBytes(parts)));
}

/** RC4 (the cipher §7.6.2 Algorithm 1 names for V 1–2 and /CFM /V2); symmetric. */
export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + (s[i] as number) + (key[i % key.length] as number)) & 0xff;
    [s[i], s[j]] = [s[j] as number, s[i] as number];
  }
  const out = new Uint8Array(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + (s[i] as number)) & 0xff;
    [s[i], s[j]] = [s[j] as number, s[i] as number];
    out[n] = (data[n] as number) ^ (s[((s[i] as number) + (s[j] as number)) & 0xff] as number);
  }
  return out;
}

function numberOf(value: PdfValue | undefined): number | undefined {
  return value?.kind === 'number' ? value.value : undefined;
}

function nameOf(value: PdfValue | undefined): string | undefined {
  return value?.kind === 'name' ? value.value : undefined;
}

/** The stream cipher of a V 4 handler (§7.6.5, Table 25 /CFM), or of V 1–2 (RC4). */
function streamCipher(entries: Map<string, PdfValue>, reader: ObjectReader, index: number): Cipher | undefined {
  const v = numberOf(entries.get('V')) ?? 0;
  if (v === 1 || v === 2) return 'RC4';
  if (v !== 4) return undefined;
  const name = nameOf(entries.get('StmF')) ?? 'Identity';
  if (name === 'Identity') return 'None';
  const filter = reader.dictAt(reader.dictAt(entries.get('CF'), index)?.entries.get(name), index);
  const cfm = nameOf(filter?.entries.get('CFM'));
  if (cfm === 'AESV2') return 'AESV2';
  if (cfm === 'V2') return 'RC4';
  if (cfm === 'None') return 'None';
  return undefined;
}

/**
 * The file key for the empty user password (§7.6.3.3 Algorithm 2), checked against /U
 * (Algorithms 4 and 5); undefined when the file needs a password.
 */
async function fileKey(
  entries: Map<string, PdfValue>,
  buffer: Uint8Array,
  id: Uint8Array,
): Promise<Uint8Array | undefined> {
  const r = numberOf(entries.get('R')) ?? 0;
  const o = entries.get('O');
  const u = entries.get('U');
  const p = numberOf(entries.get('P'));
  if (o?.kind !== 'string' || u?.kind !== 'string' || p === undefined) return undefined;
  const owner = stringBytes(o, buffer).subarray(0, 32);
  const user = stringBytes(u, buffer);
  const length = r === 2 ? 5 : Math.min(16, Math.max(5, (numberOf(entries.get('Length')) ?? 40) / 8));
  const permissions = new Uint8Array(4);
  new DataView(permissions.buffer).setInt32(0, p | 0, true);
  const encryptMetadata = entries.get('EncryptMetadata');
  const noMetadata =
    r >= 4 && encryptMetadata?.kind === 'keyword' && encryptMetadata.value === 'false'
      ? [Uint8Array.from([0xff, 0xff, 0xff, 0xff])]
      : [];
  let key = (await md5(PADDING, owner, permissions, id, ...noMetadata)).subarray(0, length);
  if (r >= 3) for (let i = 0; i < 50; i++) key = (await md5(key)).subarray(0, length);
  // The empty password opens the file when /U is what it would compute (Algorithms 4, 5).
  let expected: Uint8Array;
  if (r === 2) expected = rc4(key, PADDING);
  else {
    expected = rc4(key, await md5(PADDING, id));
    for (let i = 1; i <= 19; i++)
      expected = rc4(
        key.map((byte) => byte ^ i),
        expected,
      );
  }
  const compared = r === 2 ? 32 : 16;
  for (let i = 0; i < compared; i++) if (expected[i] !== user[i]) return undefined;
  return key;
}

/** The per-object key (§7.6.2 Algorithm 1): the file key, the object and generation numbers, and "sAlT" for AES. */
async function objectKey(key: Uint8Array, num: number, gen: number, cipher: Cipher): Promise<Uint8Array> {
  const extra = Uint8Array.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff]);
  const salt = cipher === 'AESV2' ? Uint8Array.from([0x73, 0x41, 0x6c, 0x54]) : new Uint8Array();
  return (await md5(key, extra, salt)).subarray(0, Math.min(key.length + 5, 16));
}

async function decrypt(cipher: Cipher, key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  if (cipher === 'None') return data;
  if (cipher === 'RC4') return rc4(key, data);
  // AESV2: AES-128-CBC, the first 16 bytes are the IV, PKCS#5 padding (§7.6.2).
  if (data.length < 32 || data.length % 16 !== 0) throw new Error('the AES data is not whole blocks');
  const aes = await crypto.subtle.importKey('raw', key, 'AES-CBC', false, ['decrypt']);
  return new Uint8Array(
    await crypto.subtle.decrypt({ name: 'AES-CBC', iv: data.subarray(0, 16) }, aes, data.subarray(16)),
  );
}

/**
 * The decrypted data of every object stream a revision's cross-reference points into, for an
 * encrypted file that opens without a password. Never throws.
 */
export async function decryptObjectStreams(pdf: Uint8Array, scan: RevisionScan): Promise<Decryption> {
  const result: Decryption = { streams: new Map(), problems: [] };
  const last = scan.revisions.length - 1;
  const revision = scan.revisions[last];
  if (!revision?.encrypt) return result;
  try {
    const reader = new ObjectReader(pdf, scan);
    const handler = reader.dictAt(revision.encrypt, last);
    if (!handler) {
      result.problems.push('the encryption dictionary cannot be read');
      return result;
    }
    const filter = nameOf(handler.entries.get('Filter'));
    const r = numberOf(handler.entries.get('R')) ?? 0;
    const cipher = streamCipher(handler.entries, reader, last);
    if (filter !== 'Standard' || r < 2 || r > 4 || !cipher) {
      result.problems.push(`the encryption (${filter ?? 'no filter'}, revision ${r}) is not one Quire can open`);
      return result;
    }
    const key = revision.id && (await fileKey(handler.entries, handler.buffer ?? pdf, revision.id));
    if (!key) {
      result.problems.push('the document needs a password to be decrypted');
      return result;
    }
    // Each object stream as each revision's entries see it (a later revision may replace it).
    const streams = new Map<string, [number, number]>();
    scan.revisions.forEach((each, index) => {
      for (const entry of each.entries.values()) {
        if (entry.kind === 'compressed' && streams.size < MAX_STREAMS) {
          streams.set(`${entry.streamObject}@${index}`, [entry.streamObject, index]);
        }
      }
    });
    for (const [num, index] of streams.values()) {
      const state = reader.read(num, index);
      if (state.kind !== 'object' || !state.streamData || state.buffer !== pdf) continue;
      const offset = state.streamData.byteOffset - pdf.byteOffset;
      if (result.streams.has(offset)) continue;
      try {
        // Object streams have generation 0 (§7.5.7).
        result.streams.set(offset, await decrypt(cipher, await objectKey(key, num, 0, cipher), state.streamData));
      } catch (error) {
        result.problems.push(`object stream ${num} cannot be decrypted: ${(error as Error).message}`);
      }
    }
  } catch (error) {
    result.problems.push(`the document cannot be decrypted: ${(error as Error).message}`);
  }
  return result;
}

/** The scan with the object streams decrypted when the file is encrypted (and opens); else as it was. */
export async function withDecryptedStreams(
  pdf: Uint8Array,
  scan: RevisionScan,
): Promise<{ scan: RevisionScan; problems: string[] }> {
  if (!scan.revisions.at(-1)?.encrypt) return { scan, problems: [] };
  const decryption = await decryptObjectStreams(pdf, scan);
  return { scan: { ...scan, decryptedStreams: decryption.streams }, problems: decryption.problems };
}
