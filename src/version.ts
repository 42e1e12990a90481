import pkg from '../package.json' with { type: 'json' };

/** The package version, reported by /v1/health and the OpenAPI document. */
export const VERSION: string = pkg.version;
