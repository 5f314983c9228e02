import type { Command } from 'commander';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { APP_FILE, COVERAGE_FILE } from '../lib/config';
import { refused } from '../lib/errors';
import { data, info, json, success } from '../lib/output';

/** The scaffold sources (src/cli/templates/**), put into the bundle by scripts/build-cli.mjs. */
declare const BERTH_TEMPLATES: Record<string, string>;

const template = (path: string): string => {
  const t = BERTH_TEMPLATES[path];
  if (t === undefined) throw new Error(`template ${path} missing from this build`);
  return t;
};

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'berth-app';
const title = (s: string) =>
  s
    .replace(/[-_]+/g, ' ')
    .replace(/\b\w/g, (m) => m.toUpperCase())
    .trim() || 'My Berth App';

function appFiles(name: string, port: number): Record<string, string> {
  const manifest = {
    name,
    scopes: ['read:bookings', 'read:locations'],
    urls: { embed: `http://localhost:${port}/embed`, redirect: [`http://localhost:${port}/callback`] },
    embedLocations: ['dashboard'],
    webhooks: { url: null, events: [] },
  };
  return {
    [APP_FILE]: `${JSON.stringify(manifest, null, 2)}\n`,
    'server.mjs': template('app/server.mjs'),
    'package.json': `${JSON.stringify({ name: slug(name), version: '0.1.0', private: true, type: 'module', scripts: { start: 'node server.mjs' }, engines: { node: '>=20' } }, null, 2)}\n`,
    '.gitignore': 'node_modules/\n.env\n',
    'README.md': template('app/README.md').replaceAll('{{name}}', name),
  };
}

function coverageFiles(name: string, port: number): Record<string, string> {
  const offering = {
    name,
    baseUrl: `https://underwriter.example.com`,
    supportEmail: 'support@example.com',
    supportedCountries: ['US'],
    currencies: ['usd'],
    quoteTimeoutMs: 3000,
  };
  return {
    [COVERAGE_FILE]: `${JSON.stringify(offering, null, 2)}\n`,
    'underwriter.mjs': template('underwriter/underwriter.mjs'),
    'package.json': `${JSON.stringify({ name: slug(name), version: '0.1.0', private: true, type: 'module', scripts: { start: 'node underwriter.mjs' }, engines: { node: '>=20' } }, null, 2)}\n`,
    '.gitignore': 'node_modules/\n.env\n',
    'README.md': template('underwriter/README.md').replaceAll('{{name}}', name).replaceAll('{{port}}', String(port)),
  };
}

/**
 * `berth init [dir]`: a working embedded app (or, with --coverage, a working underwriter) in `dir`.
 * Refuses to overwrite any existing file. The project files hold no secret.
 */
function init(dirArg: string | undefined, o: { coverage?: boolean; name?: string; port: string }) {
  const dir = resolve(dirArg ?? '.');
  const port = Number(o.port);
  const name = o.name ?? title(basename(dir));
  const files = o.coverage ? coverageFiles(name, port) : appFiles(name, port);
  if (existsSync(dir)) {
    const clash = Object.keys(files).filter((f) => existsSync(join(dir, f)));
    if (clash.length) throw refused(`${relative(process.cwd(), dir) || '.'} already has ${clash.join(', ')}; init writes into a new or empty directory`);
  } else {
    mkdirSync(dir, { recursive: true });
  }
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content, { mode: path.endsWith('.mjs') ? 0o755 : 0o644 });
  const where = relative(process.cwd(), dir) || '.';
  success(`Created ${o.coverage ? 'an underwriter' : 'an embedded app'} "${name}" in ${where}`);
  for (const f of readdirSync(dir).filter((f) => f in files)) data(join(where, f));
  if (o.coverage) {
    info(`Next: cd ${where} && berth coverage create   (registers the offering and prints its signing secret once; also kept in ~/.berth/credentials.json)`);
    info(`Then: BERTH_SIGNING_SECRET=<the secret it printed> PORT=${port} npm start   and   berth coverage test --url http://localhost:${port}`);
  } else {
    info(`Next: cd ${where} && berth link --create   (or \`berth link <appId>\` for an existing app), then npm start and berth dev`);
  }
  json({ dir, kind: o.coverage ? 'coverage' : 'app', name, files: Object.keys(files) });
}

export function registerInit(program: Command) {
  program
    .command('init')
    .description('Scaffold a working embedded app (or, with --coverage, a coverage underwriter) in dir')
    .argument('[dir]', 'where to create it (default: the current directory)')
    .option('--coverage', `scaffold an underwriter with the six endpoints and ${COVERAGE_FILE}`)
    .option('--name <name>', 'the display name (default: from the directory name)')
    .option('--port <port>', 'the local port the scaffold listens on', '3000')
    .action((dir: string | undefined, o: { coverage?: boolean; name?: string; port: string }) => init(dir, o));
}
