/**
 * What the bare specifier `zod` resolves to when the Worker is bundled (`[alias]` in wrangler.toml,
 * `resolve.alias` in vitest.config.mts, `alias` in scripts/openapi.mjs): zod's classic entry
 * (`zod/index.js`) minus the 63 locale bundles that `zod/v4/classic/external.js` re-exports as
 * `z.locales` (258 KiB minified). `@hono/zod-openapi` extends the whole `z` namespace, so a bundler
 * cannot drop an unused namespace member; this entry simply does not have them. Types still come
 * from the real package (TypeScript does not read the alias).
 */
import * as z from './external';

export * from './external';
export { z, z as default };
