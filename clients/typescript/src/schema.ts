/**
 * Generated from Quire's OpenAPI document (GET /openapi.json of the worker) by openapi-typescript 6:
 * `npm run client` (scripts/generate-client.mjs). Do not edit by hand; regenerate and commit.
 */

export interface paths {
  '/v1/health': {
    /**
     * Service health
     * @description Needs no key. HEAD is answered too, without a body.
     */
    get: operations['getHealth'];
    /**
     * Service health, headers only
     * @description Answers as GET /v1/health does, status and headers, without the body.
     */
    head: operations['headHealth'];
  };
  '/v1/auth/register': {
    /**
     * Request a verification code by email
     * @description Sends a 6-digit code that expires in 15 minutes; a new request replaces the previous code. The answer is the same whether or not the email has registered before. At most 5 codes per email per hour.
     */
    get: operations['requestVerificationCode'];
  };
  '/v1/auth/verify': {
    /**
     * Exchange a verification code for an API key
     * @description A code works once, for 15 minutes; after 5 wrong tries it is dead. Each success issues a new key; earlier keys stay valid until revoked.
     */
    get: operations['createApiKey'];
  };
  '/v1/auth/key': {
    /**
     * Revoke the calling API key
     * @description The key in the Authorization header stops working at once (within 30 seconds everywhere). Other keys of the account are not touched.
     */
    delete: operations['revokeApiKey'];
  };
  '/v1/convert': {
    /**
     * Convert a document
     * @description DOCX to PDF with Word-faithful page layout; Markdown (CommonMark + GFM) and HTML to DOCX or PDF. The answer is the file itself, with Content-Disposition naming it after the upload. Optional `fonts` parts bring the fonts to draw it with (docs/api.md "Bring your own fonts"). What could not be done (an image that could not be fetched or decoded, a font sent that the document does not name) is listed in X-Quire-Warnings and counted in X-Quire-Warning-Count; it never fails the conversion.
     */
    post: operations['convertDocument'];
  };
  '/v1/annotate': {
    /**
     * Fill a DOCX template
     * @description Fills content controls (matched by w:tag, a JSON tag's fieldId/id/group, or w:id) and {{placeholders}} with text, images, signatures, table rows and checkbox states, in place: parts the request does not touch stay byte for byte. Every id or group that matches nothing is listed in one 422 FIELD_NOT_FOUND, and nothing is filled. The request is JSON with the template as a document input, or multipart/form-data with the template as the `file` part and `fields` as a form field holding its JSON text. The answer is JSON with the document as base64, or with `Accept` naming the type `to` gives (the DOCX type, or application/pdf with to=pdf) the file itself; an Accept that takes neither is 406.
     */
    post: operations['annotateTemplate'];
  };
  '/v1/sign': {
    /**
     * Sign a PDF or DOCX (PAdES)
     * @description Appends the audit-trail certificate pages (unless certificate.enabled is false) and signs the document with the service identity: PAdES baseline B-B, B-T, B-LT or B-LTA (`level`; default B-T with TSA_URL, else B-B), SubFilter ETSI.CAdES.detached, SHA-256, in incremental updates so earlier signatures stay valid. A DOCX is converted to PDF first. The request is JSON with the document as a document input, or multipart/form-data with the document as the `file` part and the other fields as form fields of the same names (strings as they are, objects and arrays as JSON text). The answer is JSON with the PDF as base64, or with `Accept: application/pdf` the PDF itself; an Accept that takes neither is 406.
     */
    post: operations['signDocument'];
  };
  '/v1/verify/key': {
    /**
     * The service signing certificate
     * @description The certificate Quire signs with (PEM), its SHA-256 fingerprint, validity and issuer, so a third party can trust it.
     */
    get: operations['getSigningCertificate'];
  };
  '/v1/verify': {
    /**
     * Verify the signatures of a PDF
     * @description Checks every signature: ByteRange coverage, integrity (messageDigest), the signer’s signature, what later revisions changed, whether the certificate chains to the service certificate or TRUSTED_ROOTS, its revocation status (OCSP and CRLs in the signature or the DSS, or fetched with REVOCATION_CHECK=online) and the PAdES baseline level reached. `valid` is true when there is at least one signature, every one is intact, cryptographically valid and covers its whole revision, and later revisions hold only signatures, form filling or annotations; `trusted` (false for a revoked certificate) is reported beside it. JSON `{document}` or a multipart `file` part.
     */
    post: operations['verifyDocument'];
  };
  '/v1/merge': {
    /**
     * Merge documents (planned)
     * @description Planned; answers 501 NOT_IMPLEMENTED until it ships.
     */
    post: operations['mergeDocuments'];
  };
}

