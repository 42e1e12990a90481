import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSigningIdentity } from '../../../src/services/sign/signing-identity';
import { findEncodingFault } from '../../../src/services/verify/ber-strict';
import { verifyCms } from '../../../src/services/verify/cms-verify';
import { makeTestPki } from '../../helpers/test-identity';
import { type Extracted, encode, extract, parse } from './cms-fixtures';
import { makeOriginal, sign } from './verify-fixtures';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('findEncodingFault (X.690 §8.1, §8.3)', () => {
  it('accepts minimal INTEGERs, definite and indefinite lengths, and ignores trailing padding', () => {
    for (const good of [
      bytes(0x02, 0x01, 0x00),
      bytes(0x02, 0x02, 0x00, 0x80),
      bytes(0x02, 0x01, 0xff),
      bytes(0x02, 0x02, 0xff, 0x7f),
      bytes(0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00),
      bytes(0x30, 0x81, 0x03, 0x02, 0x01, 0x05, 0x00, 0x00, 0x00),
      bytes(0x04, 0x03, 0x02, 0x02, 0x00),
    ]) {
      expect(findEncodingFault(good)).toBeUndefined();
    }
  });

  it('names the fault and its byte', () => {
    const cases: [Uint8Array, string][] = [
      [bytes(0x02, 0x02, 0x00, 0x7f), 'a non-minimal INTEGER at byte 0 (X.690 §8.3.2)'],
      [bytes(0x30, 0x04, 0x02, 0x02, 0xff, 0x80), 'a non-minimal INTEGER at byte 2 (X.690 §8.3.2)'],
      [bytes(0x0a, 0x02, 0x00, 0x01), 'a non-minimal INTEGER at byte 0 (X.690 §8.3.2)'],
      [bytes(0x02, 0x00), 'an empty INTEGER at byte 0 (X.690 §8.3.1)'],
      [bytes(0x30, 0x05, 0x02, 0x01, 0x00), 'a length that runs past its enclosing element at byte 0 (X.690 §8.1.3)'],
      [
        bytes(0x30, 0x03, 0x02, 0x02, 0x00, 0x00),
        'a length that runs past its enclosing element at byte 2 (X.690 §8.1.3)',
      ],
      [bytes(0x30, 0x80, 0x02, 0x01, 0x05), 'an indefinite length without end-of-contents at byte 0 (X.690 §8.1.5)'],
      [bytes(0x04, 0x80, 0x00, 0x00), 'a primitive element with an indefinite length at byte 0 (X.690 §8.1.3.2)'],
      [bytes(0x30, 0xff, 0x00), 'the reserved length octet 0xFF at byte 0 (X.690 §8.1.3.5)'],
      [bytes(0x9f, 0x80, 0x01, 0x00), 'a padded tag number at byte 0 (X.690 §8.1.2.4.2)'],
      [bytes(0x30), 'an element cut short at byte 0 (X.690 §8.1.1)'],
    ];
    for (const [input, fault] of cases) expect(findEncodingFault(input)).toBe(fault);
  });

  it('deep nesting and exempt ranges', () => {
    const deep = new Uint8Array(400).map((_, i) => (i % 2 === 0 ? 0x30 : 0x80));
    expect(findEncodingFault(deep)).toMatch(/nested deeper/);
    const padded = bytes(0x30, 0x04, 0x02, 0x02, 0x00, 0x01);
    expect(findEncodingFault(padded, [{ start: 2, end: 6 }])).toBeUndefined();
  });
});

describe('verifyCms rejects a CMS that is not validly encoded', () => {
  let signed: Extracted;
  beforeAll(async () => {
    const pki = await makeTestPki('rsa');
    signed = await extract(await sign(await makeOriginal(false), await loadSigningIdentity(pki.keyPem, pki.chainPem)));
  });

  /** An INTEGER with a redundant leading zero octet (BER forbids it too, X.690 §8.3.2). */
  const paddedInteger = () => new asn1js.Integer({ valueHex: bytes(0x00, 0x01, 0x02) });

  it('a certificate serial number with a leading zero octet: not valid, with the byte', async () => {
    const signedData = parse(signed.contents);
    const ca = signedData.certificates?.[1] as pkijs.Certificate;
    ca.serialNumber = paddedInteger();
    signedData.certificates = [
      signedData.certificates?.[0] as pkijs.Certificate,
      pkijs.Certificate.fromBER(ca.toSchema(true).toBER()),
    ];
    const contents = encode(signedData);
    const check = await verifyCms(contents, signed.signedBytes, signed.subFilter);
    expect(check).toMatchObject({ intact: false, cryptographicallyValid: false });
    expect(check.problems).toEqual([
      expect.stringMatching(
        /^the signature's CMS is not validly encoded: a non-minimal INTEGER at byte \d+ \(X\.690 §8\.3\.2\)$/,
      ),
    ]);
    const at = Number(/byte (\d+)/.exec(check.problems[0] ?? '')?.[1]);
    expect(Array.from(contents.subarray(at, at + 5))).toEqual([0x02, 0x03, 0x00, 0x01, 0x02]);
  });

  it('a padded INTEGER inside an unsigned attribute value (an undecoded ANY) does not spoil the CMS', async () => {
    const signedData = parse(signed.contents);
    const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [
        new pkijs.Attribute({ type: '1.2.3.4', values: [new asn1js.Sequence({ value: [paddedInteger()] })] }),
      ],
    });
    const check = await verifyCms(encode(signedData), signed.signedBytes, signed.subFilter);
    expect(check.problems).toEqual([]);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true });
  });
});
