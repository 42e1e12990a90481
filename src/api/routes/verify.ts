import { createRoute, z } from '@hono/zod-openapi';
import type { Config } from '../../config';
import { ApiError } from '../../errors';
import { parseCertificates } from '../../kit';
import { DocumentInputSchema, loadDocument, loadUpload, verifyPdf } from '../../services';
import {
  createRouter,
  errorResponses,
  filePart,
  mediaTypeOf,
  requireMediaType,
  responseHeaders,
  validationExample,
} from '../http';

const VerifyBody = z.object({ document: DocumentInputSchema }).openapi('VerifyRequest');

const VerifyForm = z.object({ file: filePart('The PDF: exactly one part named file.') });

const Certificate = z.object({
  subject: z.string(),
  issuer: z.string(),
  serialNumber: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  sha256: z.string(),
});

const Signature = z.object({
  field: z.string(),
  signer: z.object({ name: z.string().nullable(), email: z.string().nullable(), certificate: Certificate.nullable() }),
  signedAt: z.string().nullable(),
  subFilter: z.string().nullable(),
  digestAlgorithm: z.string(),
  signatureAlgorithm: z.string(),
  intact: z.boolean().openapi({ description: 'The digest over the ByteRange matches messageDigest.' }),
  cryptographicallyValid: z
    .boolean()
    .openapi({ description: "The signer's signature over the signed attributes verifies with the certificate's key." }),
  coverage: z.enum(['entire-file', 'entire-revision', 'partial']),
  modificationsAfterSigning: z.enum(['none', 'signatures', 'form-filling', 'annotations', 'other']),
  trusted: z.boolean().openapi({
    description: 'The certificate chains to a configured root at signing time, and is not known to be revoked.',
  }),
  trust: z.enum(['trusted', 'untrusted', 'unknown']),
  revocation: z.enum(['good', 'revoked', 'unknown']).openapi({
    description:
      "The signer certificate's status at the best signature time, from an OCSP response or CRL of its issuer whose signature verifies: good, revoked (then trusted is false), or unknown when no usable data says.",
  }),
  revocationSource: z.enum(['cms', 'dss', 'online']).nullable().openapi({
    description:
      'Where the deciding OCSP response or CRL came from: the signature itself (cms), the PDF’s DSS (dss), or a live request (online, with REVOCATION_CHECK=online); null when unknown.',
  }),
  timestamp: z.object({ time: z.string().nullable(), verified: z.boolean() }).nullable(),
  level: z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']).nullable().openapi({
    description:
      'The PAdES baseline level reached (ETSI EN 319 142-1 §6): B-B, B-T (a signature or document timestamp), B-LT (validation data in a DSS added later), B-LTA (a document timestamp over that DSS). null for adbe.* signatures, non-baseline CMS and document timestamps.',
  }),
  problems: z.array(z.string()),
});

const VerifyResponse = z
  .object({
    valid: z.boolean(),
    reason: z.string().openapi({ description: 'The first failure in plain words, or what was checked.' }),
    signatures: z.array(Signature),
    document: z.object({ pages: z.number().int().nullable(), revisions: z.number().int(), sha256: z.string() }),
  })
  .openapi('VerifyResponse');

/** What /v1/verify answers for a PDF signed by /v1/sign with the development identity (B-B, no TSA). */
const REPORT_EXAMPLE: z.infer<typeof VerifyResponse> = {
  valid: true,
  reason:
    'The signature is intact and cryptographically valid, covers the whole of its revision, and later revisions hold only permitted changes',
  signatures: [
    {
      field: 'Signature1',
      signer: {
        name: 'Quire Development Signing',
        email: null,
        certificate: {
          subject: 'CN=Quire Development Signing, O=Quire (development only)',
          issuer: 'CN=Quire Development CA, O=Quire (development only)',
          serialNumber: '31cfb6638fa9dccd3945800e8d078839',
          notBefore: '2026-11-28T11:41:34.000Z',
          notAfter: '2028-11-27T11:41:34.000Z',
          sha256: 'dd71d52125feb3cb762ab2eaeec4039a107708331ded1d6b6107e42b1462acf0',
        },
      },
      signedAt: '2026-11-29T11:43:05.000Z',
      subFilter: 'ETSI.CAdES.detached',
      digestAlgorithm: 'SHA-256',
      signatureAlgorithm: 'RSASSA-PKCS1-v1_5',
      intact: true,
      cryptographicallyValid: true,
      coverage: 'entire-file',
      modificationsAfterSigning: 'none',
      trusted: true,
      trust: 'trusted',
      revocation: 'unknown',
      revocationSource: null,
      timestamp: null,
      level: 'B-B',
      problems: [
        "the certificate's validity was checked at the signing time the signer claims (2026-11-29T11:43:05.000Z), which no verified timestamp proves",
      ],
    },
  ],
  document: {
    pages: 2,
    revisions: 2,
    sha256: '2f6f8beeb4de94f84ce09adba94cac168afda9364c347a10e291f4d2dd522205',
  },
};

