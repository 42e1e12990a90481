import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { checkTrust } from '../../../src/services/verify/trust-chain';
import { makeTestPki } from '../../helpers/test-identity';
import { oddSpki, signPkcs1Sha256 } from './rsa-odd-key';

const der = (cert: { rawData: ArrayBuffer }) => new Uint8Array(cert.rawData);

/** `certificate` re-signed (sha256WithRSAEncryption) by the odd-exponent key of rsa-odd-key.ts, its key replaced when given. */
function signedByOddKey(certificate: Uint8Array, key?: pkijs.PublicKeyInfo): Uint8Array {
  const cert = pkijs.Certificate.fromBER(certificate);
  if (key) cert.subjectPublicKeyInfo = key;
  const algorithm = () =>
    new pkijs.AlgorithmIdentifier({ algorithmId: '1.2.840.113549.1.1.11', algorithmParams: new asn1js.Null() });
  cert.signature = algorithm();
  cert.signatureAlgorithm = algorithm();
  cert.tbsView = new Uint8Array(cert.encodeTBS().toBER());
  cert.signatureValue = new asn1js.BitString({ valueHex: signPkcs1Sha256(cert.tbsView) });
  return new Uint8Array(cert.toSchema().toBER());
}

describe('checkTrust (RFC 5280 §6 paths to the configured roots)', () => {
  it('trusts a signer whose CA is a root, at a time inside both validities', async () => {
    const pki = await makeTestPki('ec-p256');
    const check = await checkTrust(der(pki.leafCert), [der(pki.caCert)], [der(pki.caCert)], new Date());
    expect(check).toEqual({ trust: 'trusted', problems: [] });
  });

  it('names the certificate the path stops at: an untrusted self-signed CA, or an issuer nowhere to be found', async () => {
    const pki = await makeTestPki('ec-p256');
    // A root of another name (the test CAs all share theirs): another PKI's leaf certificate.
    const other = der((await makeTestPki('ec-p256')).leafCert);
    const embedded = await checkTrust(der(pki.leafCert), [der(pki.caCert)], [other], new Date());
    expect(embedded.trust).toBe('untrusted');
    expect(embedded.problems[0]).toMatch(/the chain ends at the self-signed .*CN=.*, which is not a trusted root/);
    const alone = await checkTrust(der(pki.leafCert), [], [other], new Date());
    expect(alone.problems[0]).toMatch(/the issuer .*CN=.* of .*CN=.* is neither in the signature nor a trusted root/);
  });

  it('refuses a time outside the validity, and says when nothing can be checked', async () => {
    const pki = await makeTestPki('ec-p256');
    const late = await checkTrust(der(pki.leafCert), [der(pki.caCert)], [der(pki.caCert)], new Date('2200-01-01'));
    expect(late.trust).toBe('untrusted');
    expect(await checkTrust(undefined, [], [der(pki.caCert)], new Date())).toMatchObject({ trust: 'unknown' });
    expect(await checkTrust(der(pki.leafCert), [], [], new Date())).toMatchObject({
      trust: 'untrusted',
      problems: ['no trusted roots are configured'],
    });
  });
  it('checks an issuer whose RSA exponent WebCrypto refuses as a CMS signer is checked (BigInt)', async () => {
    const pki = await makeTestPki('ec-p256');
    const ca = signedByOddKey(der(pki.caCert), pkijs.PublicKeyInfo.fromBER(oddSpki()));
    const leaf = signedByOddKey(der(pki.leafCert));
    expect(await checkTrust(leaf, [ca], [ca], new Date())).toEqual({ trust: 'trusted', problems: [] });
    // The original leaf, signed by the original CA key, does not verify under the odd one.
    const stale = await checkTrust(der(pki.leafCert), [ca], [ca], new Date());
    expect(stale.trust).toBe('untrusted');
  });
});
