import { describe, expect, it } from 'vitest';
import { verifyRsaPkcs1, verifyRsaPss } from '../../../src/services/verify/rsa-pkcs1-fallback';
import { oddSpki, signPkcs1Sha256, signPssSha256 } from './rsa-odd-key';

// A 1024-bit RSA key with the public exponent 0x40000081 (as some TSAs' certificates have), made
// with `openssl genpkey -pkeyopt rsa_keygen_pubexp:1073741953`, and its SHA-256 PKCS#1 v1.5
// signature of "Quire fallback" (`openssl dgst -sha256 -sign`). workerd refuses to import it.
const SPKI =
  'MIGgMA0GCSqGSIb3DQEBAQUAA4GOADCBigKBgQCmOEllCOzrCn8hJ5NtnQTztHbj7miFj5FPQQL4gzLZn5WhAy3fP6p1RPq6tYhrGdsE5CppFX0BDOPK4Wrh75Ayn3rZXqapYUxlVgQUbywLhFHZu3U7tBZ1QvyvLAaY+EaJetKuVQSDDP3xN9lQYE/DTk79FXZ+m1cVBDZTtX894wIEQAAAgQ==';
const SIGNATURE =
  'gDXUvncw0VEKX17njiiFjG/fC1R6MkA70IDfLMDNyzWfGFHhNFTeSm3OJdaeCvSLZFvxVbFd/mAUFXieRhu7mEutmB307hUqTvbEjSFctIma18TByQ87cUzehtevM1316OGPLOaPw3lMnu9V8tx7wuj5lLoxkYmfNULLGJI8+pg=';

const bytes = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const message = new TextEncoder().encode('Quire fallback');

describe('verifyRsaPkcs1 (RFC 8017 §8.2.2 in plain arithmetic)', () => {
  it('WebCrypto in workerd refuses the key, and the fallback verifies its signature', async () => {
    await expect(
      crypto.subtle.importKey('spki', bytes(SPKI), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']),
    ).rejects.toThrow();
    expect(await verifyRsaPkcs1(bytes(SPKI), 'SHA-256', message, bytes(SIGNATURE))).toBe(true);
  });

  it('refuses another message, another hash, a flipped signature bit and a wrong length', async () => {
    const signature = bytes(SIGNATURE);
    expect(await verifyRsaPkcs1(bytes(SPKI), 'SHA-256', new TextEncoder().encode('Quire fallbacK'), signature)).toBe(
      false,
    );
    expect(await verifyRsaPkcs1(bytes(SPKI), 'SHA-384', message, signature)).toBe(false);
    const flipped = signature.slice();
    flipped[5] = (flipped[5] ?? 0) ^ 1;
    expect(await verifyRsaPkcs1(bytes(SPKI), 'SHA-256', message, flipped)).toBe(false);
    expect(await verifyRsaPkcs1(bytes(SPKI), 'SHA-256', message, signature.subarray(1))).toBe(false);
    expect(await verifyRsaPkcs1(new Uint8Array([0x30, 0x00]), 'SHA-256', message, signature)).toBe(false);
  });
});

// RSASSA-PSS of "Quire fallback" by `openssl dgst -sign -sigopt rsa_padding_mode:pss`: with the
// 1024-bit key of rsa-odd-key.ts (exponent 2271055779; SHA-256, 32-byte salt), and with a 1025-bit
// key of the same exponent (SHA-384, 48-byte salt), where EM is one byte shorter than the modulus.
const PSS_SHA256 =
  'RkZUvfKZg4uZ6lSn2/UjEVZKyzt2Xu1N/ZsIT6i68HFouVbKtn0mnpa2lHi5CnGCLHRQC5OQqUse2hc72zlEldb+cNdL6CB9+kQaCqRFUep9UowXwC9MeDq21YiSghmJc3O1bic7jtFSsgJNlXbkBe01+Ux9QVBI6ipdPzh2ZVo=';
const SPKI_1025 =
  'MIGhMA0GCSqGSIb3DQEBAQUAA4GPADCBiwKBgQGTcc5kgY9XaL+d0s8Sei6rINmQ09/wqaIazjj0l3ibOIPoYWG4fvMUelDeJQcy/KmpLPeStzRz/B4TOgVCxAWs/RVRi2lcEsWIkniK3OpN8QLywC/h+jlorHS24mDq3/31mSjIaFyD27bx9WEMAtGqxE51GnuNUmvaf3EFPNHXHQIFAIddj6M=';
const PSS_SHA384_1025 =
  'ATN+mRtlmds87zP5PkonjUaAITWBB/jWlOrmEEBScAWKb9wfGLLyaoJdY3OXJ4/MFCl5E6dIRcnn5NJ/XEPK9HH8X2WaqAdLpmPTw7XwpMuXF3Wi7GF0xCvAdSnaraVdKdRC4q5m7vCidPaVbJTEkY2diRPCwbbYL7kSzecuNH1V';

describe('verifyRsaPss (RFC 8017 §8.1.2, EMSA-PSS-VERIFY §9.1.2, in plain arithmetic)', () => {
  it('verifies OpenSSL PSS signatures under keys WebCrypto refuses, whatever the modulus length mod 8', async () => {
    await expect(
      crypto.subtle.importKey('spki', oddSpki(), { name: 'RSA-PSS', hash: 'SHA-256' }, false, ['verify']),
    ).rejects.toThrow();
    expect(await verifyRsaPss(oddSpki(), 'SHA-256', 32, message, bytes(PSS_SHA256))).toBe(true);
    expect(await verifyRsaPss(bytes(SPKI_1025), 'SHA-384', 48, message, bytes(PSS_SHA384_1025))).toBe(true);
  });

  it('refuses another message, hash or salt length, a flipped bit, and a PKCS#1 v1.5 value', async () => {
    const signature = bytes(PSS_SHA256);
    expect(await verifyRsaPss(oddSpki(), 'SHA-256', 32, new TextEncoder().encode('Quire fallbacK'), signature)).toBe(
      false,
    );
    expect(await verifyRsaPss(oddSpki(), 'SHA-384', 32, message, signature)).toBe(false);
    expect(await verifyRsaPss(oddSpki(), 'SHA-256', 20, message, signature)).toBe(false);
    const flipped = signature.slice();
    flipped[9] = (flipped[9] ?? 0) ^ 1;
    expect(await verifyRsaPss(oddSpki(), 'SHA-256', 32, message, flipped)).toBe(false);
    expect(await verifyRsaPss(oddSpki(), 'SHA-256', 32, message, signPkcs1Sha256(message))).toBe(false);
    expect(await verifyRsaPkcs1(oddSpki(), 'SHA-256', message, signPkcs1Sha256(message))).toBe(true);
    expect(await verifyRsaPss(oddSpki(), 'SHA-256', 32, message, signPssSha256(message, 32))).toBe(true);
  });
});
