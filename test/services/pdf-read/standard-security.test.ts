import { describe, expect, it } from 'vitest';
import { findRevisions } from '../../../src/services/pdf-read/pdf-revisions';
import { rc4, withDecryptedStreams } from '../../../src/services/pdf-read/standard-security';
import { findSignatureFields } from '../../../src/services/verify/signature-fields';

// One small PDF, made for this test: pdf-lib wrote a signature field "Approval" whose field, widget
// and signature dictionary sit in an object stream; qpdf 11 then encrypted it with the Standard
// handler and an empty user password (owner password "owner"): AESV2 (R 4), RC4 128-bit (R 3,
// --allow-weak-crypto), and AESV2 with the user password "user". An independent encryptor, so
// the decryption is checked against another implementation of ISO 32000-1 §7.6, not itself.
const AES =
  'JVBERi0xLjcKJb/3ov4KMSAwIG9iago8PCAvQWNyb0Zvcm0gPDwgL0ZpZWxkcyBbIDYgMCBSIF0gL1NpZ0ZsYWdzIDMgPj4gL1BhZ2VzIDMgMCBSIC9UeXBlIC9DYXRhbG9nID4+CmVuZG9iagoyIDAgb2JqCjw8IC9UeXBlIC9PYmpTdG0gL0xlbmd0aCAzMjAgL0ZpbHRlciAvRmxhdGVEZWNvZGUgL04gNCAvRmlyc3QgMjEgPj4Kc3RyZWFtCraXaYG1pg+qNrjFnG7bOfIXyTq1iVEiI6n731YR6kmdZ7YY3lHxcqoOaJbVFGpu0rQ15z64eOA7OVbqbcaRNn/4/LCnFmGnVwAwbipcuk24IQ6lm/UqFvi5q19vnq+lYn+dNJBOnyvJFeltoYJOJa6L09f+YVwPod/ONW+eoosqVaWTMPjQqo9ICxrUf1HSxWf+RJi9TNwazGCymz0AZdudmEE2UYQiBsuPxAWnDPi8KsqmlwAjMbhGJEADheGQHX7FrLxcNjXez33D9jaS0SnQVJduMcGvk1Hh0sO+bC9PZ0vnmjpPFambujTh7En9q77a95RZJN7MmuzgW/PZUAAjO1Nv6qLtXu2CV5XkRxRsmFOok/iYAqX1uvkF29V5LW5sRQdfLcLSx8HwWKEesOv+5SOeUjCWb3bQwrQ61DHjZW5kc3RyZWFtCmVuZG9iago3IDAgb2JqCjw8IC9CeXRlUmFuZ2UgWyAwIDEwIDIwIDMwIF0gL0NvbnRlbnRzIDwwMDAwMDAwMDAwMDAwMDAwPiAvRmlsdGVyIC9BZG9iZS5QUEtMaXRlIC9TdWJGaWx0ZXIgL2FkYmUucGtjczcuZGV0YWNoZWQgL1R5cGUgL1NpZyA+PgplbmRvYmoKOCAwIG9iago8PCAvQ0YgPDwgL1N0ZENGIDw8IC9BdXRoRXZlbnQgL0RvY09wZW4gL0NGTSAvQUVTVjIgL0xlbmd0aCAxNiA+PiA+PiAvRmlsdGVyIC9TdGFuZGFyZCAvTGVuZ3RoIDEyOCAvTyA8NTY2ZmE4NzNlZTMzYzc5N2NkM2I5MDRmZGFkZjgxNGFmYTM0ZGY5YTM4ZjZlZDQxYjk4NGUyYzZkYTJhYTZmNT4gL1AgLTQgL1IgNCAvU3RtRiAvU3RkQ0YgL1N0ckYgL1N0ZENGIC9VIDxiOTNiOWI0OTZlZGEzNzgyY2ZlNDhlZTY3Y2EwODdlZjAxMjI0NTZhOTFiYWU1MTM0MjczYTZkYjEzNGM4N2M0PiAvViA0ID4+CmVuZG9iago5IDAgb2JqCjw8IC9UeXBlIC9YUmVmIC9MZW5ndGggNDAgL0ZpbHRlciAvRmxhdGVEZWNvZGUgL0RlY29kZVBhcm1zIDw8IC9Db2x1bW5zIDQgL1ByZWRpY3RvciAxMiA+PiAvVyBbIDEgMiAxIF0gL0luZm8gNCAwIFIgL1Jvb3QgMSAwIFIgL1NpemUgMTAgL0lEIFs8ZjI3M2I5NDJmOWVjNTljYmY2ZTg3ZmQ4MmQ5MjUxZGM+PGYyNzNiOTQyZjllYzU5Y2JmNmU4N2ZkODJkOTI1MWRjPl0gL0VuY3J5cHQgOCAwIFIgPj4Kc3RyZWFtCnicY2IAAiZGBn4GJgaGeBBrCojFwIhE/GcS+Atk9QElGLUZAEN8A+QKZW5kc3RyZWFtCmVuZG9iagpzdGFydHhyZWYKOTcxCiUlRU9GCg==';
