import { z } from '@hono/zod-openapi';
import { DocumentInputSchema } from '../input';
import { SIGNATURE_LEVELS } from './sign-types';

/**
 * The body of `POST /v1/sign` (docs/api.md): the signer, the audit trail, an optional event id and
 * metadata, and whether to append the audit-trail certificate. Every rule of docs/api.md is here, so a
 * request that passes the schema can be signed; every failure is one 400 with details.
 */

export const SIGN_LIMITS = {
  /** Audit events per request: enough for any signing session, bounded so the certificate is. */
  events: 2_000,
  /** The JSON of one event's data. */
  eventDataBytes: 16 * 1024,
  /** docs/api.md: metadata is at most 16 KiB of JSON. */
  metadataBytes: 16 * 1024,
} as const;

const utf8Length = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** A JSON object whose serialisation is at most `bytes` bytes of UTF-8 (an event's data, the metadata). */
const jsonObjectOfAtMost = (bytes: number) =>
  z.record(z.string(), z.unknown()).refine((value) => utf8Length(value) <= bytes, `at most ${bytes} bytes of JSON`);

const IPV4 = z.ipv4();
const IPV6 = z.ipv6();

const SignerSchema = z
  .strictObject({
    email: z.email('must be a valid email address').max(255),
    name: z.string().trim().min(2, 'must be 2 to 255 characters').max(255, 'must be 2 to 255 characters'),
    // One string checked as either address; the union zod would write gives OpenAPI a duplicated
    // anyOf of a format JSON Schema lacks ("ip"), so the document says the two standard formats.
    ip: z
      .string()
      .refine(
        (value) => IPV4.safeParse(value).success || IPV6.safeParse(value).success,
        'must be an IPv4 or IPv6 address',
      )
      .optional()
      .openapi({ anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }], example: '203.0.113.7' }),
    userAgent: z.string().max(1024).optional(),
  })
  .openapi('Signer');

const EVENT_TYPES = ['ready', 'view', 'scroll', 'field_change', 'submit', 'sign'] as const;

const AuditEventSchema = z
  .strictObject({
    type: z.enum(EVENT_TYPES),
    // ISO 8601 with a zone (Z or ±hh:mm): a time without one names no instant.
    timestamp: z.iso.datetime({
      offset: true,
      error: 'must be an ISO 8601 date-time with a zone, e.g. 2026-11-22T10:00:00Z',
    }),
    data: jsonObjectOfAtMost(SIGN_LIMITS.eventDataBytes).optional(),
  })
  .openapi('AuditEvent');

export const SignBodySchema = z
  .strictObject({
    document: DocumentInputSchema,
    signer: SignerSchema,
    auditTrail: z
      .array(AuditEventSchema)
      .min(1, 'give at least one event')
      .max(SIGN_LIMITS.events)
      .refine((events) => events.some((event) => event.type === 'submit'), 'needs at least one event of type "submit"'),
    eventId: z.string().min(1).max(255).optional(),
    metadata: jsonObjectOfAtMost(SIGN_LIMITS.metadataBytes).optional(),
    certificate: z.strictObject({ enabled: z.boolean() }).optional(),
    level: z.enum(SIGNATURE_LEVELS).optional().openapi({
      description:
        'The PAdES baseline level (ETSI EN 319 142-1). B-B: the signature. B-T: with an RFC 3161 timestamp over it. B-LT: then, in a second incremental update, a /DSS with the certificates of the signer and the TSA and their OCSP responses or CRLs (what could not be gathered is listed in X-Quire-Warnings). B-LTA: then, in a third, a document timestamp over everything. Default B-T when the deployment has a TSA (TSA_URL), else B-B; B-T and above without TSA_URL is 400.',
      example: 'B-LT',
    }),
  })
  .openapi('SignRequest', {
    example: {
      document: { url: 'https://example.com/contract.pdf' },
      signer: { email: 'ada@example.com', name: 'Ada Lovelace', ip: '203.0.113.7' },
      auditTrail: [
        { type: 'view', timestamp: '2026-11-22T10:00:00Z' },
        { type: 'submit', timestamp: '2026-11-22T10:02:10Z', data: { fields: 3 } },
      ],
    },
  });

export type SignBody = z.infer<typeof SignBodySchema>;
