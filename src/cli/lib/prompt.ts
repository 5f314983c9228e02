import inquirerConfirm from '@inquirer/confirm';
import inquirerPassword from '@inquirer/password';
import inquirerSelect from '@inquirer/select';
import { CliError, EXIT, refused, usage } from './errors';

/**
 * Prompts run only when both stdin and stderr are terminals (prompts are written to stderr, so
 * stdout stays data). Anywhere else a confirmation fails with exit 4 unless `--yes` was given, and
 * a choice fails with exit 2 naming the option that answers it.
 */
export const interactive = () => process.stdin.isTTY === true && process.stderr.isTTY === true;

const context = () => ({ input: process.stdin, output: process.stderr });

async function run<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if ((err as Error).name === 'ExitPromptError') throw new CliError('Interrupted', EXIT.interrupted, 'interrupted');
    throw err;
  }
}

/** Asks to go on; `yes` answers it. Declining is exit 4 (refused). */
export async function confirmOrRefuse(message: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!interactive()) throw refused(`${message} Confirmation needed, but this is not a terminal.`, 'Pass --yes to confirm without a prompt.');
  const ok = await run(inquirerConfirm({ message, default: false }, context()));
  if (!ok) throw refused('Cancelled; nothing was changed.');
}

/** One of several choices; off a terminal, exit 2 with the hint that names the option to pass. */
export async function choose<T>(message: string, choices: { name: string; value: T; description?: string }[], hint: string): Promise<T> {
  if (!interactive()) throw usage(`${message}: a choice is needed, but this is not a terminal.`, hint);
  return run(inquirerSelect({ message, choices }, context()));
}

/** A secret typed at a hidden prompt (terminals only). */
export async function askSecret(message: string): Promise<string> {
  return run(inquirerPassword({ message, mask: '*' }, context()));
}

/** The whole of stdin (a secret piped in: `berth coverage secret < file`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