const RC4 =
  'JVBERi0xLjcKJb/3ov4KMSAwIG9iago8PCAvQWNyb0Zvcm0gPDwgL0ZpZWxkcyBbIDYgMCBSIF0gL1NpZ0ZsYWdzIDMgPj4gL1BhZ2VzIDMgMCBSIC9UeXBlIC9DYXRhbG9nID4+CmVuZG9iagoyIDAgb2JqCjw8IC9UeXBlIC9PYmpTdG0gL0xlbmd0aCAzMDAgL0ZpbHRlciAvRmxhdGVEZWNvZGUgL04gNCAvRmlyc3QgMjEgPj4Kc3RyZWFtCvgO2vBJOUdoQ6hmJ9/4CR1QoRPmDltHa30sja0jcuXamu5T7mPzyYYFI1+Bx4IIT7vn86cCd2uukPf4p6Xe7ep/Ci1WmqodzhnNEKsQCwMznUWU+ITBDKY4yZvpuNRSrYjSiEyEsLxXHVXreSB57Civx7zl7McR5V6k2mQhMCIyT7wLo/Ardk45yrKpHO+m4k98SvnjZcme4r9jKUqy1vK9RBiFHDg7sEPCChOoO08ML2frRyj+2x+kqyUbS3yOUYpQAqXm+u7V9QvrfCvHacON6qtpNjeTG/DirV0Jzd0xsXCf6Ufuz0CTb7zlUZff3YqwrpDIfZ7K41kNWfaF0hlyy4GbHorc8oWcKj2u2l443XkQXp1WpuNk0i8QQS5epi82J+m0vP0+CMl/VmVuZHN0cmVhbQplbmRvYmoKNyAwIG9iago8PCAvQnl0ZVJhbmdlIFsgMCAxMCAyMCAzMCBdIC9Db250ZW50cyA8MDAwMDAwMDAwMDAwMDAwMD4gL0ZpbHRlciAvQWRvYmUuUFBLTGl0ZSAvU3ViRmlsdGVyIC9hZGJlLnBrY3M3LmRldGFjaGVkIC9UeXBlIC9TaWcgPj4KZW5kb2JqCjggMCBvYmoKPDwgL0ZpbHRlciAvU3RhbmRhcmQgL0xlbmd0aCAxMjggL08gPDU2NmZhODczZWUzM2M3OTdjZDNiOTA0ZmRhZGY4MTRhZmEzNGRmOWEzOGY2ZWQ0MWI5ODRlMmM2ZGEyYWE2ZjU+IC9QIC00IC9SIDMgL1UgPDMyNGFjYTJiZDNhZTA4MDExOTBjNGQ1OGI1MzAyNmQ2MDEyMjQ1NmE5MWJhZTUxMzQyNzNhNmRiMTM0Yzg3YzQ+IC9WIDIgPj4KZW5kb2JqCjkgMCBvYmoKPDwgL1R5cGUgL1hSZWYgL0xlbmd0aCA0MiAvRmlsdGVyIC9GbGF0ZURlY29kZSAvRGVjb2RlUGFybXMgPDwgL0NvbHVtbnMgNCAvUHJlZGljdG9yIDEyID4+IC9XIFsgMSAyIDEgXSAvSW5mbyA0IDAgUiAvUm9vdCAxIDAgUiAvU2l6ZSAxMCAvSUQgWzxlNzZjODhlOTI5MTg2YjhmMzI2MzFkNmRhNTU2ZGE0ZT48ZTc2Yzg4ZTkyOTE4NmI4ZjMyNjMxZDZkYTU1NmRhNGU+XSAvRW5jcnlwdCA4IDAgUiA+PgpzdHJlYW0KeJxjYgACJkYGfgYmBoZ4EGsKiMXAiET8Z/zzl4mBsQ8owXieAQBPzwV0CmVuZHN0cmVhbQplbmRvYmoKc3RhcnR4cmVmCjg1OQolJUVPRgo=';
