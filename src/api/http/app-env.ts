import type { Config } from '../../config';
import type { Env } from '../../env';
import type { KeyRecord } from '../auth';

/** The Hono environment every router and middleware of Quire shares. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    config: Config;
    /** The authenticated key, set by apiKeyAuth on every non-public route. */
    apiKey: KeyRecord;
  };
}
