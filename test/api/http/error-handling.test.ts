import { createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { conventions } from '../../../src/api/http/conventions';
import { handleError } from '../../../src/api/http/error-response';
import { requireMediaType } from '../../../src/api/http/media-type';
import { createRouter } from '../../../src/api/http/router';
import { expectError } from '../../helpers/api';

/**
 * Routes that take bodies arrive in later issues; this router is built from the same factory,
 * hook, middleware and error handler as the real ones, to pin down how they fail.
 */
function probeApp() {
  const app = createRouter();
  app.use('*', ...conventions());
  app.onError(handleError);
  const Body = z.object({
    signer: z.object({ email: z.email(), name: z.string().min(2) }).strict(),
    events: z.array(z.object({ type: z.enum(['submit', 'view']) })).min(1),
  });
  app.use('/probe', requireMediaType('application/json'));
  app.openapi(
    createRoute({
      method: 'post',
      path: '/probe',
      request: { body: { content: { 'application/json': { schema: Body } }, required: true } },
      responses: { 200: { description: 'ok' } },
    }),
    (c) => c.json({ ok: true }, 200),
  );
  app.get('/boom', () => {
    throw new Error('secret at /srv/internal/key.pem');
  });
  return app;
}

function post(body: string, contentType = 'application/json') {
  return probeApp().request('/probe', { method: 'POST', body, headers: { 'Content-Type': contentType } }, {});
}

describe('validation errors', () => {
  it('become 400 VALIDATION_ERROR with a message and details per problem', async () => {
    const res = await post(JSON.stringify({ signer: { email: 'not-an-email', name: 'A' }, events: [{ type: 'x' }] }));
    const body = await expectError(res, 400, 'VALIDATION_ERROR');
    expect(body.error).toBe('Bad Request');
    expect(body.message).toMatch(/^signer\.email: Invalid email address/);
    expect(body.details).toEqual(
      expect.arrayContaining([
        { field: 'signer.email', issue: 'Invalid email address' },
        expect.objectContaining({ field: 'signer.name' }),
        expect.objectContaining({ field: 'events[0].type' }),
      ]),
    );
  });

  it('say "Required" for a missing field and name unknown keys', async () => {
    const res = await post(JSON.stringify({ signer: { email: 'a@b.co', name: 'Ann', extra: 1 } }));
    const body = await expectError(res, 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual(
      expect.arrayContaining([
        { field: 'events', issue: 'Required (expected array)' },
        expect.objectContaining({ field: 'signer.extra', issue: expect.stringContaining('extra') }),
      ]),
    );
  });

  it('turn malformed JSON into 400 VALIDATION_ERROR', async () => {
    const res = await post('{"signer":');
    const body = await expectError(res, 400, 'VALIDATION_ERROR');
    expect(body.message).toMatch(/JSON/);
    // Like every VALIDATION_ERROR, it says where in `details` (docs/api.md "Errors").
    expect(body.details).toEqual([{ field: 'body', issue: body.message }]);
  });
});

describe('request content type', () => {
  it('is 415 UNSUPPORTED_MEDIA_TYPE when it is not the documented one', async () => {
    const res = await post('a=b', 'application/x-www-form-urlencoded');
    const body = await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(body.message).toContain('application/json');
  });

  it('accepts parameters such as charset', async () => {
    const res = await post(
      JSON.stringify({ signer: { email: 'a@b.co', name: 'Ann' }, events: [{ type: 'view' }] }),
      'application/json; charset=utf-8',
    );
    expect(res.status).toBe(200);
  });
});

describe('unexpected errors', () => {
  it('are 500 INTERNAL_ERROR and leak nothing', async () => {
    const res = await probeApp().request('/boom', {}, {});
    const body = await expectError(res, 500, 'INTERNAL_ERROR');
    expect(JSON.stringify(body)).not.toMatch(/secret|\/srv|key\.pem|at /);
    expect(body.message).toContain('requestId');
  });
});
