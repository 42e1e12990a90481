import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors';
import {
  baseName,
  convertDocxToPdf,
  describeServiceCertificate,
  encodeBase64,
  engineResources,
  type IdentityCache,
  type IsolateEngine,
  PDF_MEDIA_TYPE,
  resolveSignatureLevel,
  SignBodySchema,
  signDocument,
} from '../../services';
import {
  asciiHeaderText,
  createRouter,
  documentForm,
  documentRequest,
  errorResponses,
  fileAnswer,
  negotiate,
  requireMediaType,
  responseHeaders,
  validationExample,
  warningHeaders,
} from '../http';

/** What sign and the certificate answer on a deployment without the signing secrets (signingSecrets). */
const SIGNING_NOT_CONFIGURED = {
  code: 'INTERNAL_ERROR',
  message: 'Signing is not configured on this deployment: set the SIGNING_KEY and SIGNING_CERT_CHAIN secrets.',
} as const;

const SignResponse = z
  .object({
    document: z.object({
      base64: z.string().openapi({ description: 'The signed PDF, plain base64.' }),
      contentType: z.literal(PDF_MEDIA_TYPE),
    }),
  })
  .openapi('SignResponse');

/** The JSON body as a form (docs/api.md "POST /v1/sign"): the document as `file`, the rest as fields. */
const SignForm = documentForm(SignBodySchema, 'The PDF or DOCX to sign: exactly one part named file.');

/** What the answer can be, JSON first: without Accept, or with a wildcard, it is JSON as it always was. */
const SIGN_ANSWERS = ['application/json', PDF_MEDIA_TYPE];

const signRoute = createRoute({
  method: 'post',
  path: '/v1/sign',
  operationId: 'signDocument',
  summary: 'Sign a PDF or DOCX (PAdES)',
  description:
    'Appends the audit-trail certificate pages (unless certificate.enabled is false) and signs the document with the service identity: PAdES baseline B-B, B-T, B-LT or B-LTA (`level`; default B-T with TSA_URL, else B-B), SubFilter ETSI.CAdES.detached, SHA-256, in incremental updates so earlier signatures stay valid. A DOCX is converted to PDF first. The request is JSON with the document as a document input, or multipart/form-data with the document as the `file` part and the other fields as form fields of the same names (strings as they are, objects and arrays as JSON text). The answer is JSON with the PDF as base64, or with `Accept: application/pdf` the PDF itself; an Accept that takes neither is 406.',
  tags: ['Signatures'],
  middleware: [requireMediaType('application/json', 'multipart/form-data')] as const,
  request: {
    body: {
      // Not `required`: @hono/zod-openapi then runs only the validator of the Content-Type sent
      // (src/api/app.ts bodiesRequired restores `required` in the document).
      required: false,
      description:
        'JSON with the document as a document input (base64 or a URL), or a multipart form with the document as the part `file` (binary, so no example here: `curl -F file=@contract.pdf -F signer=\'{"name":"Ada Lovelace","email":"ada@example.com"}\'`) and the other fields as form fields.',
      content: {
        'application/json': {
          schema: SignBodySchema,
          example: {
            document: { url: 'https://example.com/contract.pdf' },
            signer: { name: 'Ada Lovelace', email: 'ada@example.com' },
            auditTrail: [
              { type: 'view', timestamp: '2026-11-22T10:00:00Z' },
              { type: 'submit', timestamp: '2026-11-22T10:02:10Z', data: { ip: '192.0.2.7' } },
            ],
          },
        },
        'multipart/form-data': {
          schema: SignForm,
          encoding: {
            file: {
              contentType: 'application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document',
            },
          },
        },
      },
    },
  },
  responses: {
    200: {
      description:
        'The signed PDF: JSON with it as base64, or the PDF itself when Accept asks for application/pdf (Content-Disposition names it after the uploaded file, or signed.pdf). X-Quire-Event-Id carries the event id; X-Quire-Certificate-Pages the pages appended; X-Quire-Certificate-Omitted why none were, when the PDF was already signed. A DOCX is converted first, and then X-Quire-Pages counts the pages of the answer. X-Quire-Warnings / X-Quire-Warning-Count say what the conversion could not draw, and what validation data B-LT or B-LTA could not gather (an OCSP responder that failed, a certificate that names none).',
      headers: responseHeaders(
        'Content-Disposition',
        'X-Quire-Event-Id',
        'X-Quire-Certificate-Pages',
        'X-Quire-Certificate-Omitted',
        'X-Quire-Pages',
        'X-Quire-Warnings',
        'X-Quire-Warning-Count',
      ),
      content: {
        'application/json': {
          schema: SignResponse,
          example: {
            document: {
              base64: 'JVBERi0xLjcKJYGBgYEKCjUgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUK',
              contentType: 'application/pdf',
            },
          },
        },
        'application/pdf': { schema: z.string().openapi({ format: 'binary', description: 'The signed PDF.' }) },
      },
    },
    ...errorResponses(
      'VALIDATION_ERROR',
      validationExample(
        'level',
        'B-T needs a time-stamping authority, and TSA_URL is not set on this deployment; ask for B-B, or have the operator set TSA_URL',
      ),
      'INVALID_BASE64',
      'AUTHENTICATION_ERROR',
      {
        code: 'NOT_ACCEPTABLE',
        message:
          'The Accept header (text/html) takes none of what this request can answer: application/json or application/pdf. Ask for one of them, or send no Accept for application/json.',
      },
      'PAYLOAD_TOO_LARGE',
      {
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the request body as application/json or multipart/form-data, not text/plain.',
      },
      { code: 'INVALID_DOCUMENT', message: 'The PDF is encrypted; decrypt it before signing' },
      'DOCUMENT_TOO_COMPLEX',
      'DOCUMENT_FETCH_FAILED',
      'RATE_LIMIT_ERROR',
      SIGNING_NOT_CONFIGURED,
    ),
  },
});

