// A development variable for the scripts that test a started service (test/e2e/run.mjs, test/service/run.mjs):
// from .dev.vars when the machine has one (npm start uses it), else .dev.vars.example (a clean clone).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function devVar(name) {
  for (const f of ['.dev.vars', '.dev.vars.example']) {
    const p = join(root, f);
    if (!existsSync(p)) continue;
    const m = readFileSync(p, 'utf8').match(new RegExp(`^${name}\\s*=\\s*"?([^"\\n]*)"?`, 'm'));
    if (m) return m[1];
  }
  return undefined;
}
