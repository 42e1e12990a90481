/**
 * The HTTP API (front door of src/api): `createApp` builds the Hono application — routes, conventions,
 * authentication, rate limits and the OpenAPI document — over the services. docs/api.md is its contract.
 */
export { type AppType, createApp } from './app';
