import { createColors } from 'picocolors';
import type { CliError } from './errors';

/**
 * Output rules: data goes to stdout, everything else (progress, hints, prompts, errors) to stderr.
 * With `--json` a command prints exactly one JSON object on stdout and no banner anywhere; errors
 * are then one JSON object on stderr. Colour only on a terminal, never with NO_COLOR (any
 * non-empty value), `--no-color` or `--json`.
 */
type Colors = ReturnType<typeof createColors>;

const state = { json: false, color: true, quiet: false };

const noColorEnv = () => (process.env.NO_COLOR ?? '') !== '';
const wantsColor = (stream: NodeJS.WriteStream) => !state.json && state.color && !noColorEnv() && stream.isTTY === true;

export function configureOutput(o: { json?: boolean; color?: boolean }) {
  state.json = o.json === true;
  state.color = o.color !== false;
}

export const isJson = () => state.json;
/** Colours for text written to stderr (messages) and stdout (data). */
export const c = (): Colors => createColors(wantsColor(process.stderr));
export const co = (): Colors => createColors(wantsColor(process.stdout));

/** One line of data on stdout (not in --json mode: there `json()` prints the one object). */
export function data(line = '') {
  if (!state.json) process.stdout.write(`${line}\n`);
}

/** The command's one JSON object (only in --json mode). */
export function json(value: unknown) {
  if (state.json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Progress and hints on stderr; silent in --json mode. */
export function info(line: string) {
  if (!state.json) process.stderr.write(`${line}\n`);
}
export function success(line: string) {
  info(`${c().green('✓')} ${line}`);
}
export function warn(line: string) {
  if (!state.json) process.stderr.write(`${c().yellow('!')} ${line}\n`);
}
/** Messages a person must see even in --json mode (the device login code): stderr, plain. */
export function notice(line: string) {
  process.stderr.write(`${line}\n`);
}

export function reportError(err: CliError) {
  if (state.json) {
    process.stderr.write(
      `${JSON.stringify({ error: err.code, message: err.message, exitCode: err.exitCode, ...(err.hint ? { hint: err.hint } : {}), ...(err.details ? { details: err.details } : {}) })}\n`,
    );
    return;
  }
  const k = c();
  process.stderr.write(`${k.red('Error:')} ${err.message}\n`);
  if (Array.isArray(err.details)) {
    for (const d of err.details as { field?: string; message?: string }[])
      process.stderr.write(`  - ${d.field ? `${d.field}: ` : ''}${d.message ?? JSON.stringify(d)}\n`);
  }
  if (err.hint) process.stderr.write(`${k.dim(err.hint)}\n`);
}
