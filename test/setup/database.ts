import { applyD1Migrations, env } from 'cloudflare:test';

// Each test file gets its own D1; the project's migrations are applied to it, as npm start does.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