export type webhooks = Record<string, never>;

export interface components {
  schemas: {
    Health: {
      /** @enum {string} */
      status: 'healthy';
      /**
       * @description Server time, ISO 8601.
       * @example 2026-11-22T10:00:00.000Z
       */
      timestamp: string;
      /** @example 0.1.0 */
      version: string;
    };
    Error: {
      /**
       * @example VALIDATION_ERROR
       * @enum {string}
       */
      code:
        | 'VALIDATION_ERROR'
        | 'INVALID_BASE64'
        | 'AUTHENTICATION_ERROR'
        | 'NOT_FOUND'
        | 'METHOD_NOT_ALLOWED'
        | 'NOT_ACCEPTABLE'
        | 'PAYLOAD_TOO_LARGE'
        | 'UNSUPPORTED_MEDIA_TYPE'
        | 'INVALID_DOCUMENT'
        | 'DOCUMENT_TOO_COMPLEX'
        | 'FIELD_NOT_FOUND'
        | 'DOCUMENT_FETCH_FAILED'
        | 'RATE_LIMIT_ERROR'
        | 'INTERNAL_ERROR'
        | 'NOT_IMPLEMENTED';
      /**
       * @description The HTTP reason phrase.
       * @example Bad Request
       */
      error: string;
      /** @description What was wrong and how to fix it. */
      message: string;
      /** @description Equals the X-Request-Id response header. */
      requestId: string;
      /** @description Present for validation errors: one entry per problem. */
      details?: {
        field: string;
        issue: string;
      }[];
    };
    RegisterResponse: {
      /** @enum {string} */
      message: 'Check your email for a verification code.';
      /** @example 900 */
      expiresInSeconds: number;
    };
    ApiKey: {
      /**
       * @description Shown once; only its SHA-256 is kept.
       * @example qk_…
       */
      apiKey: string;
      email: string;
      /** @example 2026-11-22T10:00:00.000Z */
      createdAt: string;
    };
    RevokedKey: {
      message: string;
      revokedAt: string;
    };
    AnnotateResponse: {
      document: {
        /** @description The filled document, plain base64 (as sign answers). */
        base64: string;
        /**
         * @deprecated
         * @description Deprecated: the same document as a data URI (data:<mime>;base64,…), the form `base64` had before; read `base64`.
         */
        dataUri: string;
        /** @enum {string} */
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' | 'application/pdf';
      };
    };
    AnnotateRequest: {
      document: components['schemas']['DocumentInput'];
      fields: components['schemas']['AnnotateField'][];
    };
    /**
     * @description A document, given inline as base64 or by URL (exactly one of the two). Its format is sniffed from its bytes; a file name, data URI type or Content-Type is not trusted.
     * @example {
     *   "url": "https://example.com/contract.pdf"
     * }
     */
    DocumentInput: {
      /**
       * @description The document as base64 (standard or URL-safe alphabet, padding optional, whitespace ignored), or as a data URI `data:<mime>;base64,<data>`.
       * @example JVBERi0xLjcK…
       */
      base64?: string;
      /**
       * Format: uri
       * @description A public https: URL to fetch the document from. At most 5 redirects, 15 s and the document size limit; private, loopback and link-local addresses are refused.
       * @example https://example.com/contract.pdf
       */
      url?: string;
    };
    /**
     * @example {
     *   "id": "customer_name",
     *   "type": "text",
     *   "value": "Ada Lovelace"
     * }
     */
    AnnotateField: {
      /** @description A content control (its w:tag, the fieldId/id in a JSON tag, or its w:id) or a {{placeholder}} name. */
      id?: string;
      /** @description Every content control whose JSON w:tag has this "group" (or "groupId"). */
      group?: string;
      /** @enum {string} */
      type: 'text' | 'image' | 'signature' | 'table' | 'checkbox';
      /** @description text: a string; image: a data:image/… URI or https URL; signature: an image as for image, or the signer's name as text; table: rows of strings; checkbox: "true" or "false". */
      value?: unknown;
      options?: {
        keepTextNodeStyles?: boolean;
        /** @description CSS pixels (96 per inch). With one side given, the other keeps the aspect ratio. */
        dimensions?: {
          width?: number;
          height?: number;
        };
        copyRowStyle?: boolean;
      };
    };
    SignResponse: {
      document: {
        /** @description The signed PDF, plain base64. */
        base64: string;
        /** @enum {string} */
        contentType: 'application/pdf';
      };
    };
    /**
     * @example {
     *   "document": {
     *     "url": "https://example.com/contract.pdf"
     *   },
     *   "signer": {
     *     "email": "ada@example.com",
     *     "name": "Ada Lovelace",
     *     "ip": "203.0.113.7"
     *   },
     *   "auditTrail": [
     *     {
     *       "type": "view",
     *       "timestamp": "2026-11-22T10:00:00Z"
     *     },
     *     {
     *       "type": "submit",
     *       "timestamp": "2026-11-22T10:02:10Z",
     *       "data": {
     *         "fields": 3
     *       }
     *     }
     *   ]
     * }
     */
    SignRequest: {
      document: components['schemas']['DocumentInput'];
      signer: components['schemas']['Signer'];
      auditTrail: components['schemas']['AuditEvent'][];
      eventId?: string;
      metadata?: {
        [key: string]: unknown;
      };
      certificate?: {
        enabled: boolean;
      };
      /**
       * @description The PAdES baseline level (ETSI EN 319 142-1). B-B: the signature. B-T: with an RFC 3161 timestamp over it. B-LT: then, in a second incremental update, a /DSS with the certificates of the signer and the TSA and their OCSP responses or CRLs (what could not be gathered is listed in X-Quire-Warnings). B-LTA: then, in a third, a document timestamp over everything. Default B-T when the deployment has a TSA (TSA_URL), else B-B; B-T and above without TSA_URL is 400.
       * @example B-LT
       * @enum {string}
       */
      level?: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';
    };
    Signer: {
      /** Format: email */
      email: string;
      name: string;
      /** @example 203.0.113.7 */
      ip?: string;
      userAgent?: string;
    };
    AuditEvent: {
      /** @enum {string} */
      type: 'ready' | 'view' | 'scroll' | 'field_change' | 'submit' | 'sign';
      /** Format: date-time */
      timestamp: string;
      data?: {
        [key: string]: unknown;
      };
    };
    ServiceCertificate: {
      /** @description The signing certificate, PEM. */
      certificate: string;
      /** @description SHA-256 fingerprint of the certificate (DER), lower-case hex. */
      sha256: string;
      subject: string;
      issuer: string;
      notBefore: string;
      notAfter: string;
      [key: string]: unknown;
    };
    VerifyResponse: {
      valid: boolean;
      /** @description The first failure in plain words, or what was checked. */
      reason: string;
      signatures: {
        field: string;
        signer: {
          name: string | null;
          email: string | null;
          certificate: {
            subject: string;
            issuer: string;
            serialNumber: string;
            notBefore: string;
            notAfter: string;
            sha256: string;
          } | null;
        };
        signedAt: string | null;
        subFilter: string | null;
        digestAlgorithm: string;
        signatureAlgorithm: string;
        /** @description The digest over the ByteRange matches messageDigest. */
        intact: boolean;
        /** @description The signer's signature over the signed attributes verifies with the certificate's key. */
        cryptographicallyValid: boolean;
        /** @enum {string} */
        coverage: 'entire-file' | 'entire-revision' | 'partial';
        /** @enum {string} */
        modificationsAfterSigning: 'none' | 'signatures' | 'form-filling' | 'annotations' | 'other';
        /** @description The certificate chains to a configured root at signing time, and is not known to be revoked. */
        trusted: boolean;
        /** @enum {string} */
        trust: 'trusted' | 'untrusted' | 'unknown';
        /**
         * @description The signer certificate's status at the best signature time, from an OCSP response or CRL of its issuer whose signature verifies: good, revoked (then trusted is false), or unknown when no usable data says.
         * @enum {string}
         */
        revocation: 'good' | 'revoked' | 'unknown';
        /**
         * @description Where the deciding OCSP response or CRL came from: the signature itself (cms), the PDF’s DSS (dss), or a live request (online, with REVOCATION_CHECK=online); null when unknown.
         * @enum {string|null}
         */
        revocationSource: 'cms' | 'dss' | 'online' | null;
        timestamp: {
          time: string | null;
          verified: boolean;
        } | null;
        /**
         * @description The PAdES baseline level reached (ETSI EN 319 142-1 §6): B-B, B-T (a signature or document timestamp), B-LT (validation data in a DSS added later), B-LTA (a document timestamp over that DSS). null for adbe.* signatures, non-baseline CMS and document timestamps.
         * @enum {string|null}
         */
        level: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA' | null;
        problems: string[];
      }[];
      document: {
        pages: number | null;
        revisions: number;
        sha256: string;
      };
    };
    VerifyRequest: {
      document: components['schemas']['DocumentInput'];
    };
  };
  responses: never;
  parameters: {};
  requestBodies: never;
  headers: {
    /**
     * @description The request's id: the caller's own X-Request-Id when it is a sane token (1–128 characters of [A-Za-z0-9_=-]), else a new UUID. An error body repeats it as requestId; quote it when reporting a problem.
     * @example 3f1c2b9e-6d7a-4c5e-9b8f-2a4d6e8c0b1f
     */
    'X-Request-Id': string;
    /**
     * @description Always no-store (RFC 9111 §5.2.2.5): documents and keys must never sit in a shared cache.
     * @example no-store
     */
    'Cache-Control': 'no-store';
    /**
     * @description Seconds to wait before trying again (RFC 9110 §10.2.3): 60 for the per-minute limits (the length of their window); for the hourly cap of verification codes, until the oldest code of that hour is an hour old.
     * @example 60
     */
    'Retry-After': number;
    /**
     * @description The scheme a key is sent with (RFC 6750 §3): Authorization: Bearer <API key>.
     * @example Bearer realm="quire"
     */
    'WWW-Authenticate': 'Bearer realm="quire"';
    /**
     * @description attachment (RFC 6266), named after the upload with the extension of the answer; a name that is not plain ASCII is also given exactly in filename* (RFC 8187, UTF-8), and an upload without a usable name is called "document".
     * @example attachment; filename="contract.pdf"
     */
    'Content-Disposition': string;
    /**
     * @description The number of pages of the PDF answer.
     * @example 3
     */
    'X-Quire-Pages': number;
    /**
     * @description What could not be done as the document asks (an image that could not be fetched or decoded, characters no bundled face has …), separated by " | ". Characters outside visible ASCII are written \uXXXX, and a list longer than 2,000 characters ends with "(N more)". Absent when there is nothing to report.
     * @example image 1 (https://example.com/chart.png): the image URL could not be fetched: the connection failed or broke off. Check that the URL is reachable from the internet.
     */
    'X-Quire-Warnings': string;
    /**
     * @description How many warnings there are (X-Quire-Warnings may cut its list short). Absent when there are none.
     * @example 1
     */
    'X-Quire-Warning-Count': number;
    /**
     * @description The eventId of the signing (as sent, or the UUID generated for it); characters outside visible ASCII are written \uXXXX.
     * @example 9192da1b-c65d-4134-a18e-a5a20090d429
     */
    'X-Quire-Event-Id': string;
    /**
     * @description How many audit-trail certificate pages were appended (0 when none were).
     * @example 1
     */
    'X-Quire-Certificate-Pages': number;
    /** @description Why no certificate pages were appended, when the PDF was already signed. Absent otherwise. */
    'X-Quire-Certificate-Omitted': string;
  };
  pathItems: never;
}

