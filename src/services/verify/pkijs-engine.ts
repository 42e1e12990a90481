/**
 * pkijs's crypto engine with its signature checks (a certificate by its issuer in path
 * validation, RFC 5280 §6.1.3 (a)(1)) done by verifyWithKey, so a certificate is checked the way a
 * CMS signer is: RSA keys WebCrypto refuses in plain arithmetic, Brainpool, Ed448, the hashes
 * workerd lacks. An algorithm signatureScheme does not know is left to pkijs's own check.
 */
import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { signatureScheme, verifyWithKey } from './signature-algorithms';

class VerifyingEngine extends pkijs.CryptoEngine {
  override async verifyWithPublicKey(
    data: BufferSource,
    signature: asn1js.BitString | asn1js.OctetString,
    publicKeyInfo: pkijs.PublicKeyInfo,
    signatureAlgorithm: pkijs.AlgorithmIdentifier,
    shaAlgorithm?: string,
  ): Promise<boolean> {
    let scheme: ReturnType<typeof signatureScheme>;
    try {
      scheme = signatureScheme(signatureAlgorithm, undefined);
    } catch {
      return super.verifyWithPublicKey(data, signature, publicKeyInfo, signatureAlgorithm, shaAlgorithm);
    }
    const bytes = ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);
    return verifyWithKey(scheme, publicKeyInfo, new Uint8Array(signature.valueBlock.valueHexView), bytes);
  }

  /** workerd's SubtleCrypto has it, so pkijs's engine type asks for it too. */
  timingSafeEqual(a: ArrayBuffer | ArrayBufferView, b: ArrayBuffer | ArrayBufferView): boolean {
    return crypto.subtle.timingSafeEqual(a, b);
  }
}

/** One engine for the worker: it holds no state but WebCrypto. */
export const verifyingEngine = new VerifyingEngine({ name: 'quire-verify', crypto });
