#!/usr/bin/env node
// Builds the `berth` command-line tool (src/cli) into one self-contained file, dist/cli/berth.mjs
// (Node 20, ESM, its libraries bundled), plus dist/cli/package.json so that `npm pack dist/cli`
// (or `npm publish dist/cli`) makes the installable package `@berth/cli` with the `berth` bin.
// The scaffolds of `berth init` (src/cli/templates/**) are put into the bundle as text.
// Runs on `npm install` (prepare) and before the CLI tests.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'cli');
const templatesDir = join(root, 'src', 'cli', 'templates');

function readTree(dir) {
  const files = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(files, readTree(path));
    else files[relative(templatesDir, path).split('\\').join('/')] = readFileSync(path, 'utf8');
  }
  return files;
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(root, 'src', 'cli', 'index.ts')],
  outfile: join(out, 'berth.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'inline',
  logLevel: 'warning',
  define: { BERTH_TEMPLATES: JSON.stringify(readTree(templatesDir)) },
  // CommonJS libraries (commander) call require() for Node built-ins.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __berthRequire } from 'node:module';\nconst require = __berthRequire(import.meta.url);" },
});
writeFileSync(
  join(out, 'package.json'),
  `${JSON.stringify(
    {
      name: '@berth/cli',
      version: '0.1.0',
      description: 'Berth developer command-line tool: embedded apps and coverage underwriters',
      type: 'module',
      bin: { berth: 'berth.mjs' },
      files: ['berth.mjs'],
      engines: { node: pkg.engines?.node ?? '>=20' },
      license: 'UNLICENSED',
    },
    null,
    2,
  )}\n`,
);
