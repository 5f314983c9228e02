import type { Env as BerthEnv } from '../src/env';

declare global {
  namespace Cloudflare {
    interface Env extends BerthEnv {
      TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    }
  }
}
export {};
