import { applyD1Migrations, env } from 'cloudflare:test';
import { boundProxyChains } from './proxy-chain';
import { offlineByDefault } from './outbound';

boundProxyChains();
offlineByDefault();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
