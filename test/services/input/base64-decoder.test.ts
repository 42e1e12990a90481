import { describe, expect, it } from 'vitest';
import { decodeBase64Document, decodeWithAtob } from '../../../src/services/input/base64-decoder';
import { apiErrorOf, bytesOf, toBase64 } from './helpers';

const LIMIT = 1024 * 1024;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('decodeBase64Document: what decodes', () => {
  it('decodes plain base64', () => {
    const result = decodeBase64Document('aGVsbG8gd29ybGQ=', LIMIT);
    expect(text(result.bytes)).toBe('hello world');
    expect(result.declaredMediaType).toBeUndefined();
  });

  it('decodes every byte value', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(decodeBase64Document(toBase64(all), LIMIT).bytes).toEqual(all);
  });

  it('decodes a data URI and reports its declared media type, lower-cased', () => {
    const result = decodeBase64Document('data:application/pdf;base64,JVBERi0xLjcK', LIMIT);
    expect(text(result.bytes)).toBe('%PDF-1.7\n');
    expect(result.declaredMediaType).toBe('application/pdf');
  });

  it('accepts data URI parameters, any case of the scheme, and an empty media type', () => {
    const withParams = decodeBase64Document('DATA:Application/PDF;name=contract.pdf;BASE64,aGk=', LIMIT);
    expect(text(withParams.bytes)).toBe('hi');
    expect(withParams.declaredMediaType).toBe('application/pdf');
    const bare = decodeBase64Document('data:;base64,aGk=', LIMIT);
    expect(text(bare.bytes)).toBe('hi');
    expect(bare.declaredMediaType).toBeUndefined();
  });

  it('accepts the URL-safe alphabet', () => {
    expect(decodeBase64Document('-_-_', LIMIT).bytes).toEqual(new Uint8Array([0xfb, 0xff, 0xbf]));
    expect(decodeBase64Document('+/+/', LIMIT).bytes).toEqual(new Uint8Array([0xfb, 0xff, 0xbf]));
  });

  it('accepts missing padding', () => {
    expect(text(decodeBase64Document('aGk', LIMIT).bytes)).toBe('hi');
    expect(text(decodeBase64Document('aGVsbG8', LIMIT).bytes)).toBe('hello');
  });

  it('ignores whitespace and line breaks anywhere, also in a data URI', () => {
    const wrapped = '  aGVs\nbG8g\r\n d29y\tbGQ=\n';
    expect(text(decodeBase64Document(wrapped, LIMIT).bytes)).toBe('hello world');
    expect(text(decodeBase64Document(`data:text/plain;base64,${wrapped}`, LIMIT).bytes)).toBe('hello world');
  });

  it('decodes a document exactly at the limit', () => {
    const bytes = new Uint8Array(3000).fill(7);
    expect(decodeBase64Document(toBase64(bytes), 3000).bytes).toEqual(bytes);
  });

  it('has an atob fallback that agrees with the native decoder', () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) % 256);
    expect(decodeWithAtob(toBase64(bytes))).toEqual(bytes);
    expect(decodeWithAtob('aGk')).toEqual(bytesOf('hi'));
  });
});

describe('decodeBase64Document: what is refused', () => {
  it('names the first character outside the alphabet and its position', () => {
    const error = apiErrorOf(() => decodeBase64Document('aGVs!bG8=', LIMIT));
    expect(error.code).toBe('INVALID_BASE64');
    expect(error.message).toContain('document.base64 is not valid base64');
    expect(error.message).toContain('"!" at position 5');
  });

  it('counts positions in the text as sent, data URI prefix included', () => {
    const error = apiErrorOf(() => decodeBase64Document('data:application/pdf;base64,aGk*', LIMIT));
    expect(error.code).toBe('INVALID_BASE64');
    expect(error.message).toContain('"*" at position 32');
  });

  it('shows an invisible character by its code point', () => {
    const error = apiErrorOf(() => decodeBase64Document('aGk\u00a0aGk=', LIMIT));
    expect(error.message).toContain('U+00A0 at position 4');
  });

  it('hints at {"url": …} when a URL was sent as base64', () => {
    const error = apiErrorOf(() => decodeBase64Document('https://example.com/contract.pdf', LIMIT));
    expect(error.code).toBe('INVALID_BASE64');
    expect(error.message).toContain('looks like a URL');
  });

  it('refuses a data URI without ;base64', () => {
    const error = apiErrorOf(() => decodeBase64Document('data:text/plain,hello%20world', LIMIT));
    expect(error.code).toBe('INVALID_BASE64');
    expect(error.message).toContain('data URI without ";base64"');
  });

  it('refuses a data URI without a comma', () => {
    const error = apiErrorOf(() => decodeBase64Document('data:application/pdf;base64', LIMIT));
    expect(error.code).toBe('INVALID_BASE64');
    expect(error.message).toContain('no comma');
  });

  it('refuses empty input', () => {
    for (const empty of ['', '  \n ']) {
      const error = apiErrorOf(() => decodeBase64Document(empty, LIMIT));
      expect(error.code).toBe('INVALID_BASE64');
      expect(error.message).toContain('document.base64 is empty');
    }
    const dataUri = apiErrorOf(() => decodeBase64Document('data:application/pdf;base64,', LIMIT));
    expect(dataUri.code).toBe('INVALID_BASE64');
    expect(dataUri.message).toContain('no data after the comma');
  });

  it('refuses padding in the middle and too much padding', () => {
    const middle = apiErrorOf(() => decodeBase64Document('aGk=aGk=', LIMIT));
    expect(middle.code).toBe('INVALID_BASE64');
    expect(middle.message).toContain('"=" padding at position 4 followed by more data');
    const tooMuch = apiErrorOf(() => decodeBase64Document('aGk===', LIMIT));
    expect(tooMuch.code).toBe('INVALID_BASE64');
    expect(tooMuch.message).toContain('3 "=" characters');
  });

  it('refuses a length that cannot encode whole bytes', () => {
    const error = apiErrorOf(() => decodeBase64Document('aGVsb', LIMIT));
    expect(error.code).toBe('INVALID_BASE64');
    expect(error.message).toContain('5 base64 characters');
  });

  it('names another field when asked to', () => {
    const error = apiErrorOf(() => decodeBase64Document('#', LIMIT, 'data[0].value'));
    expect(error.message).toContain('data[0].value is not valid base64');
  });
});

describe('decodeBase64Document: size limit', () => {
  it('refuses a document over the limit, stating the limit and MAX_DOCUMENT_BYTES', () => {
    const error = apiErrorOf(() => decodeBase64Document(toBase64(new Uint8Array(3001)), 3000));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toContain('decodes to 2.9 KiB (3,001 bytes)');
    expect(error.message).toContain('The limit is 2.9 KiB (3,000 bytes), set by MAX_DOCUMENT_BYTES');
  });

  it('judges the size before reading the data, so a huge string is never decoded', () => {
    // The stray "!" at the end would be an INVALID_BASE64 if the data were looked at first.
    const huge = `${'A'.repeat(8 * 1024 * 1024)}!`;
    const error = apiErrorOf(() => decodeBase64Document(huge, 1024 * 1024));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toContain('6 MiB (6,291,456 bytes)');
  });

  it('does not count whitespace or padding towards the size', () => {
    const bytes = new Uint8Array(30).fill(1);
    const spaced = toBase64(bytes).replace(/(.{4})/g, '$1\n   ');
    expect(decodeBase64Document(spaced, 30).bytes).toEqual(bytes);
    expect(decodeBase64Document('aGk=', 2).bytes).toEqual(bytesOf('hi'));
  });
});
