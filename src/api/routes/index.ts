/**
 * One router per endpoint family (front door of src/api/routes): validate, call a service, shape the
 * response (docs/api.md).
 */
export { annotateRouter } from './annotate';
export { authRoutes } from './auth';
export { convertRouter } from './convert';
export { health } from './health';
export { merge } from './merge';
export { playground } from './playground';
export { signRouter } from './sign';
export { verifyRouter } from './verify';
