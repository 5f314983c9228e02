import { createHmac, randomUUID } from 'node:crypto';
import { CliError, EXIT } from './errors';

/**
 * Calls to an underwriter exactly as Berth makes them (src/adapters/underwriter.ts): POST
 * `{baseUrl}/{endpoint}` with the JSON body, `X-Service-Timestamp` (Unix seconds) and
 * `X-Service-Signature` = lowercase hex HMAC-SHA256 of `{timestamp}.{raw body}` with the signing
 * secret, `X-Service-Offering`, `X-Service-Request-Id`, and the platform's deadlines.
 */
export const ENDPOINTS = ['quote', 'schema', 'requote', 'bind', 'reschedule', 'cancel'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** Berth's own deadlines per endpoint (ms); `coverage test` holds /quote to 800 ms. */
export const DEADLINE_MS: Record<Endpoint, number> = { quote: 5000, schema: 5000, requote: 5000, bind: 10_000, reschedule: 10_000, cancel: 10_000 };
export const QUOTE_CHECK_MS = 800;

export interface UnderwriterCall {
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number | null;
  ms: number;
  text: string;
  json: unknown;
  /** Why no answer came (timeout, connection refused), when none came. */
  error: string | null;
}

export const sign = (secret: string, timestamp: string, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export function endpointUrl(baseUrl: string, endpoint: string) {
  return `${baseUrl.replace(/\/+$/, '')}/${endpoint}`;
}

export async function callUnderwriter(
  baseUrl: string,
  endpoint: string,
  payload: unknown,
  o: { secret?: string | null; offeringId?: string; timeoutMs: number; rawBody?: string; timestamp?: string },
): Promise<UnderwriterCall> {
  const url = endpointUrl(baseUrl, endpoint);
  const body = o.rawBody ?? JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'Berth-Coverage/1.0 (berth-cli)' };
  if (o.secret) {
    const ts = o.timestamp ?? Math.floor(Date.now() / 1000).toString();
    headers['x-service-timestamp'] = ts;
    headers['x-service-signature'] = sign(o.secret, ts, body);
  }
  if (o.offeringId) headers['x-service-offering'] = o.offeringId;
  headers['x-service-request-id'] = `cvr_cli_${randomUUID().replace(/-/g, '')}`;
  const started = performance.now();
  const done = (r: Partial<UnderwriterCall>): UnderwriterCall => ({
    url,
    headers,
    body,
    status: null,
    text: '',
    json: undefined,
    error: null,
    ...r,
    ms: Math.round(performance.now() - started),
  });
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(o.timeoutMs) });
    text = await res.text();
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    const why =
      e.name === 'TimeoutError' || e.name === 'AbortError'
        ? `no answer within ${o.timeoutMs} ms`
        : (e.cause?.code ?? e.cause?.message ?? e.message ?? String(err));
    return done({ error: why });
  }
  let json: unknown = undefined;
  try {
    json = text.trim() ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return done({ status: res.status, text, json });
}

/** The signing secret: BERTH_SIGNING_SECRET / SERVICE_SIGNING_SECRET, else the one stored for the offering. */
export function requireSecret(secret: string | undefined, offeringId: string | undefined): string {
  if (secret) return secret;
  throw new CliError(
    `No signing secret${offeringId ? ` for ${offeringId}` : ''} on this machine`,
    EXIT.usage,
    'no_signing_secret',
    'Set BERTH_SIGNING_SECRET, or store it once with `berth coverage secret` (read from stdin or a hidden prompt).',
  );
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A booking window like the checkout's: tomorrow 10:00 UTC, four hours. */
export function sampleWindow(now = Date.now()) {
  const start = Math.ceil(now / 86_400_000) * 86_400_000 + 86_400_000 + 10 * 3600_000;
  return { start: iso(start), end: iso(start + 4 * 3600_000) };
}

/** The /quote body Berth sends (src/modules/coverage/quotes.ts), for a sandbox boat. */
export function sampleQuote(o: { offeringId?: string; currency: string; country: string; window: { start: string; end: string } }) {
  return {
    requestId: `cq_cli_${randomUUID().slice(0, 8)}`,
    offeringId: o.offeringId ?? 'cvo_cli_test',
    sandbox: true,
    currency: o.currency,
    location: { country: o.country, timezone: 'America/New_York' },
    product: { inventoryId: 'inv_demo_pontoon', name: 'Pontoon 22', kind: 'rental', category: 'boat', quantity: 1, deposit: 500 },
    window: o.window,
  };
}

/** The /bind body Berth sends after payment (src/modules/coverage/bind.ts). */
export function sampleBind(o: {
  quoteId: string;
  premium: number;
  currency: string;
  answers: Record<string, unknown>;
  window: { start: string; end: string };
  reference: string;
}) {
  return {
    quoteId: o.quoteId,
    reference: o.reference,
    idempotencyKey: o.reference,
    premium: o.premium,
    currency: o.currency,
    policyholder: {
      firstName: 'Robin',
      lastName: 'Tester',
      email: 'robin.tester@example.com',
      phone: '+13055550100',
      address: { line1: '1 Harbor Way', city: 'Miami', region: 'FL', postalCode: '33131', country: 'US' },
      dateOfBirth: '1985-04-12',
    },
    answers: o.answers,
    booking: { reference: 'txn_cli_test', rentalId: 'bk_cli_test', inventoryId: 'inv_demo_pontoon', start: o.window.start, end: o.window.end },
  };
}
