/**
 * Berth's reference underwriter: the six HTTPS endpoints an embedded-coverage underwriter
 * implements (POST /quote, /schema, /requote, /bind, /reschedule, /cancel), written against the
 * Web platform only (Request, Response, WebCrypto), so the same code runs as a Cloudflare Worker
 * (`worker.ts`), inside Berth as its offline default, and in tests.
 *
 * What it shows an underwriter:
 * - every request is verified before anything else: `X-Service-Timestamp` (Unix seconds) within
 *   300 seconds of now and `X-Service-Signature` = hex HMAC-SHA256 of `{timestamp}.{raw body}` with
 *   the offering's signing secret (one or more comma-separated signatures: during a secret rotation
 *   Berth signs with the new and the previous secret). Unsigned, stale or wrongly signed: 401;
 * - a decline is HTTP 200 with `decision: "declined"` (never a 500);
 * - `premium` is a JSON number; a reducing deposit effect always carries `depositEffectValue`;
 * - `/bind` is idempotent on the quote: the same quote yields the same policy, never a second one;
 * - `documentUrl` is https; `/reschedule` never changes the premium and is keyed on policy + window.
 *
 * Quotes are stateless (the quote id carries its facts under an HMAC), so requote and bind work
 * after a restart; the store only remembers policies and amendments (a Map by default).
 *
 * **Misbehaving on purpose.** Path segments before the endpoint name are behaviour flags joined by
 * `+` (so an offering's `baseUrl` chooses them), e.g. `https://uw.example/slow-quote=6000+string-premium`:
 *   slow-<endpoint>=<ms>       answer after a delay (slow-quote=6000)
 *   error-<endpoint>           answer 500 (error-bind=2: the first 2 binds of each quote write the policy, then answer 500)
 *   down                       every endpoint answers 503
 *   string-premium             premium as a quoted decimal ("12.50")
 *   deposit=<effect>[:<value>] deposit effect (deposit=waive, deposit=reduce_by_percent:50, deposit=reduce_by without a value)
 *   premium=<dollars>          a fixed quote premium
 *   requote-premium=<dollars>  the final price of every accepted requote
 *   decline-requote            every requote is declined
 *   decline-reschedule         every reschedule is declined
 *   bare-reschedule            reschedule answers a bare 200 (no decision: acceptance)
 *   reschedule-price           reschedule answers a premium (Berth ignores it)
 *   http-document              bind answers an http documentUrl
 *   schema=hostile             the question schema breaks the rules (too many fields, HTML, bad types, nested quantifiers)
 *   schema-version=<v>         the quote's question schema version
 */

export const REFERENCE_HOST = 'reference-underwriter.berth.invalid';
export const SIGNATURE_TOLERANCE_S = 300;
export const ENDPOINTS = ['quote', 'schema', 'requote', 'bind', 'reschedule', 'cancel'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

export interface ReferenceOptions {
  /** The signing secrets accepted: the current one first, the previous one during a rotation overlap. */
  secrets: string[];
  /** Policies, amendments and counters (shared by every instance that should see the same state). */
  store?: Map<string, unknown>;
  /** Behaviour flags always on (same grammar as the path segments). */
  behaviour?: string;
  /** Key of the quote-id HMAC. */
  quoteKey?: string;
  now?: () => number;
}

interface QuoteFacts {
  /** Premium in cents. */
  p: number;
  c: string;
  q: number;
  s: string;
  e: string;
  v: string;
  n: string;
}

interface Policy {
  policyNumber: string;
  documentUrl: string;
  quoteId: string;
  status: 'bound' | 'cancelled';
  window: { start: string; end: string };
}

export interface ReferenceStats {
  /** Requests that passed verification, by endpoint. */
  calls: Record<Endpoint, number>;
  /** Requests refused by the signature check. */
  refused: number;
  /** Policies written (a second bind of a quote writes none). */
  policiesWritten: number;
}

const enc = new TextEncoder();

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(message)));
  return [...sig].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function sha256Hex(message: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', enc.encode(message)));
  return [...d].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const unb64url = (s: string) => atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4));

/**
 * Verifies a signed request as every underwriter should: answers null when it is good, or why it is
 * refused. `signatureHeader` may carry several comma-separated hex signatures.
 */