const KeyResponse = z
  .object({
    certificate: z.string().openapi({ description: 'The signing certificate, PEM.' }),
    sha256: z.string().openapi({ description: 'SHA-256 fingerprint of the certificate (DER), lower-case hex.' }),
    subject: z.string(),
    issuer: z.string(),
    notBefore: z.string(),
    notAfter: z.string(),
  })
  .passthrough()
  .openapi('ServiceCertificate');

const keyRoute = createRoute({
  method: 'get',
  path: '/v1/verify/key',
  operationId: 'getSigningCertificate',
  summary: 'The service signing certificate',
  description:
    'The certificate Quire signs with (PEM), its SHA-256 fingerprint, validity and issuer, so a third party can trust it.',
  tags: ['Signatures'],
  responses: {
    200: {
      description: 'The service certificate.',
      headers: responseHeaders(),
      content: {
        'application/json': {
          schema: KeyResponse,
          example: {
            certificate:
              '-----BEGIN CERTIFICATE-----\nMIIDoDCCAoigAwIBAgIQMc+2Y4+p3M05RYAOjQeIOTANBgkqhkiG9w0BAQsFADBC\n…\n-----END CERTIFICATE-----\n',
            sha256: 'dd71d52125feb3cb762ab2eaeec4039a107708331ded1d6b6107e42b1462acf0',
            subject: 'CN=Quire Development Signing, O=Quire (development only)',
            issuer: 'CN=Quire Development CA, O=Quire (development only)',
            notBefore: '2026-11-28T11:41:34.000Z',
            notAfter: '2028-11-27T11:41:34.000Z',
          },
        },
      },
    },
    ...errorResponses('AUTHENTICATION_ERROR', 'RATE_LIMIT_ERROR', SIGNING_NOT_CONFIGURED),
  },
});

function signingSecrets(config: { signing: { keyPem?: string | undefined; chainPem?: string | undefined } }) {
  const { keyPem, chainPem } = config.signing;
  if (!keyPem || !chainPem) {
    throw new ApiError(SIGNING_NOT_CONFIGURED.code, SIGNING_NOT_CONFIGURED.message);
  }
  return { keyPem, chainPem };
}

/** The sign and verify-key routes, given the engine's per-isolate resources and the identity cache. */
export const signRouter = (engine: IsolateEngine, identities: IdentityCache) =>
  createRouter()
    .openapi(signRoute, async (c) => {
      const request = documentRequest(c, {
        json: () => c.req.valid('json') as z.output<typeof SignBodySchema>,
        form: () => c.req.valid('form') as z.output<typeof SignForm>,
      });
      const body = request.fields;
      const config = c.get('config');
      // Before any work: what the caller will take decides the answer's form (RFC 9110 §12.5.1).
      const answer = negotiate(c, SIGN_ANSWERS);
      const { keyPem, chainPem } = signingSecrets(config);
      // Before the document is fetched or converted: a level this deployment cannot make is a 400.
      const level = resolveSignatureLevel(body.level, config.signing.tsaUrl !== undefined);
      const identity = await identities.get(keyPem, chainPem);
      const input = await request.load(['pdf', 'docx']);
      const resources = engineResources(c.env, engine);
      const converted =
        input.format === 'docx'
          ? await convertDocxToPdf(input.bytes, { revisions: 'markup', limits: config.limits }, resources)
          : undefined;
      const pdf = converted?.pdf ?? input.bytes;
      const signed = await signDocument(pdf, body, {
        identity,
        engine: resources,
        limits: config.limits,
        now: new Date(),
        newEventId: () => crypto.randomUUID(),
        ...(config.signing.tsaUrl ? { tsa: { url: config.signing.tsaUrl } } : {}),
        level,
      });
      // The eventId is any string (docs/api.md): a CR, LF or NUL in it would make the header invalid.
      c.header('X-Quire-Event-Id', asciiHeaderText(signed.eventId));
      c.header('X-Quire-Certificate-Pages', String(signed.certificatePages));
      if (signed.certificateOmitted) c.header('X-Quire-Certificate-Omitted', signed.certificateOmitted);
      // A DOCX was laid out here, so the answer says what a conversion says (docs/api.md): its
      // pages with the certificate's, and what could not be drawn. The warnings also say what
      // validation data B-LT could not gather.
      if (converted) c.header('X-Quire-Pages', String(converted.pages + signed.certificatePages));
      const warnings = [...(converted?.warnings ?? []), ...signed.warnings];
      for (const [name, value] of Object.entries(warningHeaders(warnings))) c.header(name, value);
      if (answer === PDF_MEDIA_TYPE) {
        return fileAnswer(c, signed.pdf, PDF_MEDIA_TYPE, `${baseName(request.fileName ?? 'signed')}.pdf`);
      }
      return c.json({ document: { base64: encodeBase64(signed.pdf), contentType: PDF_MEDIA_TYPE } }, 200);
    })
    .openapi(keyRoute, async (c) => {
      const { chainPem } = signingSecrets(c.get('config'));
      return c.json(await describeServiceCertificate(chainPem), 200);
    });
