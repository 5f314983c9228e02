import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PORT = 8809;
export const BASE = `http://127.0.0.1:${PORT}`;
export const BIN = join(ROOT, 'dist', 'cli', 'berth.mjs');

/** The development values of .dev.vars.example (the Berth under test runs with them). */
export function devVars(): Record<string, string> {
  const text = readFileSync(join(ROOT, '.dev.vars.example'), 'utf8');
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*"?([^"\n]*)"?/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}
