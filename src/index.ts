import { createApp } from './api';

/** The worker's type for hono/client: `hc<AppType>(base)` (README "Typed clients"). */
export type { AppType } from './api';

export default createApp();
