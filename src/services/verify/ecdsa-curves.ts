/**
 * ECDSA verification (ANSI X9.62, BSI TR-03111 §4.2.1.2) with @noble/curves, for what workerd's
 * WebCrypto cannot check: the Brainpool curves (RFC 5639 §3.4, §3.6, §3.7; RFC 5639 §4 gives
 * their OIDs), which German eIDAS signers use with plain ECDSA, and hashes WebCrypto lacks
 * (SHA-224) on the NIST curves. The caller hashes; the signature value here is r‖s.
 */
import { type ECDSA, ecdsa, weierstrassN } from '@noble/curves/abstract/weierstrass.js';
import { p256, p384, p521 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';

/** Domain parameters of RFC 5639 §3 (p, A, B, G, q; cofactor 1). */
const BRAINPOOL_PARAMS: Record<string, { p: string; a: string; b: string; x: string; y: string; n: string }> = {
  // brainpoolP256r1 (RFC 5639 §3.4)
  '1.3.36.3.3.2.8.1.1.7': {
    p: 'a9fb57dba1eea9bc3e660a909d838d726e3bf623d52620282013481d1f6e5377',
    a: '7d5a0975fc2c3057eef67530417affe7fb8055c126dc5c6ce94a4b44f330b5d9',
    b: '26dc5c6ce94a4b44f330b5d9bbd77cbf958416295cf7e1ce6bccdc18ff8c07b6',
    x: '8bd2aeb9cb7e57cb2c4b482ffc81b7afb9de27e1e3bd23c23a4453bd9ace3262',
    y: '547ef835c3dac4fd97f8461a14611dc9c27745132ded8e545c1d54c72f046997',
    n: 'a9fb57dba1eea9bc3e660a909d838d718c397aa3b561a6f7901e0e82974856a7',
  },
  // brainpoolP384r1 (RFC 5639 §3.6)
  '1.3.36.3.3.2.8.1.1.11': {
    p: '8cb91e82a3386d280f5d6f7e50e641df152f7109ed5456b412b1da197fb71123acd3a729901d1a71874700133107ec53',
    a: '7bc382c63d8c150c3c72080ace05afa0c2bea28e4fb22787139165efba91f90f8aa5814a503ad4eb04a8c7dd22ce2826',
    b: '04a8c7dd22ce28268b39b55416f0447c2fb77de107dcd2a62e880ea53eeb62d57cb4390295dbc9943ab78696fa504c11',
    x: '1d1c64f068cf45ffa2a63a81b7c13f6b8847a3e77ef14fe3db7fcafe0cbd10e8e826e03436d646aaef87b2e247d4af1e',
    y: '8abe1d7520f9c2a45cb1eb8e95cfd55262b70b29feec5864e19c054ff99129280e4646217791811142820341263c5315',
    n: '8cb91e82a3386d280f5d6f7e50e641df152f7109ed5456b31f166e6cac0425a7cf3ab6af6b7fc3103b883202e9046565',
  },
  // brainpoolP512r1 (RFC 5639 §3.7)
  '1.3.36.3.3.2.8.1.1.13': {
    p: 'aadd9db8dbe9c48b3fd4e6ae33c9fc07cb308db3b3c9d20ed6639cca703308717d4d9b009bc66842aecda12ae6a380e62881ff2f2d82c68528aa6056583a48f3',
    a: '7830a3318b603b89e2327145ac234cc594cbdd8d3df91610a83441caea9863bc2ded5d5aa8253aa10a2ef1c98b9ac8b57f1117a72bf2c7b9e7c1ac4d77fc94ca',
    b: '3df91610a83441caea9863bc2ded5d5aa8253aa10a2ef1c98b9ac8b57f1117a72bf2c7b9e7c1ac4d77fc94cadc083e67984050b75ebae5dd2809bd638016f723',
    x: '81aee4bdd82ed9645a21322e9c4c6a9385ed9f70b5d916c1b43b62eef4d0098eff3b1f78e2d0d48d50d1687b93b97d5f7c6d5047406a5e688b352209bcb9f822',
    y: '7dde385d566332ecc0eabfa9cf7822fdf209f70024a57b1aa000c55b881f8111b2dcde494a5f485e5bca4bd88a2763aed1ca2b2fa8f0540678cd1e0f3ad80892',
    n: 'aadd9db8dbe9c48b3fd4e6ae33c9fc07cb308db3b3c9d20ed6639cca70330870553e5c414ca92619418661197fac10471db1d381085ddaddb58796829ca90069',
  },
};

type Curve = Pick<ECDSA, 'verify' | 'sign' | 'getPublicKey' | 'utils' | 'Point'>;

/** The NIST curves by OID (RFC 5480 §2.1.1.1), for hashes WebCrypto does not offer. */
const NIST: Record<string, Curve> = {
  '1.2.840.10045.3.1.7': p256,
  '1.3.132.0.34': p384,
  '1.3.132.0.35': p521,
};

/** Built on first use: each is only a handful of bigints, but most requests never need one. */
const brainpool = new Map<string, Curve>();

export function brainpoolCurve(oid: string): Curve | undefined {
  const params = BRAINPOOL_PARAMS[oid];
  if (!params) return undefined;
  let curve = brainpool.get(oid);
  if (!curve) {
    const big = (hex: string) => BigInt(`0x${hex}`);
    const point = weierstrassN({
      p: big(params.p),
      n: big(params.n),
      h: 1n,
      a: big(params.a),
      b: big(params.b),
      Gx: big(params.x),
      Gy: big(params.y),
    });
    // The hash given here is only for signing and prehash; verification below takes a digest.
    curve = ecdsa(point, sha256, { lowS: false });
    brainpool.set(oid, curve);
  }
  return curve;
}

/** The curve's field size in bytes (each of r and s in a plain signature), or undefined when unknown. */
export function nobleCurveSize(curveOid: string): number | undefined {
  const curve = brainpoolCurve(curveOid) ?? NIST[curveOid];
  return curve ? curve.Point.Fn.BYTES : undefined;
}

/**
 * Verifies r‖s over an already computed digest (ANSI X9.62 §7.4.1: the digest is truncated to
 * the order's bit length by the library). High-s values are accepted as ECDSA allows them.
 */
export function verifyEcdsaDigest(
  curveOid: string,
  publicPoint: Uint8Array,
  signature: Uint8Array,
  digest: Uint8Array,
): boolean {
  const curve = brainpoolCurve(curveOid) ?? NIST[curveOid];
  if (!curve) throw new Error('the certificate key is on an unsupported curve');
  return curve.verify(signature, digest, publicPoint, { prehash: false, lowS: false, format: 'compact' });
}
