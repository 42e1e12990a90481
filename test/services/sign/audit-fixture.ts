// An AuditCertificateInfo as the route would build it, for the certificate's tests.
import type { AuditCertificateInfo, AuditEvent } from '../../../src/services/sign/sign-types';

export const DOCUMENT_SHA256 = 'a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
export const CERT_SHA256 = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';

export function auditInfo(overrides: Partial<AuditCertificateInfo> = {}): AuditCertificateInfo {
  return {
    documentSha256: DOCUMENT_SHA256,
    documentPages: 3,
    eventId: 'evt_2026_11_22_0001',
    signer: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    },
    events: [
      { type: 'submit', timestamp: '2026-11-22T10:05:00Z', data: { fields: 4 } },
      { type: 'ready', timestamp: '2026-11-22T10:00:00Z', data: {} },
      {
        type: 'field_change',
        timestamp: '2026-11-22T10:03:12.250+01:00',
        data: { field: 'amount', value: '1 200,00 €', source: { device: 'desktop', screen: { w: 1920, h: 1080 } } },
      },
      { type: 'view', timestamp: '2026-11-22T10:01:30Z', data: { page: 1 } },
      { type: 'scroll', timestamp: '2026-11-22T10:02:00Z', data: { depth: 0.75 } },
      { type: 'sign', timestamp: '2026-11-22T10:06:00Z', data: { method: 'typed' } },
    ],
    metadata: { contract: { id: 'C-42', region: 'EU' }, tags: ['lease', 'renewal'] },
    signedAt: new Date('2026-11-22T10:07:08.123Z'),
    certificate: {
      subject: 'CN=Quire Development Signing, O=Quire (development only)',
      issuer: 'CN=Quire Development CA, O=Quire (development only)',
      serialNumber: '6f3080d8a6858c14bf01522eb1fecb2b',
      notBefore: '2026-11-21T18:16:07.000Z',
      notAfter: '2028-11-20T18:16:07.000Z',
      sha256: CERT_SHA256,
      pem: '',
    },
    ...overrides,
  };
}

/** `count` events a second apart, given newest first. */
export function manyEvents(count: number): AuditEvent[] {
  const start = Date.parse('2026-11-22T08:00:00Z');
  return Array.from({ length: count }, (_, i) => ({
    type: i === count - 1 ? 'submit' : 'scroll',
    timestamp: new Date(start + (count - 1 - i) * 1000).toISOString(),
    data: { depth: i / count, marker: `m${count - 1 - i}` },
  }));
}