const route = createRoute({
  method: 'post',
  path: '/v1/verify',
  operationId: 'verifyDocument',
  summary: 'Verify the signatures of a PDF',
  description:
    'Checks every signature: ByteRange coverage, integrity (messageDigest), the signer’s signature, what later revisions changed, whether the certificate chains to the service certificate or TRUSTED_ROOTS, its revocation status (OCSP and CRLs in the signature or the DSS, or fetched with REVOCATION_CHECK=online) and the PAdES baseline level reached. `valid` is true when there is at least one signature, every one is intact, cryptographically valid and covers its whole revision, and later revisions hold only signatures, form filling or annotations; `trusted` (false for a revoked certificate) is reported beside it. JSON `{document}` or a multipart `file` part.',
  tags: ['Signatures'],
  middleware: [requireMediaType('application/json', 'multipart/form-data')] as const,
  request: {
    body: {
      // Not `required`: @hono/zod-openapi then runs every content type's validator on each request;
      // without it, only the one matching Content-Type runs (requireMediaType has made sure there is one).
      required: false,
      description:
        'The PDF: as JSON `{document}` (base64 or a URL), or as the multipart part `file` (binary, so no example here: `curl -F file=@signed.pdf`).',
      content: {
        'application/json': {
          schema: VerifyBody,
          examples: {
            url: {
              summary: 'A PDF fetched from a URL',
              value: { document: { url: 'https://example.com/signed-contract.pdf' } },
            },
            base64: {
              summary: 'A PDF inline, as base64 (shortened here)',
              value: { document: { base64: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUK' } },
            },
          },
        },
        'multipart/form-data': { schema: VerifyForm, encoding: { file: { contentType: 'application/pdf' } } },
      },
    },
  },
  responses: {
    200: {
      description: 'The verification report.',
      headers: responseHeaders(),
      content: { 'application/json': { schema: VerifyResponse, example: REPORT_EXAMPLE } },
    },
    ...errorResponses(
      validationExample('document', 'give exactly one of base64 or url'),
      'INVALID_BASE64',
      'AUTHENTICATION_ERROR',
      {
        code: 'PAYLOAD_TOO_LARGE',
        message:
          'The uploaded file is 31457280 bytes, more than the limit. The limit is 25 MiB (26,214,400 bytes), set by MAX_DOCUMENT_BYTES; send a smaller document.',
      },
      {
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the request body as application/json or multipart/form-data, not text/plain.',
      },
      { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The document is a damaged ZIP archive. Send a PDF.' },
      'INVALID_DOCUMENT',
      'DOCUMENT_FETCH_FAILED',
      'RATE_LIMIT_ERROR',
    ),
  },
});

/** The roots a signature may chain to: the service chain and TRUSTED_ROOTS (docs/api.md), DER. */
function trustedRoots(config: Config): Uint8Array[] {
  const pems = [config.signing.chainPem, config.trustedRootsPem].filter((pem): pem is string => Boolean(pem));
  return pems.flatMap((pem) => {
    try {
      return parseCertificates(pem).map((cert) => new Uint8Array(cert.rawData));
    } catch {
      return [];
    }
  });
}

export const verifyRouter = () =>
  createRouter().openapi(route, async (c) => {
    const config = c.get('config');
    let pdf: Uint8Array;
    if (mediaTypeOf(c.req.header('Content-Type')) === 'multipart/form-data') {
      // Both bodies share one route; the validator ran for the content type sent.
      const { file } = c.req.valid('form') as z.infer<typeof VerifyForm>;
      pdf = (await loadUpload(file, { config, accept: ['pdf'] })).bytes;
    } else {
      const body = c.req.valid('json') as z.infer<typeof VerifyBody>;
      pdf = (await loadDocument(body.document, { config, accept: ['pdf'] })).bytes;
    }
    try {
      return c.json(
        await verifyPdf(pdf, { trustedRoots: trustedRoots(config), revocationCheck: config.revocationCheck }),
        200,
      );
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // docs/api.md: a readable PDF is never a 500; what the checks could not survive is a damaged file.
      throw new ApiError('INVALID_DOCUMENT', `The PDF cannot be verified: ${(error as Error).message}`, {
        cause: error,
      });
    }
  });
