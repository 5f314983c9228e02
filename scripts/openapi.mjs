#!/usr/bin/env node
/**
 * Writes the OpenAPI document (`/openapi.json` of the production entry point) without a server:
 * esbuild bundles src/app.ts with the module list for Node, the script asks the app for
 * `/openapi.json` in memory and writes the answer. Used by `npm run lint:openapi` (spectral).
 *
 *   node scripts/openapi.mjs [out.json]     (default: node_modules/.cache/berth/openapi.json)
 */
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const cacheDir = path.join(root, 'node_modules', '.cache', 'berth');
const out = path.resolve(process.argv[2] ?? path.join(cacheDir, 'openapi.json'));

const entry = `
import { buildApp } from './src/app';
import { modules } from './src/modules';
export async function openapi() {
  const env = { ENVIRONMENT: 'development', LOG_LEVEL: 'error' };
  const res = await buildApp(modules).request('http://localhost:8787/openapi.json', {}, env);
  if (res.status !== 200) throw new Error('GET /openapi.json answered ' + res.status + ': ' + (await res.text()));
  return res.json();
}`;

/** Durable Object base classes come from the Workers runtime; the document needs only their names. */
const workersStub = {
  name: 'cloudflare-workers-stub',
  setup(b) {
    b.onResolve({ filter: /^cloudflare:/ }, (a) => ({ path: a.path, namespace: 'cf-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'cf-stub' }, () => ({
      contents: 'export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }; export const env = {};',
      loader: 'js',
    }));
  },
};

/** The `[alias]` table of wrangler.toml, matched exactly as wrangler does (esbuild's own `alias` also rewrites subpaths). */
const table =
  readFileSync(path.join(root, 'wrangler.toml'), 'utf8')
    .split(/^\[alias\]\s*$/m)[1]
    ?.split(/^\[/m)[0] ?? '';
const aliases = Object.fromEntries([...table.matchAll(/^"([^"]+)"\s*=\s*"([^"]+)"/gm)].map(([, name, file]) => [name, path.resolve(root, file)]));
const wranglerAliases = {
  name: 'wrangler-aliases',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) => (Object.hasOwn(aliases, a.path) ? { path: aliases[a.path] } : undefined));
  },
};

const result = await build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'openapi-entry.ts' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  write: false,
  logLevel: 'error',
  plugins: [workersStub, wranglerAliases],
});
mkdirSync(cacheDir, { recursive: true });
const bundle = path.join(cacheDir, `openapi-bundle-${process.pid}.mjs`);
writeFileSync(bundle, result.outputFiles[0].text);
try {
  const { openapi } = await import(pathToFileURL(bundle).href);
  const doc = await openapi();
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
  console.error(`openapi: ${Object.keys(doc.paths).length} paths, ${operations} operations -> ${path.relative(process.cwd(), out)}`);
} finally {
  rmSync(bundle, { force: true });
}
