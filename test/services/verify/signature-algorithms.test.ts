/**
 * Signature schemes workerd's WebCrypto lacks, checked with @noble/curves: plain ECDSA on
 * Brainpool (BSI TR-03111), SHA-224 ECDSA on P-256, and Ed448 with SHAKE256 (RFC 8419). Each
 * fixture is a Quire signature re-signed here with a noble key under a certificate carrying it.
 */

import { ed448 } from '@noble/curves/ed448.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { sha224, sha512 } from '@noble/hashes/sha2.js';
import { sha3_256, sha3_384, shake256 } from '@noble/hashes/sha3.js';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSigningIdentity } from '../../../src/services/sign/signing-identity';
import { verifyCms } from '../../../src/services/verify/cms-verify';
import { brainpoolCurve } from '../../../src/services/verify/ecdsa-curves';
import { makeTestPki } from '../../helpers/test-identity';
import {
  type Extracted,
  encode,
  extract,
  parse,
  publicKeyInfo,
  type Resign,
  resign,
  withPublicKey,
} from './cms-fixtures';
import { oddSpki, signPkcs1, signPkcs1Sha256, signPss, signPssSha256 } from './rsa-odd-key';
import { makeOriginal, sign } from './verify-fixtures';

const EC_PUBLIC_KEY = '1.2.840.10045.2.1';
const BRAINPOOL_P256R1 = '1.3.36.3.3.2.8.1.1.7';
const P256 = '1.2.840.10045.3.1.7';
const SHA224 = '2.16.840.1.101.3.4.2.4';
const SHA256 = '2.16.840.1.101.3.4.2.1';
const SHAKE256 = '2.16.840.1.101.3.4.2.12';
const ED448 = '1.3.101.113';
const plainEcdsa = (n: number) => `0.4.0.127.0.7.1.1.4.1.${n}`;

