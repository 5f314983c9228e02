#!/usr/bin/env node
// Builds the booking widget's script (scripts/build-widget.mjs: TypeScript typed by /openapi.json, esbuild, the 50 KB gzip
// budget) and copies the API reference's browser bundle from the installed, locked npm package
// (@scalar/api-reference, exact version in package.json / package-lock.json) into the Worker's static
// assets (public/static/vendor/, git-ignored), so /docs never loads a script from a CDN.
// Run by wrangler before `wrangler dev` and `wrangler deploy` ([build] in wrangler.toml), and by the
// browser tests. Idempotent: the file is rewritten only when its content changed.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWidget } from './build-widget.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The package's exports map hides package.json and dist/browser, so it is found by its folder under node_modules.
const pkgDir = join(root, 'node_modules/@scalar/api-reference');
if (!existsSync(join(pkgDir, 'package.json'))) {
  console.error('[assets] @scalar/api-reference is not installed: run npm ci');
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const source = join(pkgDir, 'dist/browser/standalone.js');
const outDir = join(root, 'public/static/vendor/scalar');
const target = join(outDir, 'api-reference.js');

mkdirSync(outDir, { recursive: true });
const same = existsSync(target) && readFileSync(target).equals(readFileSync(source));
if (!same) copyFileSync(source, target);
writeFileSync(join(outDir, 'VERSION'), `@scalar/api-reference ${version}\n`);
console.log(`[assets] ${same ? 'up to date' : 'copied'}: @scalar/api-reference ${version} -> public/static/vendor/scalar/api-reference.js`);

try {
  await buildWidget();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
