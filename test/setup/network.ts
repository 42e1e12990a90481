import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * Outbound fetch to third parties (document URLs, later mail APIs and TSAs) is answered by MSW.
 * An unhandled request is an error, so no test can reach the real network by accident.
 */
export const network = setupServer();

beforeAll(() => network.listen({ onUnhandledRequest: 'error' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());