export async function verifyRequest(
  secrets: string[],
  timestampHeader: string | null,
  signatureHeader: string | null,
  body: string,
  nowMs = Date.now(),
): Promise<string | null> {
  if (!timestampHeader || !signatureHeader) return 'unsigned request';
  if (!/^\d{1,12}$/.test(timestampHeader)) return 'malformed timestamp';
  if (Math.abs(nowMs / 1000 - Number(timestampHeader)) > SIGNATURE_TOLERANCE_S) return 'stale timestamp';
  const given = signatureHeader
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const secret of secrets) {
    const expected = await hmacHex(secret, `${timestampHeader}.${body}`);
    if (given.some((g) => safeEqual(g, expected))) return null;
  }
  return 'bad signature';
}

/** Behaviour flags from the path segments before the endpoint and the always-on ones. */
function flagsOf(path: string, always?: string): Map<string, string> {
  const flags = new Map<string, string>();
  const segments = path.split('/').filter(Boolean).slice(0, -1);
  for (const seg of [...(always ? [always] : []), ...segments.map(decodeURIComponent)]) {
    for (const part of seg.split('+')) {
      const [name, ...rest] = part.split('=');
      if (name) flags.set(name.trim(), rest.join('=').trim());
    }
  }
  return flags;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dollars = (cents: number) => Math.round(cents) / 100;

/** The default question set (version v1): every drawable kind of question, a condition and the rules Berth enforces. */
export const SCHEMA_V1 = {
  version: 'v1',
  fields: [
    { id: 'skipper_dob', type: 'date', label: "Skipper's date of birth", required: true, minAgeYears: 21 },
    {
      id: 'experience',
      type: 'dropdown',
      label: 'Boating experience',
      required: true,
      options: [
        { value: 'none', label: 'None' },
        { value: 'some', label: 'Some (a few outings)' },
        { value: 'expert', label: 'Licensed skipper' },
      ],
    },
    {
      id: 'license_number',
      type: 'text',
      label: 'Boating licence number',
      required: true,
      pattern: '[A-Z]{2}[0-9]{6}',
      help: 'Two letters and six digits, as printed on the licence',
      showIf: { field: 'experience', equals: 'expert' },
    },
    { id: 'passengers', type: 'number', label: 'Passengers on board', required: false, min: 1, max: 20 },
    {
      id: 'activities',
      type: 'multiselect',
      label: 'Planned activities',
      required: false,
      options: [
        { value: 'cruising', label: 'Cruising' },
        { value: 'fishing', label: 'Fishing' },
        { value: 'towing', label: 'Towing (tubes, skis)' },
      ],
    },
    { id: 'home_address', type: 'address', label: 'Home address', required: false },
    { id: 'prior_claims', type: 'checkbox', label: 'I made an insurance claim for a boat in the last 3 years', required: false },
    {
      id: 'summary',
      type: 'notice',
      label: 'Coverage summary',
      text: 'Damage to the rented boat up to the deposit amount; the policy document lists the exclusions.',
    },
  ],
};

/** A schema that breaks every rule: Berth must sanitise or refuse it. */
export const SCHEMA_HOSTILE = {
  version: 'hostile',
  fields: [
    { id: 'name', type: 'text', label: '<b>Name</b><script>alert(1)</script>', required: true },
    { id: 'signature', type: 'signature_pad', label: 'Sign here', required: true },
    { id: 'code', type: 'text', label: 'Code', pattern: '(a+)+$', required: false },
    ...Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, type: 'checkbox', label: `Question ${i}` })),
  ],
};

