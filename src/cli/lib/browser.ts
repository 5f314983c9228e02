import { spawn } from 'node:child_process';

/**
 * Opens a URL in the user's browser when that is possible: only when stdout is a terminal (not in
 * scripts, CI or tests) and `BROWSER` is not `none`. `BROWSER` names another opener. Answers
 * whether an opener was started; the caller always prints the URL as well.
 */
export function openBrowser(url: string): boolean {
  if (!process.stdout.isTTY || process.env.CI) return false;
  const custom = process.env.BROWSER;
  if (custom === 'none') return false;
  const [cmd, args] = custom
    ? [custom, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
