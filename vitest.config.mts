import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import path from 'node:path';
import { readFileSync } from 'node:fs';

/** The `[alias]` table of wrangler.toml as exact-match Vite aliases, so the tests run the modules wrangler bundles. */
function wranglerAliases(root: string) {
  const table =
    readFileSync(path.join(root, 'wrangler.toml'), 'utf8')
      .split(/^\[alias\]\s*$/m)[1]
      ?.split(/^\[/m)[0] ?? '';
  return [...table.matchAll(/^"([^"]+)"\s*=\s*"([^"]+)"/gm)].map(([, name, file]) => ({
    find: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
    replacement: path.resolve(root, file),
  }));
}
const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'test/fixtures/wallet', name), 'utf8');
const walletPassCerts = () => ({
  APPLE_PASS_CERT_PEM: fixture('pass-cert.pem'),
  APPLE_PASS_KEY_PEM: fixture('pass-key.pem'),
  APPLE_WWDR_CERT_PEM: fixture('wwdr-cert.pem'),
  APPLE_PASS_TYPE_ID: 'pass.test.berth.booking',
  APPLE_TEAM_ID: 'ABCDE12345',
});

/**
 * Test files that need a runtime of their own: each starts a fresh Worker with an empty database
 * (about 20 s of loading the Worker each on this 2-core machine, so keep this list short). Every other
 * file shares one of the `maxWorkers` runtimes with the files before it: same database, same Durable
 * Objects, same module state, so it must not depend on what other files did (each test builds its own
 * operator; GUIDE, Tests). A file belongs here only for a reason given beside it.
 */
const ISOLATED: string[] = [
  // None today: the seed tests clear what they assert is written (partners/seed.test.ts) and look up
  // the records they assert on (octo.test.ts), so they share runtimes like the rest.
];

/** Isolated files first, each in a runtime of its own; then the rest, sharing `maxWorkers` runtimes. */
const projects: TestProjectInlineConfiguration[] = [
  ...(ISOLATED.length ? [{ extends: true as const, test: { name: 'isolated', include: ISOLATED, isolate: true } }] : []),
  { extends: true as const, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false } },
];

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  return {
    resolve: { alias: wranglerAliases(import.meta.dirname) },
    plugins: [
      cloudflareTest({
        // The production entry point: tests exercise what staging and production ship (no development routes).
        main: './src/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // wrangler.toml's consumer, delivering at once: production batches for up to a second
          // (max_batch_timeout = 1), which in tests is only waiting (test-clock advances, webhook and
          // coverage deliveries, outbox fan-out all go through the queue, and tests poll for them).
          queueConsumers: { 'berth-events': { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 10 } },
          bindings: {
            TEST_MIGRATIONS: migrations,
            ENVIRONMENT: 'test',
            LOG_LEVEL: 'warn',
            SANDBOX_AUTOSEED: 'off',
            JWT_SECRET: 'test-only-jwt-secret-0123456789abcdef',
            WIDGET_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
            DEV_SEED_TOKEN: 'test-seed-token',
            DEMO_API_KEY: 'brk_test_demo_admin_key_000000000000000000',
            OTHER_API_KEY: 'brk_test_other_admin_key_00000000000000000',
            DEMO_CHANNEL_TEST_KEY: 'rtc_test_test_demo_channel_key_0000000000001',
            // Verifies the signed Twilio webhooks of the communications tests (no Twilio account: SMS stay offline).
            TWILIO_AUTH_TOKEN: 'test-twilio-auth-token-0123456789',
            PLATFORM_API_KEY: 'test-platform-staff-key-000000000000001',
            STRIPE_WEBHOOK_SECRET: 'whsec_test_0000000000000000000000000001',
            DEMO_PARTNER_PASSWORD: 'test-demo-partner-password',
            // The consent page's sign-in at the identity provider (no management token: identities stay local).
            IDP_DOMAIN: 'idp.berth.test',
            IDP_CLIENT_ID: 'berth-consent-test',
            DEMO_APP_CLIENT_SECRET: 'bcs_test_demo_fleet_tracker_secret_000000001',
            // Apple Wallet passes signed with test-only certificates (test/fixtures/wallet/), so wallet-pass-a builds real .pkpass files.
            ...walletPassCerts(),
          },
        },
      }),
    ],
    test: {
      setupFiles: ['./test/setup.ts'],
      // One runtime per worker: each loads the Worker once and then runs its files one after another
      // (`isolate: false`). Three on this 2-core machine: the tests mostly wait on the runtimes' I/O, so a
      // third runtime shortened the whole suite from 297 s to 263 s, while a fourth gained nothing (270 s).
      maxWorkers: 3,
      testTimeout: 30_000,
      hookTimeout: 30_000,
      // A file whose runtime stops answering (so its tests' own timeouts never fire) fails the run by
      // name after TEST_STALL_SECONDS instead of holding it until CI's limit (test/reporters/watchdog.ts).
      reporters: ['default', './test/reporters/watchdog.ts'],
      // Console output goes straight to the runtime's stdout, not through vitest's RPC. With the RPC, a
      // line logged from another I/O context (the queue consumer, a request's waitUntil) is buffered
      // by the pool until its next message; logged while a file sends its last one, vitest waits for
      // its answer forever and the run never ends (cloudflare/workers-sdk#15498 and #15719: CI waited
      // 85 minutes on a queue consumer's "queue message failed"). Lines lose their test's header.
      disableConsoleIntercept: true,
      // vitest runs the projects one after the other in name order, each file of `isolated` first.
      projects,
    },
  };
});