describe('signature algorithms beyond WebCrypto', () => {
  let signed: Extracted;
  beforeAll(async () => {
    const pki = await makeTestPki('ec-p256');
    signed = await extract(await sign(await makeOriginal(false), await loadSigningIdentity(pki.keyPem, pki.chainPem)));
  });
  const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', data));

  it('plain ECDSA (ecdsa-plain-SHA256) on brainpoolP256r1: r‖s verifies', async () => {
    const curve = brainpoolCurve(BRAINPOOL_P256R1);
    if (!curve) throw new Error('no brainpoolP256r1');
    const secret = curve.utils.randomSecretKey();
    const certificate = withPublicKey(
      parse(signed.contents),
      publicKeyInfo(EC_PUBLIC_KEY, curve.getPublicKey(secret, false), BRAINPOOL_P256R1),
    );
    const options = {
      certificate,
      digestOid: SHA256,
      messageDigest: await sha256(signed.signedBytes),
      signatureOid: plainEcdsa(3),
    };
    const plain = await resign(signed.contents, {
      ...options,
      sign: async (data) => curve.sign(await sha256(data), secret, { prehash: false }).toBytes('compact'),
    });
    const check = await verifyCms(plain, signed.signedBytes, signed.subFilter);
    expect(check.problems).toEqual([]);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true, signatureAlgorithm: 'ECDSA' });

    // The plain OIDs name r‖s: a DER Ecdsa-Sig-Value under them is not accepted.
    const der = await resign(signed.contents, {
      ...options,
      sign: async (data) => curve.sign(await sha256(data), secret, { prehash: false }).toBytes('der'),
    });
    const wrong = await verifyCms(der, signed.signedBytes, signed.subFilter);
    expect(wrong).toMatchObject({ intact: true, cryptographicallyValid: false });

    const changed = signed.signedBytes.slice();
    changed[5] = (changed[5] ?? 0) ^ 1;
    expect(await verifyCms(plain, changed, signed.subFilter)).toMatchObject({ intact: false });
  });

  it('plain ECDSA with SHA-224 on P-256 (a hash WebCrypto lacks)', async () => {
    const secret = p256.utils.randomSecretKey();
    const certificate = withPublicKey(
      parse(signed.contents),
      publicKeyInfo(EC_PUBLIC_KEY, p256.getPublicKey(secret, false), P256),
    );
    const contents = await resign(signed.contents, {
      certificate,
      digestOid: SHA224,
      messageDigest: sha224(signed.signedBytes),
      signatureOid: plainEcdsa(2),
      sign: (data) => p256.sign(sha224(data), secret, { prehash: false }).toBytes('compact'),
    });
    const check = await verifyCms(contents, signed.signedBytes, signed.subFilter);
    expect(check.problems).toEqual([]);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true, digestAlgorithm: 'SHA-224' });
  });

  it('Ed448 with a SHAKE256 (512-bit) messageDigest, pure mode over the signed attributes (RFC 8419)', async () => {
    const secret = ed448.utils.randomSecretKey();
    const certificate = withPublicKey(parse(signed.contents), publicKeyInfo(ED448, ed448.getPublicKey(secret)));
    const contents = await resign(signed.contents, {
      certificate,
      digestOid: SHAKE256,
      messageDigest: shake256(signed.signedBytes, { dkLen: 64 }),
      signatureOid: ED448,
      sign: (data) => ed448.sign(data, secret),
    });
    const check = await verifyCms(contents, signed.signedBytes, signed.subFilter);
    expect(check.problems).toEqual([]);
    expect(check).toMatchObject({
      intact: true,
      cryptographicallyValid: true,
      digestAlgorithm: 'SHAKE256',
      signatureAlgorithm: 'Ed448',
    });

    const other = ed448.utils.randomSecretKey();
    const forged = await resign(signed.contents, {
      certificate,
      digestOid: SHAKE256,
      messageDigest: shake256(signed.signedBytes, { dkLen: 64 }),
      signatureOid: ED448,
      sign: (data) => ed448.sign(data, other),
    });
    expect(await verifyCms(forged, signed.signedBytes, signed.subFilter)).toMatchObject({
      intact: true,
      cryptographicallyValid: false,
    });
  });
  it('RSA with a public exponent WebCrypto refuses (2271055779): PKCS#1 v1.5 and PSS both verify in BigInt', async () => {
    const certificate = withPublicKey(parse(signed.contents), pkijs.PublicKeyInfo.fromBER(oddSpki()));
    const options = { certificate, digestOid: SHA256, messageDigest: await sha256(signed.signedBytes) };
    const pkcs1 = await resign(signed.contents, {
      ...options,
      signatureOid: '1.2.840.113549.1.1.11',
      sign: signPkcs1Sha256,
    });
    const pss = parse(
      await resign(signed.contents, {
        ...options,
        signatureOid: '1.2.840.113549.1.1.10',
        sign: (data) => signPssSha256(data, 32),
      }),
    );
    // RSASSA-PSS-params: SHA-256, MGF1 with SHA-256, a 32-byte salt (RFC 4055 §3.1).
    const sha256Id = () => new pkijs.AlgorithmIdentifier({ algorithmId: SHA256, algorithmParams: new asn1js.Null() });
    (pss.signerInfos[0] as pkijs.SignerInfo).signatureAlgorithm = new pkijs.AlgorithmIdentifier({
      algorithmId: '1.2.840.113549.1.1.10',
      algorithmParams: new pkijs.RSASSAPSSParams({
        hashAlgorithm: sha256Id(),
        maskGenAlgorithm: new pkijs.AlgorithmIdentifier({
          algorithmId: '1.2.840.113549.1.1.8',
          algorithmParams: sha256Id().toSchema(),
        }),
        saltLength: 32,
      }).toSchema(),
    });
    for (const [contents, name] of [
      [pkcs1, 'RSASSA-PKCS1-v1_5'],
      [encode(pss), 'RSA-PSS'],
    ] as const) {
      const check = await verifyCms(contents, signed.signedBytes, signed.subFilter);
      expect(check.problems).toEqual([]);
      expect(check).toMatchObject({ intact: true, cryptographicallyValid: true, signatureAlgorithm: name });
    }
    const forged = await resign(signed.contents, {
      ...options,
      signatureOid: '1.2.840.113549.1.1.11',
      sign: (data) => signPkcs1Sha256(new Uint8Array([...data, 0])),
    });
    expect(await verifyCms(forged, signed.signedBytes, signed.subFilter)).toMatchObject({
      intact: true,
      cryptographicallyValid: false,
    });
  });
  it('SHA-3 (RFC 9688): ECDSA on P-256 and Brainpool, DER and plain, RSA PKCS#1 v1.5 and PSS', async () => {
    const SHA3_256 = '2.16.840.1.101.3.4.2.8';
    const SHA3_384 = '2.16.840.1.101.3.4.2.9';
    const p256Secret = p256.utils.randomSecretKey();
    const brainpool = brainpoolCurve(BRAINPOOL_P256R1);
    if (!brainpool) throw new Error('no brainpoolP256r1');
    const bpSecret = brainpool.utils.randomSecretKey();
    const ecCert = (curve: typeof p256, secret: Uint8Array, oid: string) =>
      withPublicKey(parse(signed.contents), publicKeyInfo(EC_PUBLIC_KEY, curve.getPublicKey(secret, false), oid));
    const rsaCert = withPublicKey(parse(signed.contents), pkijs.PublicKeyInfo.fromBER(oddSpki()));
    const cases: {
      name: string;
      digest: string;
      hash: (data: Uint8Array) => Uint8Array;
      resign: Omit<Resign, 'digestOid' | 'messageDigest'>;
      scheme: string;
    }[] = [
      {
        name: 'ecdsa-with-SHA3-256, P-256, DER',
        digest: SHA3_256,
        hash: sha3_256,
        scheme: 'ECDSA',
        resign: {
          certificate: ecCert(p256, p256Secret, P256),
          signatureOid: '2.16.840.1.101.3.4.3.10',
          sign: (data) => p256.sign(sha3_256(data), p256Secret, { prehash: false }).toBytes('der'),
        },
      },
      {
        name: 'ecdsa-with-SHA3-384, brainpoolP256r1, DER',
        digest: SHA3_384,
        hash: sha3_384,
        scheme: 'ECDSA',
        resign: {
          certificate: ecCert(brainpool as typeof p256, bpSecret, BRAINPOOL_P256R1),
          signatureOid: '2.16.840.1.101.3.4.3.11',
          sign: (data) => brainpool.sign(sha3_384(data), bpSecret, { prehash: false }).toBytes('der'),
        },
      },
      {
        name: 'ecdsa-plain-SHA3-256, brainpoolP256r1',
        digest: SHA3_256,
        hash: sha3_256,
        scheme: 'ECDSA',
        resign: {
          certificate: ecCert(brainpool as typeof p256, bpSecret, BRAINPOOL_P256R1),
          signatureOid: plainEcdsa(9),
          sign: (data) => brainpool.sign(sha3_256(data), bpSecret, { prehash: false }).toBytes('compact'),
        },
      },
      {
        name: 'rsassa-pkcs1-v1_5-with-SHA3-256',
        digest: SHA3_256,
        hash: sha3_256,
        scheme: 'RSASSA-PKCS1-v1_5',
        resign: {
          certificate: rsaCert,
          signatureOid: '2.16.840.1.101.3.4.3.14',
          sign: (data) => signPkcs1(data, sha3_256),
        },
      },
    ];
    for (const { name, digest, hash, resign: options, scheme } of cases) {
      const contents = await resign(signed.contents, {
        ...options,
        digestOid: digest,
        messageDigest: hash(signed.signedBytes),
      });
      const check = await verifyCms(contents, signed.signedBytes, signed.subFilter);
      expect(check.problems, name).toEqual([]);
      expect(check, name).toMatchObject({ intact: true, cryptographicallyValid: true, signatureAlgorithm: scheme });
      expect(check.digestAlgorithm, name).toMatch(/^SHA3-/);
      const changed = signed.signedBytes.slice();
      changed[7] = (changed[7] ?? 0) ^ 1;
      expect(await verifyCms(contents, changed, signed.subFilter), name).toMatchObject({ intact: false });
    }

    // RSASSA-PSS with SHA3-256 and MGF1-SHA3-256 (RFC 8017 Appendix A.2.3 with RFC 9688's hash).
    const pss = parse(
      await resign(signed.contents, {
        certificate: rsaCert,
        digestOid: SHA3_256,
        messageDigest: sha3_256(signed.signedBytes),
        signatureOid: '1.2.840.113549.1.1.10',
        sign: (data) => signPss(data, 32, sha3_256),
      }),
    );
    const sha3Id = () => new pkijs.AlgorithmIdentifier({ algorithmId: SHA3_256 });
    (pss.signerInfos[0] as pkijs.SignerInfo).signatureAlgorithm = new pkijs.AlgorithmIdentifier({
      algorithmId: '1.2.840.113549.1.1.10',
      algorithmParams: new pkijs.RSASSAPSSParams({
        hashAlgorithm: sha3Id(),
        maskGenAlgorithm: new pkijs.AlgorithmIdentifier({
          algorithmId: '1.2.840.113549.1.1.8',
          algorithmParams: sha3Id().toSchema(),
        }),
        saltLength: 32,
      }).toSchema(),
    });
    const check = await verifyCms(encode(pss), signed.signedBytes, signed.subFilter);
    expect(check.problems).toEqual([]);
    expect(check).toMatchObject({
      intact: true,
      cryptographicallyValid: true,
      signatureAlgorithm: 'RSA-PSS',
      digestAlgorithm: 'SHA3-256',
    });
  });
  it('EdDSA with signed attributes needs the RFC 8419 §3 digest: SHA-512 for Ed25519, SHAKE256 for Ed448; another is invalid', async () => {
    const ED25519 = '1.3.101.112';
    const SHA512 = '2.16.840.1.101.3.4.2.3';
    const SHA1 = '1.3.14.3.2.26';
    const sha1 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-1', data));
    const e25519 = ed25519.utils.randomSecretKey();
    const e448 = ed448.utils.randomSecretKey();
    const cert25519 = withPublicKey(parse(signed.contents), publicKeyInfo(ED25519, ed25519.getPublicKey(e25519)));
    const cert448 = withPublicKey(parse(signed.contents), publicKeyInfo(ED448, ed448.getPublicKey(e448)));
    const cases = [
      {
        certificate: cert25519,
        signatureOid: ED25519,
        digestOid: SHA512,
        messageDigest: sha512(signed.signedBytes),
        sign: (d: Uint8Array) => ed25519.sign(d, e25519),
        fault: undefined,
      },
      {
        certificate: cert25519,
        signatureOid: ED25519,
        digestOid: SHA1,
        messageDigest: await sha1(signed.signedBytes),
        sign: (d: Uint8Array) => ed25519.sign(d, e25519),
        fault: 'RFC 8419 §3 requires a SHA-512 message digest with Ed25519 and signed attributes; this one is SHA-1',
      },
      {
        certificate: cert448,
        signatureOid: ED448,
        digestOid: SHA512,
        messageDigest: sha512(signed.signedBytes),
        sign: (d: Uint8Array) => ed448.sign(d, e448),
        fault: 'RFC 8419 §3 requires a SHAKE256 message digest with Ed448 and signed attributes; this one is SHA-512',
      },
    ];
    for (const { fault, ...options } of cases) {
      const check = await verifyCms(await resign(signed.contents, options), signed.signedBytes, signed.subFilter);
      expect(check.intact).toBe(true);
      expect(check.cryptographicallyValid).toBe(fault === undefined);
      expect(check.problems.filter((problem) => !problem.includes('SHA-1 (weak)'))).toEqual(fault ? [fault] : []);
    }
  });
});
