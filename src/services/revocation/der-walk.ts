/**
 * A minimal DER reader (X.690 §8.1, §10.1: definite lengths, one-octet tags) for walking large
 * structures without building an object per element: a CRL of a national CA lists hundreds of
 * thousands of certificates (RFC 5280 §5.1.2.6), more nodes than asn1js parses by default and
 * more objects than a Worker's memory should hold. Never throws: malformed input is undefined.
 */

export interface Tlv {
  /** The identifier octet (class, constructed bit and tag number, X.690 §8.1.2). */
  tag: number;
  start: number;
  contentStart: number;
  end: number;
}

/** The element starting at `at`, its end within `limit`; undefined when it is not DER that fits. */
export function tlvAt(bytes: Uint8Array, at: number, limit = bytes.length): Tlv | undefined {
  if (at + 2 > limit) return undefined;
  const tag = bytes[at] as number;
  if ((tag & 0x1f) === 0x1f) return undefined;
  const first = bytes[at + 1] as number;
  let length = first;
  let contentStart = at + 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count === 0 || count > 4 || contentStart + count > limit) return undefined;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (bytes[contentStart + i] as number);
    contentStart += count;
  }
  const end = contentStart + length;
  return end <= limit ? { tag, start: at, contentStart, end } : undefined;
}

/** The elements inside a constructed one; undefined when they do not fill it exactly or exceed `max`. */
export function childrenOf(bytes: Uint8Array, parent: Tlv, max = 16): Tlv[] | undefined {
  const out: Tlv[] = [];
  for (let at = parent.contentStart; at < parent.end; ) {
    const child = tlvAt(bytes, at, parent.end);
    if (!child || out.length >= max) return undefined;
    out.push(child);
    at = child.end;
  }
  return out;
}

export function contentOf(bytes: Uint8Array, tlv: Tlv): Uint8Array {
  return bytes.subarray(tlv.contentStart, tlv.end);
}

/** UTCTime (YYMMDDHHMMSSZ, years 1950–2049, RFC 5280 §4.1.2.5.1) or GeneralizedTime (YYYYMMDDHHMMSS[.f]Z). */
export function timeOf(bytes: Uint8Array, tlv: Tlv): Date | undefined {
  const text = new TextDecoder('latin1').decode(contentOf(bytes, tlv));
  const match =
    tlv.tag === 0x17
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?Z$/.exec(text)
      : tlv.tag === 0x18
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(?:\.\d+)?Z$/.exec(text)
        : null;
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match;
  let year = Number(y);
  if (tlv.tag === 0x17) year += year < 50 ? 2000 : 1900;
  const date = new Date(Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0)));
  return Number.isNaN(date.getTime()) ? undefined : date;
}