export type $defs = Record<string, never>;

export type external = Record<string, never>;

export interface operations {
  /**
   * Service health
   * @description Needs no key. HEAD is answered too, without a body.
   */
  getHealth: {
    responses: {
      /** @description The service is up. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
      /** @description Internal Server Error: INTERNAL_ERROR */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  /**
   * Service health, headers only
   * @description Answers as GET /v1/health does, status and headers, without the body.
   */
  headHealth: {
    responses: {
      /** @description The service is up. (no body) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: never;
      };
      /** @description Internal Server Error: INTERNAL_ERROR (no body) */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: never;
      };
    };
  };
  /**
   * Request a verification code by email
   * @description Sends a 6-digit code that expires in 15 minutes; a new request replaces the previous code. The answer is the same whether or not the email has registered before. At most 5 codes per email per hour.
   */
  requestVerificationCode: {
    parameters: {
      query: {
        /** @description Email address; trimmed and lower-cased. */
        email: string;
      };
    };
    responses: {
      /** @description A code was sent. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['RegisterResponse'];
        };
      };
      /** @description Bad Request: VALIDATION_ERROR */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests: RATE_LIMIT_ERROR */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Retry-After': components['headers']['Retry-After'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal Server Error: INTERNAL_ERROR */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  /**
   * Exchange a verification code for an API key
   * @description A code works once, for 15 minutes; after 5 wrong tries it is dead. Each success issues a new key; earlier keys stay valid until revoked.
   */
  createApiKey: {
    parameters: {
      query: {
        /** @description Email address; trimmed and lower-cased. */
        email: string;
        code: string;
      };
    };
    responses: {
      /** @description A new API key. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['ApiKey'];
        };
      };
      /** @description Bad Request: VALIDATION_ERROR */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests: RATE_LIMIT_ERROR */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Retry-After': components['headers']['Retry-After'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal Server Error: INTERNAL_ERROR */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  /**
   * Revoke the calling API key
   * @description The key in the Authorization header stops working at once (within 30 seconds everywhere). Other keys of the account are not touched.
   */
  revokeApiKey: {
    responses: {
      /** @description The key is revoked. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['RevokedKey'];
        };
      };
      /** @description Unauthorized: AUTHENTICATION_ERROR */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests: RATE_LIMIT_ERROR */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Retry-After': components['headers']['Retry-After'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal Server Error: INTERNAL_ERROR */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  /**
   * Convert a document
   * @description DOCX to PDF with Word-faithful page layout; Markdown (CommonMark + GFM) and HTML to DOCX or PDF. The answer is the file itself, with Content-Disposition naming it after the upload. Optional `fonts` parts bring the fonts to draw it with (docs/api.md "Bring your own fonts"). What could not be done (an image that could not be fetched or decoded, a font sent that the document does not name) is listed in X-Quire-Warnings and counted in X-Quire-Warning-Count; it never fails the conversion.
   */
  convertDocument: {
    parameters: {
      query?: {
        /** @description The uploaded format. When absent it is inferred from the file name and the bytes; when it disagrees with the bytes, 415. */
        from?: 'docx' | 'md' | 'html';
        /** @description The output format (default pdf). */
        to?: 'pdf' | 'docx';
        /** @description How tracked changes print: markup (insertions underlined and coloured, deletions struck through, change bars), final (as if accepted) or original (as if rejected). */
        revisions?: 'markup' | 'final' | 'original';
        /** @description The paper, for md/html sources: a5, a4, a3, b5, b4, jis-b5, jis-b4, letter, legal, ledger (any case), or width x height in CSS absolute lengths (px, pt, pc, in, cm, mm, Q; a unit is required), e.g. `210mm x 297mm`, `8.5in 11in`, each side 1in to 200in. Absent: the document's CSS `@page { size }`, else letter. Given, it wins over the CSS. */
        pageSize?: string;
        /** @description true/false/1/0, for md/html sources: turn the paper (the pageSize given, else the CSS @page size, else letter) to landscape. Default false. */
        landscape?: 'true' | 'false' | '1' | '0';
        /** @description Page margins, for md/html sources, as CSS `margin`: 1 to 4 absolute lengths (top, right, bottom, left), e.g. `1in`, `10mm 15mm`. Not negative, and leaving at least 1in each way to write in. Absent: the CSS `@page` margins, else 1cm for HTML to PDF (a browser's default print margins) and 1in for Markdown and for DOCX output. */
        margin?: string;
        /** @description true/false/1/0, for md/html sources: paint CSS backgrounds (colours behind text, cells and blocks). Default false for PDF output, as a browser prints; true for DOCX output, whose shading Word shows and prints. */
        printBackground?: 'true' | 'false' | '1' | '0';
        /** @description For md/html sources: the address the document's relative URLs (images, links) are relative to, an absolute https URL (http only where ALLOW_HTTP_URLS allows it, as for document URLs). A `<base href>` in the document wins, itself resolved against baseUrl. Without any base, a protocol-relative URL (`//host/a.png`) takes https: and a relative image is not loaded (a warning). */
        baseUrl?: string;
        /** @description PDF output only: the pages to write, 1-based, as Chromium's print takes them: pages and ranges separated by commas; a range open at the end (`10-`) runs to the last page. Each page chosen is written once, in document order. Ranges past the last page: a warning, and the pages that exist are written; none of them existing is 400. Default: every page. */
        pageRanges?: string;
      };
    };
    /** @description The document as the part `file` (binary, so no example here: `curl -F file=@contract.docx`), and optional `fonts` parts. */
    requestBody: {
      content: {
        'multipart/form-data': {
          /**
           * Format: binary
           * @description The document: exactly one part named file.
           */
          file: Blob;
          /** @description Fonts to draw the document with (optional, repeatable): TrueType or OpenType files with TrueType outlines, each matched by the family name in its own name table to the fonts the document (or its CSS) names. Fonts embedded in a DOCX come first, then these, then the FONTS library, then the bundled substitutes. At most 12 fonts, 8 MiB each and 16 MiB together (neither above MAX_DOCUMENT_BYTES). A part that is not such a font is 415 (WOFF, WOFF2, collections, CFF outlines, anything else) or 422 (a damaged font), naming the part. */
          fonts?: Blob[];
          /** @description The same as fonts, for clients that name repeated parts with []. */
          'fonts[]'?: Blob[];
          /**
           * @description The same as the query parameter pageSize; give it either way (given both ways, the two must agree).
           * @example a4
           */
          pageSize?: string;
          /**
           * @description The same as the query parameter landscape; give it either way (given both ways, the two must agree).
           * @example true
           * @enum {string}
           */
          landscape?: 'true' | 'false' | '1' | '0';
          /**
           * @description The same as the query parameter margin; give it either way (given both ways, the two must agree).
           * @example 10mm 15mm
           */
          margin?: string;
          /**
           * @description The same as the query parameter printBackground; give it either way (given both ways, the two must agree).
           * @example true
           * @enum {string}
           */
          printBackground?: 'true' | 'false' | '1' | '0';
          /**
           * @description The same as the query parameter baseUrl; give it either way (given both ways, the two must agree).
           * @example https://example.com/reports/
           */
          baseUrl?: string;
          /**
           * @description The same as the query parameter pageRanges; give it either way (given both ways, the two must agree).
           * @example 1-3,7,10-
           */
          pageRanges?: string;
        };
      };
    };
    responses: {
      /** @description The converted document itself, as raw bytes (no example can show them). X-Quire-Pages counts the pages of a PDF answer. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Content-Disposition': components['headers']['Content-Disposition'];
          'X-Quire-Pages': components['headers']['X-Quire-Pages'];
          'X-Quire-Warnings': components['headers']['X-Quire-Warnings'];
          'X-Quire-Warning-Count': components['headers']['X-Quire-Warning-Count'];
        };
        content: {
          'application/pdf': Blob;
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document': Blob;
        };
      };
      /** @description Bad Request: VALIDATION_ERROR */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unauthorized: AUTHENTICATION_ERROR */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Payload Too Large: PAYLOAD_TOO_LARGE */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported Media Type: UNSUPPORTED_MEDIA_TYPE */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unprocessable Entity: INVALID_DOCUMENT, DOCUMENT_TOO_COMPLEX */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests: RATE_LIMIT_ERROR */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Retry-After': components['headers']['Retry-After'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal Server Error: INTERNAL_ERROR */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  /**
   * Fill a DOCX template
   * @description Fills content controls (matched by w:tag, a JSON tag's fieldId/id/group, or w:id) and {{placeholders}} with text, images, signatures, table rows and checkbox states, in place: parts the request does not touch stay byte for byte. Every id or group that matches nothing is listed in one 422 FIELD_NOT_FOUND, and nothing is filled. The request is JSON with the template as a document input, or multipart/form-data with the template as the `file` part and `fields` as a form field holding its JSON text. The answer is JSON with the document as base64, or with `Accept` naming the type `to` gives (the DOCX type, or application/pdf with to=pdf) the file itself; an Accept that takes neither is 406.
   */
  annotateTemplate: {
    parameters: {
      query?: {
        /** @description The output format (default docx). */
        to?: 'docx' | 'pdf';
      };
    };
    /** @description JSON with the template as a document input (base64 or a URL), or a multipart form with the template as the part `file` (binary, so no example here: `curl -F file=@offer.docx -F fields='[{"id":"name","type":"text","value":"Ada"}]'`) and `fields` as JSON text. */
    requestBody: {
      content: {
        /**
         * @example {
         *   "document": {
         *     "url": "https://example.com/offer-template.docx"
         *   },
         *   "fields": [
         *     {
         *       "id": "customer_name",
         *       "type": "text",
         *       "value": "Ada Lovelace"
         *     },
         *     {
         *       "id": "items",
         *       "type": "table",
         *       "value": [
         *         [
         *           "Engine maintenance",
         *           "12"
         *         ],
         *         [
         *           "Punched cards",
         *           "200"
         *         ]
         *       ]
         *     },
         *     {
         *       "id": "accepted",
         *       "type": "checkbox",
         *       "value": "true"
         *     },
         *     {
         *       "id": "signature",
         *       "type": "signature",
         *       "value": "Ada Lovelace"
         *     }
         *   ]
         * }
         */
        'application/json': components['schemas']['AnnotateRequest'];
        'multipart/form-data': {
          /**
           * Format: binary
           * @description The DOCX template: exactly one part named file.
           */
          file: Blob;
          /** @description The JSON body's "fields", as JSON text (application/json). */
          fields: string;
        };
      };
    };
    responses: {
      /** @description The filled document: JSON with it as base64, or the file itself when Accept asks for the type `to` gives (Content-Disposition names it after the uploaded file, or filled.docx / filled.pdf). With to=pdf, X-Quire-Pages counts its pages and X-Quire-Warnings / X-Quire-Warning-Count say what the conversion could not draw. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Content-Disposition': components['headers']['Content-Disposition'];
          'X-Quire-Pages': components['headers']['X-Quire-Pages'];
          'X-Quire-Warnings': components['headers']['X-Quire-Warnings'];
          'X-Quire-Warning-Count': components['headers']['X-Quire-Warning-Count'];
        };
        content: {
          'application/json': components['schemas']['AnnotateResponse'];
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document': Blob;
          'application/pdf': Blob;
        };
      };
      /** @description Bad Request: VALIDATION_ERROR, INVALID_BASE64 */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unauthorized: AUTHENTICATION_ERROR */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not Acceptable: NOT_ACCEPTABLE */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Payload Too Large: PAYLOAD_TOO_LARGE */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported Media Type: UNSUPPORTED_MEDIA_TYPE */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unprocessable Entity: INVALID_DOCUMENT, DOCUMENT_TOO_COMPLEX, FIELD_NOT_FOUND, DOCUMENT_FETCH_FAILED */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests: RATE_LIMIT_ERROR */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Retry-After': components['headers']['Retry-After'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal Server Error: INTERNAL_ERROR */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  /**
   * Sign a PDF or DOCX (PAdES)
   * @description Appends the audit-trail certificate pages (unless certificate.enabled is false) and signs the document with the service identity: PAdES baseline B-B, B-T, B-LT or B-LTA (`level`; default B-T with TSA_URL, else B-B), SubFilter ETSI.CAdES.detached, SHA-256, in incremental updates so earlier signatures stay valid. A DOCX is converted to PDF first. The request is JSON with the document as a document input, or multipart/form-data with the document as the `file` part and the other fields as form fields of the same names (strings as they are, objects and arrays as JSON text). The answer is JSON with the PDF as base64, or with `Accept: application/pdf` the PDF itself; an Accept that takes neither is 406.
   */
  signDocument: {
    /** @description JSON with the document as a document input (base64 or a URL), or a multipart form with the document as the part `file` (binary, so no example here: `curl -F file=@contract.pdf -F signer='{"name":"Ada Lovelace","email":"ada@example.com"}'`) and the other fields as form fields. */
    requestBody: {
      content: {
        /**
         * @example {
         *   "document": {
         *     "url": "https://example.com/contract.pdf"
         *   },
         *   "signer": {
         *     "name": "Ada Lovelace",
         *     "email": "ada@example.com"
         *   },
         *   "auditTrail": [
         *     {
         *       "type": "view",
         *       "timestamp": "2026-11-22T10:00:00Z"
         *     },
         *     {
         *       "type": "submit",
         *       "timestamp": "2026-11-22T10:02:10Z",
         *       "data": {
         *         "ip": "192.0.2.7"
         *       }
         *     }
         *   ]
         * }
         */
        'application/json': components['schemas']['SignRequest'];
        'multipart/form-data': {
          /**
           * Format: binary
           * @description The PDF or DOCX to sign: exactly one part named file.
           */
          file: Blob;
          /** @description The JSON body's "signer", as JSON text (application/json). */
          signer: string;
          /** @description The JSON body's "auditTrail", as JSON text (application/json). */
          auditTrail: string;
          /** @description The JSON body's "eventId", as plain text. */
          eventId?: string;
          /** @description The JSON body's "metadata", as JSON text (application/json). */
          metadata?: string;
          /** @description The JSON body's "certificate", as JSON text (application/json). */
          certificate?: string;
          /** @description The JSON body's "level", as plain text. */
          level?: string;
        };
      };
    };
    responses: {
      /** @description The signed PDF: JSON with it as base64, or the PDF itself when Accept asks for application/pdf (Content-Disposition names it after the uploaded file, or signed.pdf). X-Quire-Event-Id carries the event id; X-Quire-Certificate-Pages the pages appended; X-Quire-Certificate-Omitted why none were, when the PDF was already signed. A DOCX is converted first, and then X-Quire-Pages counts the pages of the answer. X-Quire-Warnings / X-Quire-Warning-Count say what the conversion could not draw, and what validation data B-LT or B-LTA could not gather (an OCSP responder that failed, a certificate that names none). */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Content-Disposition': components['headers']['Content-Disposition'];
          'X-Quire-Event-Id': components['headers']['X-Quire-Event-Id'];
          'X-Quire-Certificate-Pages': components['headers']['X-Quire-Certificate-Pages'];
          'X-Quire-Certificate-Omitted': components['headers']['X-Quire-Certificate-Omitted'];
          'X-Quire-Pages': components['headers']['X-Quire-Pages'];
          'X-Quire-Warnings': components['headers']['X-Quire-Warnings'];
          'X-Quire-Warning-Count': components['headers']['X-Quire-Warning-Count'];
        };
        content: {
          'application/json': components['schemas']['SignResponse'];
          'application/pdf': Blob;
        };
      };
      /** @description Bad Request: VALIDATION_ERROR, INVALID_BASE64 */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unauthorized: AUTHENTICATION_ERROR */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not Acceptable: NOT_ACCEPTABLE */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Payload Too Large: PAYLOAD_TOO_LARGE */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported Media Type: UNSUPPORTED_MEDIA_TYPE */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unprocessable Entity: INVALID_DOCUMENT, DOCUMENT_TOO_COMPLEX, DOCUMENT_FETCH_FAILED */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests: RATE_LIMIT_ERROR */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Retry-After': components['headers']['Retry-After'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal Server Error: INTERNAL_ERROR */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  /**
   * The service signing certificate
   * @description The certificate Quire signs with (PEM), its SHA-256 fingerprint, validity and issuer, so a third party can trust it.
   */
  getSigningCertificate: {
    responses: {
      /** @description The service certificate. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['ServiceCertificate'];
        };
      };
      /** @description Unauthorized: AUTHENTICATION_ERROR */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests: RATE_LIMIT_ERROR */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Retry-After': components['headers']['Retry-After'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal Server Error: INTERNAL_ERROR */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  /**
   * Verify the signatures of a PDF
   * @description Checks every signature: ByteRange coverage, integrity (messageDigest), the signer’s signature, what later revisions changed, whether the certificate chains to the service certificate or TRUSTED_ROOTS, its revocation status (OCSP and CRLs in the signature or the DSS, or fetched with REVOCATION_CHECK=online) and the PAdES baseline level reached. `valid` is true when there is at least one signature, every one is intact, cryptographically valid and covers its whole revision, and later revisions hold only signatures, form filling or annotations; `trusted` (false for a revoked certificate) is reported beside it. JSON `{document}` or a multipart `file` part.
   */
  verifyDocument: {
    /** @description The PDF: as JSON `{document}` (base64 or a URL), or as the multipart part `file` (binary, so no example here: `curl -F file=@signed.pdf`). */
    requestBody: {
      content: {
        'application/json': components['schemas']['VerifyRequest'];
        'multipart/form-data': {
          /**
           * Format: binary
           * @description The PDF: exactly one part named file.
           */
          file: Blob;
        };
      };
    };
    responses: {
      /** @description The verification report. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['VerifyResponse'];
        };
      };
      /** @description Bad Request: VALIDATION_ERROR, INVALID_BASE64 */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unauthorized: AUTHENTICATION_ERROR */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Payload Too Large: PAYLOAD_TOO_LARGE */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unsupported Media Type: UNSUPPORTED_MEDIA_TYPE */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Unprocessable Entity: INVALID_DOCUMENT, DOCUMENT_FETCH_FAILED */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests: RATE_LIMIT_ERROR */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Retry-After': components['headers']['Retry-After'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal Server Error: INTERNAL_ERROR */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  /**
   * Merge documents (planned)
   * @description Planned; answers 501 NOT_IMPLEMENTED until it ships.
   */
  mergeDocuments: {
    responses: {
      /** @description Unauthorized: AUTHENTICATION_ERROR */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Too Many Requests: RATE_LIMIT_ERROR */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          'Retry-After': components['headers']['Retry-After'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal Server Error: INTERNAL_ERROR */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not Implemented: NOT_IMPLEMENTED */
      501: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
}