const WITH_PASSWORD =
  'JVBERi0xLjcKJb/3ov4KMSAwIG9iago8PCAvQWNyb0Zvcm0gPDwgL0ZpZWxkcyBbIDYgMCBSIF0gL1NpZ0ZsYWdzIDMgPj4gL1BhZ2VzIDMgMCBSIC9UeXBlIC9DYXRhbG9nID4+CmVuZG9iagoyIDAgb2JqCjw8IC9UeXBlIC9PYmpTdG0gL0xlbmd0aCAzMjAgL0ZpbHRlciAvRmxhdGVEZWNvZGUgL04gNCAvRmlyc3QgMjEgPj4Kc3RyZWFtCq9qQxtzi+pEhB7e9brpl9KGtCpd2b29ak0rBiIaHV2/v+KLfr7C+0650ifKFIZAU3TBxOIZQpzDvECqTqxOqxto7kj/dg0jovKIdCEFIPcXTuFzrkphC4gtSvOUCK8vBecs+WV3Wr8IrGTqQ6w9dNvXXP5l7ZPE/Q6GjXHAiS1nhpkCcYifX9/f0X+uK7Gu1zUWOTf0oreSTnAkUI7+UvrdPC0evMiul+nF1XsQ2n4VcJaD5uiuSmx02ZBjMin8AezL4fflpCdN442D5KA2h/C5y6d4JP2o3XYcQJAm7FPeTf4w2Ch0rfkaLJcpPTOn2YLetIjG51oxE/oXZMc1DpVOGHtylyw5sM6fhu3hLMJr9ARnZI2q6A2IvDlfF/gyfUevzGFbX41rbh1tK5okodLYluxFbCFKaH1hl4jIOuCvZW5kc3RyZWFtCmVuZG9iago3IDAgb2JqCjw8IC9CeXRlUmFuZ2UgWyAwIDEwIDIwIDMwIF0gL0NvbnRlbnRzIDwwMDAwMDAwMDAwMDAwMDAwPiAvRmlsdGVyIC9BZG9iZS5QUEtMaXRlIC9TdWJGaWx0ZXIgL2FkYmUucGtjczcuZGV0YWNoZWQgL1R5cGUgL1NpZyA+PgplbmRvYmoKOCAwIG9iago8PCAvQ0YgPDwgL1N0ZENGIDw8IC9BdXRoRXZlbnQgL0RvY09wZW4gL0NGTSAvQUVTVjIgL0xlbmd0aCAxNiA+PiA+PiAvRmlsdGVyIC9TdGFuZGFyZCAvTGVuZ3RoIDEyOCAvTyA8MGJhMzgzNWY4OGY5MDM4OGU3NGU1NDU4NDEyNWNlMTQyYmUwZGUyNGM2YjBkMzc3NDZlMDc1Yjg5MTc1NjY3MT4gL1AgLTQgL1IgNCAvU3RtRiAvU3RkQ0YgL1N0ckYgL1N0ZENGIC9VIDw0MWVjYTBhZDBjMzI1ZmY0YmUxNGVmYTIwMmY5MzhmMDAxMjI0NTZhOTFiYWU1MTM0MjczYTZkYjEzNGM4N2M0PiAvViA0ID4+CmVuZG9iago5IDAgb2JqCjw8IC9UeXBlIC9YUmVmIC9MZW5ndGggNDAgL0ZpbHRlciAvRmxhdGVEZWNvZGUgL0RlY29kZVBhcm1zIDw8IC9Db2x1bW5zIDQgL1ByZWRpY3RvciAxMiA+PiAvVyBbIDEgMiAxIF0gL0luZm8gNCAwIFIgL1Jvb3QgMSAwIFIgL1NpemUgMTAgL0lEIFs8ZGQ3ODg0NTkyMmY5MjdjNDdhNmMzMTVkMTJmMzk0MmI+PGRkNzg4NDU5MjJmOTI3YzQ3YTZjMzE1ZDEyZjM5NDJiPl0gL0VuY3J5cHQgOCAwIFIgPj4Kc3RyZWFtCnicY2IAAiZGBn4GJgaGeBBrCojFwIhE/GcS+Atk9QElGLUZAEN8A+QKZW5kc3RyZWFtCmVuZG9iagpzdGFydHhyZWYKOTcxCiUlRU9GCg==';

const bytes = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

async function fields(pdf: Uint8Array) {
  const { scan, problems } = await withDecryptedStreams(pdf, findRevisions(pdf));
  return { search: await findSignatureFields(pdf, scan), problems };
}

describe('encrypted PDFs that open without a password (ISO 32000-1 §7.6.3)', () => {
  for (const [name, base64] of [
    ['AESV2 (R 4)', AES],
    ['RC4 128-bit (R 3)', RC4],
  ] as const) {
    it(`${name}: the object stream is decrypted and the signature field found`, async () => {
      const { search, problems } = await fields(bytes(base64));
      expect(problems).toEqual([]);
      expect(search.signatures.map((field) => [field.fieldName, field.subFilter])).toEqual([
        ['Approval', 'adbe.pkcs7.detached'],
      ]);
    });
  }

  it('without decryption the form cannot be read', async () => {
    const pdf = bytes(AES);
    const search = await findSignatureFields(pdf, findRevisions(pdf));
    expect(search.signatures).toEqual([]);
    expect(search.problems.length).toBeGreaterThan(0);
  });

  it('a user password: nothing is decrypted, and the problem says why', async () => {
    const { search, problems } = await fields(bytes(WITH_PASSWORD));
    expect(problems).toEqual(['the document needs a password to be decrypted']);
    expect(search.signatures).toEqual([]);
  });

  it('RC4 matches the published test vector (Key, Plaintext)', () => {
    const out = rc4(new TextEncoder().encode('Key'), new TextEncoder().encode('Plaintext'));
    expect([...out].map((b) => b.toString(16).padStart(2, '0')).join('')).toBe('bbf316e8d940af0ad3');
  });
});
