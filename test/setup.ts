import { applyD1Migrations, env } from 'cloudflare:test';
import { boundProxyChains } from './proxy-chain';

boundProxyChains();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
