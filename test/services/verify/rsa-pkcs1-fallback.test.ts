import { describe, expect, it } from 'vitest';
import { verifyRsaPkcs1 } from '../../../src/services/verify/rsa-pkcs1-fallback';

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
