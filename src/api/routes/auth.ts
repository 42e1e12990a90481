import { createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../../errors';
import {
  AccountStore,
  CODE_PATTERN,
  CODE_TTL_SECONDS,
  EmailAddressSchema,
  type KeyRecordCache,
  type RegistrationDeps,
  requestVerificationCode,
  verifyCode,
} from '../auth';
import {
  type AppEnv,
  clientAddress,
  createRouter,
  type ErrorExample,
  enforceRateLimit,
  errorResponses,
  responseHeaders,
  validationExample,
} from '../http';
import { createMailTransport } from '../mail';

/** Per-IP limit of the auth routes, counted before anything else is looked at. */
const limitByAddress = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const address = clientAddress(c.req.header('CF-Connecting-IP'));
  await enforceRateLimit(c.env.AUTH_IP_RATE_LIMITER, `ip:${address}`, 'from this address to the auth endpoints');
  await next();
};

function limitByEmail(c: Context<AppEnv>, email: string): Promise<void> {
  return enforceRateLimit(c.env.AUTH_EMAIL_RATE_LIMITER, `email:${email}`, 'for this email');
}

function registrationDeps(c: Context<AppEnv>): RegistrationDeps {
  const config = c.get('config');
  if (!config.authSecret) {
    throw new ApiError('INTERNAL_ERROR', 'Registration is not available: the service is misconfigured.', {
      cause: new Error('AUTH_SECRET is not set'),
    });
  }
  return {
    store: new AccountStore(c.env.DB),
    mail: createMailTransport(config.mail, c.env.EMAIL),
    mailFrom: config.mail.from,
    secret: config.authSecret,
    now: Date.now,
  };
}

const RegisterResponse = z
  .object({
    message: z.literal('Check your email for a verification code.'),
    expiresInSeconds: z.number().int().openapi({ example: CODE_TTL_SECONDS }),
  })
  .openapi('RegisterResponse');

const ApiKeyResponse = z
  .object({
    apiKey: z.string().openapi({ description: 'Shown once; only its SHA-256 is kept.', example: 'qk_…' }),
    email: z.string(),
    createdAt: z.string().openapi({ example: '2026-11-22T10:00:00.000Z' }),
  })
  .openapi('ApiKey');

const TOO_MANY_FROM_ADDRESS: ErrorExample = {
  code: 'RATE_LIMIT_ERROR',
  message: 'Too many requests from this address to the auth endpoints; wait a minute and try again.',
};
const TOO_MANY_FOR_EMAIL: ErrorExample = {
  code: 'RATE_LIMIT_ERROR',
  message: 'Too many requests for this email; wait a minute and try again.',
};
const EXAMPLE_EMAIL = 'ada@example.com';

const register = createRoute({
  method: 'get',
  path: '/v1/auth/register',
  operationId: 'requestVerificationCode',
  summary: 'Request a verification code by email',
  description:
    'Sends a 6-digit code that expires in 15 minutes; a new request replaces the previous code. The answer is the same whether or not the email has registered before. At most 5 codes per email per hour.',
  tags: ['Accounts'],
  security: [],
  middleware: [limitByAddress()] as const,
  request: { query: z.object({ email: EmailAddressSchema }) },
  responses: {
    200: {
      description: 'A code was sent.',
      headers: responseHeaders(),
      content: {
        'application/json': {
          schema: RegisterResponse,
          example: { message: 'Check your email for a verification code.', expiresInSeconds: CODE_TTL_SECONDS },
        },
      },
    },
    ...errorResponses(
      validationExample('email', 'Invalid email address'),
      TOO_MANY_FROM_ADDRESS,
      TOO_MANY_FOR_EMAIL,
      {
        code: 'RATE_LIMIT_ERROR',
        message:
          'At most 5 verification codes are sent per email per hour; use the latest code you received, or try again later.',
      },
      { code: 'INTERNAL_ERROR', message: 'Registration is not available: the service is misconfigured.' },
    ),
  },
});

const verify = createRoute({
  method: 'get',
  path: '/v1/auth/verify',
  operationId: 'createApiKey',
  summary: 'Exchange a verification code for an API key',
  description:
    'A code works once, for 15 minutes; after 5 wrong tries it is dead. Each success issues a new key; earlier keys stay valid until revoked.',
  tags: ['Accounts'],
  security: [],
  middleware: [limitByAddress()] as const,
  request: {
    query: z.object({
      email: EmailAddressSchema,
      code: z.string().regex(CODE_PATTERN, 'The code is the 6 digits from the email').openapi({ example: '123456' }),
    }),
  },
  responses: {
    200: {
      description: 'A new API key.',
      headers: responseHeaders(),
      content: {
        'application/json': {
          schema: ApiKeyResponse,
          example: {
            apiKey: 'qk_7Hc2XkP9mQ4rT1vW8yZ3bN6dF0gJ5sL2aE9uR4iO1pK',
            email: EXAMPLE_EMAIL,
            createdAt: '2026-11-22T10:00:00.000Z',
          },
        },
      },
    },
    ...errorResponses(
      validationExample('code', 'The code is the 6 digits from the email'),
      {
        code: 'VALIDATION_ERROR',
        message: 'The code is wrong; 4 tries left.',
        details: [{ field: 'code', issue: 'The code is wrong; 4 tries left.' }],
      },
      TOO_MANY_FROM_ADDRESS,
      TOO_MANY_FOR_EMAIL,
      { code: 'INTERNAL_ERROR', message: 'Registration is not available: the service is misconfigured.' },
    ),
  },
});

const revoke = createRoute({
  method: 'delete',
  path: '/v1/auth/key',
  operationId: 'revokeApiKey',
  summary: 'Revoke the calling API key',
  description:
    'The key in the Authorization header stops working at once (within 30 seconds everywhere). Other keys of the account are not touched.',
  tags: ['Accounts'],
  responses: {
    200: {
      description: 'The key is revoked.',
      headers: responseHeaders(),
      content: {
        'application/json': {
          schema: z.object({ message: z.string(), revokedAt: z.string() }).openapi('RevokedKey'),
          example: { message: 'The API key has been revoked.', revokedAt: '2026-11-22T10:05:00.000Z' },
        },
      },
    },
    ...errorResponses('AUTHENTICATION_ERROR', 'RATE_LIMIT_ERROR'),
  },
});

/** The auth routes; revocation makes `keyCache` (apiKeyAuth's) forget the key at once. */
export const authRoutes = (keyCache: KeyRecordCache) =>
  createRouter()
    .openapi(register, async (c) => {
      const { email } = c.req.valid('query');
      await limitByEmail(c, email);
      await requestVerificationCode(registrationDeps(c), email);
      return c.json(
        { message: 'Check your email for a verification code.' as const, expiresInSeconds: CODE_TTL_SECONDS },
        200,
      );
    })
    .openapi(verify, async (c) => {
      const { email, code } = c.req.valid('query');
      await limitByEmail(c, email);
      return c.json(await verifyCode(registrationDeps(c), email, code), 200);
    })
    .openapi(revoke, async (c) => {
      const { id } = c.get('apiKey');
      const revokedAt = await new AccountStore(c.env.DB).revokeKey(id, new Date().toISOString());
      keyCache.forget(id);
      return c.json({ message: 'The API key has been revoked.', revokedAt }, 200);
    });
