import { usage } from './errors';

/** Where `berth` talks to when nothing is set: Berth's production API. Every link the tool prints is on this API's origin. */
export const DEFAULT_API_URL = 'https://api.berth.example';

/**
 * An environment variable under its Berth name, or the specification's `SERVICE_` alias
 * (`BERTH_API_URL` / `SERVICE_API_URL`, ...). The `BERTH_` name wins when both are set; an
 * empty value counts as unset.
 */
export function envVar(name: 'API_URL' | 'SIGNING_SECRET'): string | undefined {
  for (const key of [`BERTH_${name}`, `SERVICE_${name}`]) {
    const v = process.env[key];
    if (v !== undefined && v.trim() !== '') return v.trim();
  }
  return undefined;
}

function baseUrl(name: 'API_URL', fallback: string): string {
  const raw = envVar(name) ?? fallback;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw usage(`BERTH_${name} is not a URL: ${raw}`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw usage(`BERTH_${name} must be an http(s) URL: ${raw}`);
  return u.toString().replace(/\/+$/, '');
}

/** The API base URL (BERTH_API_URL, SERVICE_API_URL, else production), without a trailing slash. */
export const apiUrl = () => baseUrl('API_URL', DEFAULT_API_URL);

/** The project files of the current directory. */
export const APP_FILE = 'berth.app.json';
export const COVERAGE_FILE = 'berth.coverage.json';
/** The public OAuth client of the command line (device authorization grant). */
export const CLI_CLIENT_ID = 'berth-cli';
/**
 * The partner's own private sandbox operator: every partner account has one, created and seeded on
 * first use (GET /partners/sandbox); its sandbox installs and the links `dev` and `open` print land
 * there, never on another partner's (nor on Demo Marina, the shared local demo).
 */
export const SANDBOX_PATH = '/partners/sandbox';
/** Seeding a sandbox on first use takes a few seconds (and the server waits for a seeding under way). */
export const SANDBOX_TIMEOUT_MS = 60_000;
