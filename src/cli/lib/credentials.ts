import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError, EXIT, refused } from './errors';

/**
 * The user credentials file `~/.berth/credentials.json` (folder 0700, file 0600): the partner
 * session of each API base URL and the secrets this machine keeps (coverage signing secrets, app
 * client secrets). Nothing of it is ever written into a project directory. The tool refuses a
 * file (or folder) that other users can read or write, or that another user owns.
 */
export interface Session {
  token: string;
  expiresAt: string;
  partner: { partnerId: string; email: string; name: string; company: string | null };
  signedInAt: string;
}

export interface AccountEntry {
  session?: Session;
  /** Signing secrets of coverage offerings, by offering id. */
  coverageSecrets?: Record<string, string>;
  /** Secrets shown once when an app was created by `berth link --create`, by app id. */
  appSecrets?: Record<string, { clientSecret: string | null; webhookSecret: string }>;
  /** Running (or crashed) `dev` sessions by `app:<appId>` or `coverage:<offeringId>`: what to restore. */
  devSessions?: Record<string, DevSession>;
}

export interface DevSession {
  /** The URL `dev` put in place. */
  url: string;
  /** The URL to put back on exit. */
  previous: string | null;
  pid: number;
  startedAt: string;
}

export interface CredentialsFile {
  version: 1;
  /** Keyed by API base URL, so the sandbox on a laptop and production never mix. */
  accounts: Record<string, AccountEntry>;
}

export const berthDir = () => join(homedir(), '.berth');
export const credentialsPath = () => join(berthDir(), 'credentials.json');

const isWindows = process.platform === 'win32';

function checkPrivate(path: string, kind: 'file' | 'folder') {
  if (isWindows) return;
  const st = lstatSync(path);
  if (st.isSymbolicLink()) throw refused(`${path} is a symbolic link; the credentials ${kind} must be a real ${kind}`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw refused(`${path} belongs to another user (uid ${st.uid})`);
  const mode = st.mode & 0o777;
  if (mode & 0o077) {
    const want = kind === 'file' ? '600' : '700';
    throw refused(
      `${path} is readable or writable by other users (mode ${mode.toString(8).padStart(3, '0')}); berth will not use it`,
      `Run: chmod ${want} ${path}  (and check that nobody else copied it)`,
    );
  }
}

export function readCredentials(): CredentialsFile {
  const path = credentialsPath();
  if (!existsSync(path)) return { version: 1, accounts: {} };
  checkPrivate(berthDir(), 'folder');
  checkPrivate(path, 'file');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new CliError(`${path} is not valid JSON: ${(err as Error).message}`, EXIT.failure, 'bad_credentials_file', 'Fix or delete it, then `berth login`.');
  }
  const file = parsed as Partial<CredentialsFile>;
  if (typeof file !== 'object' || file === null || typeof file.accounts !== 'object' || file.accounts === null) return { version: 1, accounts: {} };
  return { version: 1, accounts: file.accounts };
}

/** Writes the whole file atomically: a 0600 temporary file in the 0700 folder, then a rename. */
export function writeCredentials(file: CredentialsFile) {
  const dir = berthDir();
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isWindows) chmodSync(dir, 0o700);
  }
  checkPrivate(dir, 'folder');
  const path = credentialsPath();
  const tmp = `${path}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(tmp, path);
  if (!isWindows) chmodSync(path, 0o600);
}

/** Reads, changes one account entry, writes back. */
export function updateAccount(apiUrl: string, change: (entry: AccountEntry) => AccountEntry | undefined) {
  const file = readCredentials();
  const next = change({ ...(file.accounts[apiUrl] ?? {}) });
  if (next === undefined || Object.keys(next).length === 0) delete file.accounts[apiUrl];
  else file.accounts[apiUrl] = next;
  writeCredentials(file);
}

export const accountOf = (apiUrl: string): AccountEntry => readCredentials().accounts[apiUrl] ?? {};
