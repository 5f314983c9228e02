#!/usr/bin/env node
// A Berth coverage underwriter, scaffolded by `berth init --coverage`. The six endpoints Berth calls
// (POST /quote, /schema, /requote, /bind, /reschedule, /cancel), each request verified first:
// X-Service-Timestamp (Unix seconds, within 300 s) and X-Service-Signature = hex HMAC-SHA256 of
// `{timestamp}.{raw body}` with the offering's signing secret (during a rotation Berth sends two
// comma-separated signatures; any one that verifies is enough). Unsigned or wrongly signed: 401.
// The contract it keeps: a decline is HTTP 200 with decision "declined"; premium is a JSON number;
// a reducing deposit effect carries depositEffectValue; at most 12 questions; /bind is idempotent
// on the quote (same quote, same policy); documentUrl is https; /reschedule never changes the price.
// No dependencies (Node 20). Configuration, never in files: PORT (3000), BERTH_SIGNING_SECRET
// (or SERVICE_SIGNING_SECRET; a comma-separated list during a rotation), DOCUMENT_BASE_URL.
// Check it with: berth coverage test --url http://localhost:3000
import { createServer } from 'node:http';
import { Buffer } from 'node:buffer';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

const PORT = Number(process.env.PORT || 3000);
const SECRETS = (process.env.BERTH_SIGNING_SECRET || process.env.SERVICE_SIGNING_SECRET || '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const DOCUMENT_BASE_URL = (process.env.DOCUMENT_BASE_URL || 'https://underwriter.example.com/policies').replace(/\/+$/, '');
const TOLERANCE_S = 300;

if (!SECRETS.length) {
  console.error(
    'Set BERTH_SIGNING_SECRET to the signing secret of your offering ' +
      '(`berth coverage create` printed it once; `berth coverage secret rotate` prints a new one).',
  );
  process.exit(1);
}

/** null when the request is signed by Berth, else why it is refused. */
function verify(headers, raw) {
  const ts = String(headers['x-service-timestamp'] || '');
  const sig = String(headers['x-service-signature'] || '');
  if (!ts || !sig) return 'unsigned request';
  if (!/^\d{1,12}$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > TOLERANCE_S) return 'stale or malformed timestamp';
  const given = sig
    .split(',')
    .map((s) => Buffer.from(s.trim().toLowerCase()))
    .filter((b) => b.length === 64);
  for (const secret of SECRETS) {
    const want = Buffer.from(createHmac('sha256', secret).update(`${ts}.${raw}`).digest('hex'));
    if (given.some((g) => timingSafeEqual(g, want))) return null;
  }
  return 'bad signature';
}

// The question set, version v1 (at most 12 fields; types text, number, date, checkbox, dropdown, multiselect, address, notice).
const SCHEMA_V1 = {
  version: 'v1',
  fields: [
    { id: 'skipper_dob', type: 'date', label: "Skipper's date of birth", required: true, minAgeYears: 21 },
    {
      id: 'experience',
      type: 'dropdown',
      label: 'Boating experience',
      required: true,
      options: [
        { value: 'some', label: 'Some (a few outings)' },
        { value: 'none', label: 'None' },
        { value: 'expert', label: 'Licensed skipper' },
      ],
    },
    { id: 'prior_claims', type: 'checkbox', label: 'I made a boat insurance claim in the last 3 years', required: false },
    { id: 'summary', type: 'notice', label: 'Coverage summary', text: 'Damage to the rented boat up to the deposit amount.' },
  ],
};

// Quotes and policies live in memory here; keep them in your database.
const quotes = new Map();
const policies = new Map();

const dollars = (cents) => Math.round(cents) / 100;

const handlers = {
  quote(body) {
    const start = Date.parse(body.window?.start);
    const end = Date.parse(body.window?.end);
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return [400, { error: 'window.start and window.end are required' }];
    const days = Math.max(1, Math.ceil((end - start) / 86_400_000));
    const quantity = Math.max(1, Number(body.product?.quantity) || 1);
    const quote = { quoteId: `q_${randomUUID()}`, premiumCents: 1250 * days * quantity, currency: body.currency || 'usd', window: body.window };
    quotes.set(quote.quoteId, quote);
    return [
      200,
      {
        quoteId: quote.quoteId,
        premium: dollars(quote.premiumCents),
        currency: quote.currency,
        depositEffect: 'reduce_by_percent',
        depositEffectValue: 50,
        questionSchemaVersion: SCHEMA_V1.version,
      },
    ];
  },
  schema(body) {
    if (body.version !== SCHEMA_V1.version) return [404, { error: `unknown schema version ${body.version}` }];
    return [200, SCHEMA_V1];
  },
  requote(body) {
    const quote = quotes.get(body.quoteId);
    if (!quote) return [200, { decision: 'declined', reason: 'Unknown quote' }];
    const answers = body.answers || {};
    if (answers.prior_claims === true) return [200, { decision: 'declined', reason: 'A recent claim: we cannot offer this coverage' }];
    const premium = quote.premiumCents + (answers.experience === 'none' ? 500 : 0);
    return [200, { decision: 'accepted', premium: dollars(premium), currency: quote.currency }];
  },
  bind(body) {
    const quote = quotes.get(body.quoteId);
    if (!quote) return [422, { error: 'unknown quote' }];
    // Idempotent on the quote: a retry (same or new reference) answers the policy already written.
    let policy = policies.get(quote.quoteId);
    if (!policy) {
      const policyNumber = `POL-${quote.quoteId.slice(2, 10).toUpperCase()}`;
      policy = { policyNumber, documentUrl: `${DOCUMENT_BASE_URL}/${policyNumber}.pdf`, status: 'bound', window: quote.window };
      policies.set(quote.quoteId, policy);
    }
    return [200, { policyNumber: policy.policyNumber, documentUrl: policy.documentUrl, status: policy.status }];
  },
  reschedule(body) {
    const policy = policies.get(body.quoteId) || [...policies.values()].find((p) => p.policyNumber === body.policyNumber);
    if (!policy) return [200, { decision: 'declined', reason: 'Unknown policy' }];
    // Keyed on policy + new window: a retry is the same amendment. The premium never changes.
    policy.window = body.window || policy.window;
    return [200, { decision: 'accepted' }];
  },
  cancel(body) {
    const policy = policies.get(body.quoteId) || [...policies.values()].find((p) => p.policyNumber === body.policyNumber);
    if (policy) policy.status = 'cancelled';
    return [200, { status: 'cancelled' }];
  },
};

const server = createServer(async (req, res) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  const send = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const endpoint = new URL(req.url, 'http://localhost').pathname.split('/').filter(Boolean).pop();
  if (req.method !== 'POST' || !Object.hasOwn(handlers, endpoint)) return send(404, { error: 'not found' });
  const refused = verify(req.headers, raw);
  if (refused) return send(401, { error: 'invalid_signature', message: refused });
  let body;
  try {
    body = JSON.parse(raw || '{}');
  } catch {
    return send(400, { error: 'body must be JSON' });
  }
  try {
    const [status, out] = handlers[endpoint](body);
    return send(status, out);
  } catch (err) {
    console.error(err);
    return send(500, { error: 'internal error' });
  }
});

server.listen(PORT, () => console.log(`underwriter listening on http://localhost:${PORT}`));
