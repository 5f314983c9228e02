import { accountOf, updateAccount, type DevSession } from './credentials';
import { CliError, EXIT, refused } from './errors';
import { info, notice, success, warn } from './output';

/**
 * A `dev` session: put a development URL in place of a record's URL, keep it while the tool runs,
 * and put the previous URL back on exit (Ctrl-C, SIGTERM, SIGHUP, an error). The session is noted
 * in the credentials file before the change, so a session that died without restoring is found
 * by the next `dev` (which restores the right URL, not the development one) or `dev --restore`.
 */
export interface DevTarget {
  apiUrl: string;
  /** `app:<appId>` or `coverage:<offeringId>`. */
  key: string;
  /** What is changed, for messages: "urls.embed of app app_..." */
  label: string;
  /** The command that puts it back by hand, for the message when restoring fails. */
  restoreHint: (previous: string | null) => string;
  apply: (url: string | null) => Promise<void>;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const sessionsOf = (apiUrl: string) => accountOf(apiUrl).devSessions ?? {};

function saveSession(apiUrl: string, key: string, s: DevSession | undefined) {
  updateAccount(apiUrl, (e) => {
    const all = { ...(e.devSessions ?? {}) };
    if (s) all[key] = s;
    else delete all[key];
    return { ...e, devSessions: Object.keys(all).length ? all : undefined };
  });
}

/** The session recorded for a record (running or dead), if any. */
export const recordedSession = (apiUrl: string, key: string): (DevSession & { running: boolean }) | undefined => {
  const s = sessionsOf(apiUrl)[key];
  return s ? { ...s, running: s.pid !== process.pid && alive(s.pid) } : undefined;
};

async function restore(t: DevTarget, previous: string | null) {
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await t.apply(previous);
      saveSession(t.apiUrl, t.key, undefined);
      return;
    } catch (err) {
      last = err;
      if (err instanceof CliError && err.exitCode !== EXIT.network && err.exitCode !== EXIT.failure) break;
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
    }
  }
  const why = last instanceof Error ? last.message : String(last);
  throw new CliError(
    `Could not restore ${t.label} to ${previous ?? '(none)'}: ${why}`,
    EXIT.failure,
    'restore_failed',
    `The URL to restore is ${previous ?? '(none)'}. Put it back with: ${t.restoreHint(previous)}`,
  );
}

/**
 * Starts the session: answers the URL that will be restored. `current` is the record's URL now;
 * when a dead session left its development URL there, the URL before that one is restored.
 */
export async function startDevSession(t: DevTarget, current: string | null, url: string): Promise<string | null> {
  const stale = recordedSession(t.apiUrl, t.key);
  if (stale?.running) throw refused(`Another \`dev\` (pid ${stale.pid}) is already pointing ${t.label} at ${stale.url}`, 'Stop it first (Ctrl-C).');
  let previous = current;
  if (stale && current === stale.url) {
    previous = stale.previous;
    warn(`A previous dev session did not restore ${t.label}; ${previous ?? '(none)'} will be restored on exit.`);
  }
  saveSession(t.apiUrl, t.key, { url, previous, pid: process.pid, startedAt: new Date().toISOString() });
  try {
    await t.apply(url);
  } catch (err) {
    // Keep what a dead session left to restore; otherwise nothing changed.
    saveSession(t.apiUrl, t.key, stale ? { url: stale.url, previous: stale.previous, pid: stale.pid, startedAt: stale.startedAt } : undefined);
    throw err;
  }
  return previous;
}

/** Waits for Ctrl-C (or SIGTERM/SIGHUP), then restores; a failure names the URL to restore (exit 1). */
export async function holdAndRestore(t: DevTarget, previous: string | null): Promise<void> {
  const keepAlive = setInterval(() => {}, 1 << 30);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(s, () => resolve(s));
  });
  clearInterval(keepAlive);
  // A second Ctrl-C while restoring must not leave the development URL in place.
  const patience = () => notice('Restoring; please wait...');
  process.on('SIGINT', patience);
  info(`${signal === 'SIGINT' ? '\n' : ''}Restoring ${t.label} to ${previous ?? '(none)'}...`);
  try {
    await restore(t, previous);
  } finally {
    process.off('SIGINT', patience);
  }
  success(`Restored ${t.label} to ${previous ?? '(none)'}`);
}

/** `dev --restore`: puts back what a dead session left behind. */
export async function restoreRecorded(t: DevTarget): Promise<{ restored: boolean; url?: string | null }> {
  const s = recordedSession(t.apiUrl, t.key);
  if (!s) return { restored: false };
  if (s.running) throw refused(`A dev session (pid ${s.pid}) is still running for ${t.label}`, 'Stop it with Ctrl-C; it restores by itself.');
  await restore(t, s.previous);
  return { restored: true, url: s.previous };
}

export { restore as restoreNow };