export function createReferenceUnderwriter(opts: ReferenceOptions) {
  const store = opts.store ?? new Map<string, unknown>();
  const now = opts.now ?? Date.now;
  const quoteKey = opts.quoteKey ?? 'reference-underwriter-quote-key';
  const stats = (): ReferenceStats => {
    const s = store.get('stats') as ReferenceStats | undefined;
    if (s) return s;
    const fresh: ReferenceStats = { calls: { quote: 0, schema: 0, requote: 0, bind: 0, reschedule: 0, cancel: 0 }, refused: 0, policiesWritten: 0 };
    store.set('stats', fresh);
    return fresh;
  };

  async function issueQuoteId(f: QuoteFacts): Promise<string> {
    const payload = b64url(JSON.stringify(f));
    return `rq_${payload}.${(await hmacHex(quoteKey, payload)).slice(0, 32)}`;
  }

  async function readQuoteId(id: unknown): Promise<QuoteFacts | null> {
    if (typeof id !== 'string') return null;
    const m = /^rq_([A-Za-z0-9_-]+)\.([0-9a-f]{32})$/.exec(id);
    if (!m || !safeEqual((await hmacHex(quoteKey, m[1])).slice(0, 32), m[2])) return null;
    try {
      return JSON.parse(unb64url(m[1])) as QuoteFacts;
    } catch {
      return null;
    }
  }

  async function policyNumberOf(quoteId: string) {
    return `RUW-${(await sha256Hex(quoteId)).slice(0, 10).toUpperCase()}`;
  }

  async function handle(endpoint: Endpoint, body: Record<string, unknown>, flags: Map<string, string>): Promise<Response> {
    switch (endpoint) {
      case 'quote': {
        const window = (body.window ?? {}) as { start?: string; end?: string };
        const product = (body.product ?? {}) as { quantity?: number };
        const start = Date.parse(window.start ?? '');
        const end = Date.parse(window.end ?? '');
        if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return json({ error: 'window.start and window.end are required' }, 400);
        const quantity = Math.max(1, Math.floor(Number(product.quantity ?? 1)) || 1);
        const days = Math.max(1, Math.ceil((end - start) / 86_400_000));
        const fixed = flags.get('premium');
        const premium = fixed ? Math.round(Number(fixed) * 100) : 1250 * quantity * days;
        const version = flags.get('schema-version') || (flags.get('schema') === 'hostile' ? 'hostile' : 'v1');
        const currency = typeof body.currency === 'string' ? body.currency : 'usd';
        const quoteId = await issueQuoteId({ p: premium, c: currency, q: quantity, s: window.start!, e: window.end!, v: version, n: crypto.randomUUID() });
        const out: Record<string, unknown> = {
          quoteId,
          premium: flags.has('string-premium') ? dollars(premium).toFixed(2) : dollars(premium),
          currency,
          depositEffect: 'none',
          questionSchemaVersion: version,
        };
        const deposit = flags.get('deposit');
        if (deposit) {
          const [effect, value] = deposit.split(':');
          out.depositEffect = effect;
          if (value !== undefined) out.depositEffectValue = Number(value);
        }
        return json(out);
      }
      case 'schema': {
        const version = typeof body.version === 'string' ? body.version : '';
        if (version === 'hostile') return json(SCHEMA_HOSTILE);
        if (version === 'v1' || version === flags.get('schema-version')) return json({ ...SCHEMA_V1, version });
        return json({ error: `unknown schema version ${version}` }, 404);
      }
      case 'requote': {
        const q = await readQuoteId(body.quoteId);
        if (!q) return json({ decision: 'declined', reason: 'Unknown quote' });
        const answers = (body.answers ?? {}) as Record<string, unknown>;
        if (flags.has('decline-requote')) return json({ decision: 'declined', reason: 'Not offered for this rental' });
        if (answers.prior_claims === true) return json({ decision: 'declined', reason: 'A recent claim: we cannot offer this coverage' });
        let premium = q.p;
        if (answers.experience === 'none') premium += 500;
        if (answers.experience === 'expert') premium -= 250;
        const fixed = flags.get('requote-premium');
        if (fixed) premium = Math.round(Number(fixed) * 100);
        return json({ decision: 'accepted', premium: dollars(premium), currency: q.c });
      }
      case 'bind': {
        const quoteId = typeof body.quoteId === 'string' ? body.quoteId : '';
        const q = await readQuoteId(quoteId);
        if (!q) return json({ error: 'unknown quote' }, 422);
        const holder = (body.policyholder ?? {}) as { firstName?: string; lastName?: string; email?: string };
        if (!holder.email || !holder.lastName) return json({ error: 'policyholder.email and policyholder.lastName are required' }, 422);
        const key = `policy:${quoteId}`;
        let policy = store.get(key) as Policy | undefined;
        if (!policy) {
          const policyNumber = await policyNumberOf(quoteId);
          const w = (body.booking ?? {}) as { start?: string; end?: string };
          policy = {
            policyNumber,
            documentUrl: `${flags.has('http-document') ? 'http' : 'https'}://${REFERENCE_HOST}/policies/${policyNumber}.pdf`,
            quoteId,
            status: 'bound',
            window: { start: w.start ?? q.s, end: w.end ?? q.e },
          };
          store.set(key, policy);
          store.set(`number:${policyNumber}`, quoteId);
          stats().policiesWritten++;
        }
        const failures = Number(flags.get('error-bind') || 0);
        if (failures > 0) {
          const n = ((store.get(`bind-attempts:${quoteId}`) as number | undefined) ?? 0) + 1;
          store.set(`bind-attempts:${quoteId}`, n);
          if (n <= failures) return json({ error: 'temporary failure after writing the policy' }, 500);
        }
        return json({ policyNumber: policy.policyNumber, documentUrl: policy.documentUrl, status: policy.status });
      }
      case 'reschedule': {
        const policy = await policyOf(body);
        if (!policy) return json({ decision: 'declined', reason: 'Unknown policy' });
        const window = (body.window ?? {}) as { start?: string; end?: string };
        const amendment = `amendment:${policy.policyNumber}:${window.start}:${window.end}`;
        if (flags.has('decline-reschedule')) {
          store.set(amendment, 'declined');
          return json({ decision: 'declined', reason: 'The new dates are outside the covered season' });
        }
        store.set(amendment, 'accepted');
        policy.window = { start: window.start ?? policy.window.start, end: window.end ?? policy.window.end };
        if (flags.has('bare-reschedule')) return new Response(null, { status: 200 });
        return json(flags.has('reschedule-price') ? { decision: 'accepted', premium: 99.99 } : { decision: 'accepted' });
      }
      case 'cancel': {
        const policy = await policyOf(body);
        if (policy) policy.status = 'cancelled';
        return json({ status: 'cancelled' });
      }
    }
  }

  async function policyOf(body: Record<string, unknown>): Promise<Policy | undefined> {
    const byQuote = typeof body.quoteId === 'string' ? (store.get(`policy:${body.quoteId}`) as Policy | undefined) : undefined;
    if (byQuote) return byQuote;
    const quoteId = typeof body.policyNumber === 'string' ? (store.get(`number:${body.policyNumber}`) as string | undefined) : undefined;
    return quoteId ? (store.get(`policy:${quoteId}`) as Policy | undefined) : undefined;
  }

  return {
    store,
    stats,
    /** Every policy written, by quote id. */
    policies: () => [...store.entries()].filter(([k]) => k.startsWith('policy:')).map(([, v]) => v as Policy),
    async fetch(req: Request): Promise<Response> {
      const url = new URL(req.url);
      const endpoint = url.pathname.split('/').filter(Boolean).pop() as Endpoint;
      if (req.method !== 'POST' || !ENDPOINTS.includes(endpoint)) return json({ error: 'not found' }, 404);
      const raw = await req.text();
      const refused = await verifyRequest(opts.secrets, req.headers.get('x-service-timestamp'), req.headers.get('x-service-signature'), raw, now());
      if (refused) {
        stats().refused++;
        return json({ error: 'invalid_signature', message: refused }, 401);
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return json({ error: 'body must be JSON' }, 400);
      }
      stats().calls[endpoint]++;
      const flags = flagsOf(url.pathname, opts.behaviour);
      const slow = Number(flags.get(`slow-${endpoint}`) || 0);
      if (slow > 0) await sleep(slow);
      if (flags.has('down')) return json({ error: 'service unavailable' }, 503);
      if (flags.has(`error-${endpoint}`) && endpoint !== 'bind') return json({ error: 'internal error' }, 500);
      if (endpoint === 'bind' && flags.has('error-bind') && !flags.get('error-bind')) return json({ error: 'internal error' }, 500);
      return handle(endpoint, body, flags);
    },
  };
}

export type ReferenceUnderwriter = ReturnType<typeof createReferenceUnderwriter>;

/**
 * The underwriter as a `fetch` function (what Berth's outbound HTTP calls): it honours the
 * request's abort signal, so a caller's timeout cuts a slow answer exactly as a network would.
 */
export function asFetch(uw: { fetch(req: Request): Promise<Response> }) {
  return (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const signal = init?.signal ?? null;
    if (signal?.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal?.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted', 'TimeoutError'));
      signal?.addEventListener('abort', onAbort, { once: true });
      uw.fetch(req).then(
        (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        (e: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });
  };
}
