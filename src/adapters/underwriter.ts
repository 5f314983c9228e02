/**
 * The underwriter client: every call Berth makes to a coverage underwriter (POST {baseUrl}/quote,
 * /schema, /requote, /bind, /reschedule, /cancel) is signed here and sent through the safe-HTTP
 * adapter (checked URL, no redirects followed, a timeout, a response size cap).
 *
 * Signature (the same scheme as Berth's webhooks): `X-Service-Timestamp` = Unix seconds,
 * `X-Service-Signature` = lowercase hex HMAC-SHA256 of `{timestamp}.{raw body}` with the
 * offering's signing secret. During a secret rotation overlap the header carries two signatures
 * separated by a comma (the new secret's first); an underwriter accepts the request when any of
 * them verifies with a secret it holds, and refuses timestamps more than 300 seconds from its
 * clock. `X-Service-Offering` names the offering, `X-Service-Request-Id` the call.
 *
 * The offline default: an offering whose `baseUrl` host is `reference-underwriter.berth.invalid`
 * is served in-process by the reference underwriter (examples/reference-underwriter), which holds
 * the offering's secrets and verifies every signature like a remote one. The sandbox uses it, so
 * `npm start` and the tests need no network.
 */
import type { Env } from '../env';
import { stopwatch, wallClock } from '../lib/clock';
import { hmacSha256Hex, timingSafeEqual } from '../lib/crypto';
import { NOT_DELIVERED, readCapped, ResponseTooLarge, safeFetch } from './http';
import { REFERENCE_HOST, asFetch, createReferenceUnderwriter } from '../../examples/reference-underwriter/src/underwriter';

export { REFERENCE_HOST } from '../../examples/reference-underwriter/src/underwriter';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const TIMESTAMP_HEADER = 'X-Service-Timestamp';
export const OFFERING_HEADER = 'X-Service-Offering';
export const REQUEST_ID_HEADER = 'X-Service-Request-Id';
/** Seconds a signed timestamp stays valid, both ways. */
export const SIGNATURE_TOLERANCE_S = 300;
/** Largest underwriter answer read (bytes). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export type UnderwriterEndpoint = 'quote' | 'schema' | 'requote' | 'bind' | 'reschedule' | 'cancel';

export type CallOutcome = 'ok' | 'timeout' | 'network' | 'http_error' | 'invalid_json' | 'too_large';

export interface CallResult {
  outcome: CallOutcome;
  /** HTTP status (null when no answer came). */
  status: number | null;
  /** The parsed JSON body of a 2xx answer (null for an empty body). */
  json: unknown;
  durationMs: number;
  error: string | null;
}

/** The signature header value for a payload: one hex HMAC per secret, comma-separated (current first). */
export async function signatureFor(secrets: string[], timestamp: string, body: string): Promise<string> {
  const sigs = await Promise.all(secrets.map((s) => hmacSha256Hex(s, `${timestamp}.${body}`)));
  return sigs.join(',');
}

/**
 * Checks a request signed by an underwriter (message requests): the timestamp within the
 * tolerance and one of the signatures made with one of the secrets. Answers the reason when refused.
 */
export async function verifySigned(
  secrets: string[],
  timestamp: string | undefined,
  signature: string | undefined,
  body: string,
  // The underwriter signs on its own clock: the tolerance is checked against real time.
  nowMs = wallClock.now(),
): Promise<string | null> {
  if (!timestamp || !signature) return `Send ${TIMESTAMP_HEADER} and ${SIGNATURE_HEADER}`;
  if (!/^\d{1,12}$/.test(timestamp)) return `${TIMESTAMP_HEADER} must be Unix seconds`;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_S) return `${TIMESTAMP_HEADER} is more than ${SIGNATURE_TOLERANCE_S} seconds off`;
  const given = signature
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
    .slice(0, 5);
  for (const secret of secrets) {
    const expected = await hmacSha256Hex(secret, `${timestamp}.${body}`);
    if (given.some((g) => timingSafeEqual(g, expected))) return null;
  }
  return 'The signature does not verify with the offering secret';
}

/** The in-process reference underwriter's memory (policies and amendments), shared by its calls. */
const referenceStore = new Map<string, unknown>();

/** True when an offering URL is served by the in-process reference underwriter. */
export function isReferenceUrl(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === REFERENCE_HOST;
  } catch {
    return false;
  }
}

/** Stats of the in-process reference underwriter (what it received and wrote). */
export const referenceStats = () => createReferenceUnderwriter({ secrets: [], store: referenceStore }).stats();

/** One signed call. Never throws for the underwriter's behaviour: the outcome says what happened. */
export async function callUnderwriter(
  env: Env,
  c: { baseUrl: string; offeringId: string; secrets: string[]; endpoint: UnderwriterEndpoint; body: unknown; timeoutMs: number; requestId: string },
): Promise<CallResult> {
  const url = `${c.baseUrl.replace(/\/+$/, '')}/${c.endpoint}`;
  const body = JSON.stringify(c.body);
  // The underwriter checks the signature's timestamp against its own clock: real time.
  const timestamp = Math.floor(wallClock.now() / 1000).toString();
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': 'Berth-Coverage/1.0',
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: await signatureFor(c.secrets, timestamp, body),
    [OFFERING_HEADER]: c.offeringId,
    [REQUEST_ID_HEADER]: c.requestId,
  };
  const transport = isReferenceUrl(c.baseUrl) ? asFetch(createReferenceUnderwriter({ secrets: c.secrets, store: referenceStore })) : undefined;
  const elapsed = stopwatch();
  const done = (r: Omit<CallResult, 'durationMs'>): CallResult => ({ ...r, durationMs: elapsed() });
  let res: Response;
  try {
    res = await safeFetch(env, url, { method: 'POST', headers, body, timeoutMs: c.timeoutMs, transport });
  } catch (err) {
    const e = err as Error;
    if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
      return done({ outcome: 'timeout', status: null, json: null, error: `no answer within ${c.timeoutMs} ms` });
    // A URL the policy refuses now (its name resolves elsewhere since it was checked) and a network failure are one
    // outcome with one message: the call log says nothing about what answers where.
    return done({ outcome: 'network', status: null, json: null, error: NOT_DELIVERED });
  }
  let text: string;
  try {
    text = await readCapped(res, MAX_RESPONSE_BYTES);
  } catch (err) {
    const e = err as Error;
    if (err instanceof ResponseTooLarge) return done({ outcome: 'too_large', status: res.status, json: null, error: e.message });
    if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
      return done({ outcome: 'timeout', status: res.status, json: null, error: `no answer within ${c.timeoutMs} ms` });
    return done({ outcome: 'network', status: res.status, json: null, error: e?.message || String(err) });
  }
  if (res.status < 200 || res.status > 299)
    return done({ outcome: 'http_error', status: res.status, json: null, error: `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}` });
  if (!text.trim()) return done({ outcome: 'ok', status: res.status, json: null, error: null });
  try {
    return done({ outcome: 'ok', status: res.status, json: JSON.parse(text), error: null });
  } catch {
    return done({ outcome: 'invalid_json', status: res.status, json: null, error: 'the answer is not JSON' });
  }
}
