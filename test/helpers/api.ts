import { SELF } from 'cloudflare:test';
import { expect } from 'vitest';
import { ApiError } from '../../src/errors';

export const BASE = 'https://quire.test';

export function call(path: string, init?: RequestInit): Promise<Response> {
  return SELF.fetch(`${BASE}${path}`, init);
}

export interface ErrorBody {
  code: string;
  error: string;
  message: string;
  requestId: string;
  details?: { field: string; issue: string }[];
}

/** Asserts the error body of docs/api.md "Errors" and returns it. */
export async function expectError(res: Response, status: number, code: string): Promise<ErrorBody> {
  expect(res.status).toBe(status);
  expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  expect(res.headers.get('Cache-Control')).toBe('no-store');
  const body = (await res.json()) as ErrorBody;
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(body.error.length).toBeGreaterThan(0);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(10);
  expect(body.requestId).toBe(res.headers.get('X-Request-Id'));
  return body;
}

/** The ApiError a core promise rejects with (anything else is rethrown; no rejection fails). */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}
