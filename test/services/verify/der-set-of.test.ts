import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SigningIdentity } from '../../../src/services/sign/sign-types';
import { loadSigningIdentity } from '../../../src/services/sign/signing-identity';
import { verifyCms } from '../../../src/services/verify/cms-verify';
import { derSetOf } from '../../../src/services/verify/der-set-of';
import { makeTestPki } from '../../helpers/test-identity';
import { type Extracted, encode, extract, parse, derSetOf as sortedSetOf } from './cms-fixtures';
import { makeOriginal, sign } from './verify-fixtures';

const NOT_DER_ORDER =
  'the signed attributes are not DER-encoded (their order is not the DER SET OF order, X.690 §11.6; RFC 5652 §5.4): the signature verifies over the bytes as sent, which EU DSS does not accept';

describe('derSetOf (X.690 §11.6)', () => {
  it('sorts by encoding, shorter padded with zeros, and rewrites a non-minimal length', () => {
    const set = new Uint8Array([0x31, 0x81, 0x06, 0x04, 0x01, 0x02, 0x04, 0x01, 0x01]);
    expect(derSetOf(set)).toEqual({
      der: new Uint8Array([0x31, 0x06, 0x04, 0x01, 0x01, 0x04, 0x01, 0x02]),
      ordered: false,
    });
    const sorted = new Uint8Array([0x31, 0x81, 0x05, 0x04, 0x00, 0x04, 0x01, 0x00]);
    expect(derSetOf(sorted)).toEqual({
      der: new Uint8Array([0x31, 0x05, 0x04, 0x00, 0x04, 0x01, 0x00]),
      ordered: true,
    });
    expect(derSetOf(new Uint8Array([0x04, 0x00]))).toBeUndefined();
  });
});

describe('signed attributes must be DER-encoded (RFC 5652 §5.4)', () => {
  let identity: SigningIdentity;
  let signed: Extracted;
  beforeAll(async () => {
    const pki = await makeTestPki('rsa');
    identity = await loadSigningIdentity(pki.keyPem, pki.chainPem);
    signed = await extract(await sign(await makeOriginal(false), identity));
  });

  /** The signature re-made with the attributes written in reverse (not DER) order, signing `over`. */
  async function reversed(over: 'as-sent' | 'der'): Promise<Uint8Array> {
    const signedData = parse(signed.contents);
    const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
    const attributes = [...(signerInfo.signedAttrs as pkijs.SignedAndUnsignedAttributes).attributes].reverse();
    signerInfo.signedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes });
    const asSent = new Uint8Array(new asn1js.Set({ value: attributes.map((a) => a.toSchema()) }).toBER());
    const bytes = over === 'der' ? sortedSetOf(attributes).der : asSent;
    expect(derSetOf(asSent)?.ordered).toBe(false);
    signerInfo.signature = new asn1js.OctetString({
      valueHex: await crypto.subtle.sign('RSASSA-PKCS1-v1_5', identity.privateKey, bytes),
    });
    return encode(signedData);
  }

  it("Quire's own signer writes its signed attributes in DER order", () => {
    const signerInfo = parse(signed.contents).signerInfos[0] as pkijs.SignerInfo;
    const encoded = new Uint8Array(signerInfo.signedAttrs?.encodedValue ?? new ArrayBuffer(0)).slice();
    encoded[0] = 0x31;
    expect(derSetOf(encoded)).toEqual({ der: encoded, ordered: true });
  });

  it('unsorted attributes signed as sent (what OpenSSL and Acrobat accept): valid, with the flaw in plain words', async () => {
    const check = await verifyCms(await reversed('as-sent'), signed.signedBytes, signed.subFilter);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true });
    expect(check.problems).toEqual([NOT_DER_ORDER]);
  });

  it('unsorted attributes signed over their DER encoding: valid', async () => {
    const check = await verifyCms(await reversed('der'), signed.signedBytes, signed.subFilter);
    expect(check.problems).toEqual([]);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true });
  });

  it('unsorted attributes whose signature verifies neither way: the usual problem only', async () => {
    const signedData = parse(await reversed('as-sent'));
    const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
    const value = new Uint8Array(signerInfo.signature.valueBlock.valueHexView).slice();
    value[10] = (value[10] ?? 0) ^ 1;
    signerInfo.signature = new asn1js.OctetString({ valueHex: value });
    const check = await verifyCms(encode(signedData), signed.signedBytes, signed.subFilter);
    expect(check.cryptographicallyValid).toBe(false);
    expect(check.problems).toEqual(['the signature value does not verify with the signer certificate']);
  });
});
