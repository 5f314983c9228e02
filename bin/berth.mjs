#!/usr/bin/env node
// The `berth` bin of this repository: runs the bundle that scripts/build-cli.mjs writes on `npm install`.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/cli/berth.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write('berth: the tool is not built yet; run `npm run build:cli` (npm install does it)\n');
  process.exit(1);
}
await import(bundle.href);
