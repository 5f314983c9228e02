// `berth coverage call` and `berth coverage test`: signed requests to the underwriter's endpoints.
import { COVERAGE_FILE } from '../lib/config';
import { CliError, EXIT, usage } from '../lib/errors';
import { co, data, info, isJson, json } from '../lib/output';
import { readProjectFile } from '../lib/project';
import { callUnderwriter, DEADLINE_MS, requireSecret, sampleBind, sampleQuote, sampleWindow, type Endpoint } from '../lib/underwriter';
import { normalize, secretFor, type OfferingFile } from './coverage-offering';
import { printResults, runCoverageTest } from './coverage-test';

// ---- call, test ----

/** Where calls go and with which secret: --url or the offering file's baseUrl; the environment or the stored secret. */
function callTarget(urlOpt: string | undefined) {
  const file = readProjectFile<Partial<OfferingFile>>(COVERAGE_FILE);
  const baseUrl = urlOpt ?? file?.baseUrl;
  if (!baseUrl) throw usage(`No URL: pass --url or run it where ${COVERAGE_FILE} names baseUrl`);
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error();
  } catch {
    throw usage(`Not an http(s) URL: ${baseUrl}`);
  }
  const offeringId = typeof file?.offeringId === 'string' ? file.offeringId : undefined;
  const f = normalize(file ?? {});
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    offeringId,
    secret: requireSecret(secretFor(offeringId), offeringId),
    currency: f.currencies[0] ?? 'usd',
    country: f.supportedCountries[0] ?? 'US',
  };
}

function sampleBody(endpoint: Endpoint, t: { offeringId?: string; currency: string; country: string }) {
  const window = sampleWindow();
  switch (endpoint) {
    case 'quote':
      return sampleQuote({ offeringId: t.offeringId, currency: t.currency, country: t.country, window });
    case 'schema':
      return { version: 'v1' };
    case 'requote':
      return { quoteId: 'QUOTE_ID', requestId: 'cq_cli_call', currency: t.currency, answers: {}, window };
    case 'bind':
      return sampleBind({ quoteId: 'QUOTE_ID', premium: 12.5, currency: t.currency, answers: {}, window, reference: 'cvp_cli_call' });
    case 'reschedule':
      return { policyNumber: 'POLICY_NUMBER', quoteId: 'QUOTE_ID', reference: 'cvp_cli_call', idempotencyKey: 'cvp_cli_call', window, previousWindow: window };
    case 'cancel':
      return { quoteId: 'QUOTE_ID', policyNumber: 'POLICY_NUMBER', reference: 'cvp_cli_call', reason: 'booking_cancelled' };
  }
}

export async function call(endpoint: Endpoint, o: { data?: string; url?: string }) {
  const t = callTarget(o.url);
  let rawBody: string | undefined;
  if (o.data !== undefined) {
    try {
      JSON.parse(o.data);
    } catch (err) {
      throw usage(`--data is not JSON: ${(err as Error).message}`);
    }
    rawBody = o.data;
  }
  const r = await callUnderwriter(t.baseUrl, endpoint, sampleBody(endpoint, t), {
    secret: t.secret,
    offeringId: t.offeringId,
    timeoutMs: DEADLINE_MS[endpoint],
    rawBody,
  });
  const k = co();
  const shown = { ...r.headers, 'x-service-signature': `${r.headers['x-service-signature'].slice(0, 12)}...` };
  data(k.bold(`POST ${r.url}`));
  for (const [h, v] of Object.entries(shown)) data(`${h}: ${v}`);
  data('');
  data(r.body);
  data('');
  data(k.bold(`${r.status === null ? `no answer: ${r.error}` : `HTTP ${r.status}`}  ${r.ms} ms`));
  if (r.text) data(r.json !== undefined ? JSON.stringify(r.json, null, 2) : r.text);
  json({
    request: { method: 'POST', url: r.url, headers: shown, body: JSON.parse(r.body) as unknown },
    status: r.status,
    ms: r.ms,
    error: r.error,
    body: r.json ?? (r.text || null),
  });
  if (r.status === null)
    throw new CliError(`No answer from ${r.url}: ${r.error}`, r.error?.startsWith('no answer within') ? EXIT.failure : EXIT.network, 'no_answer');
  if (r.status !== 200) throw new CliError(`${r.url} answered HTTP ${r.status}, not 200`, EXIT.failure, 'not_200');
}

export async function test(o: { url?: string }) {
  const t = callTarget(o.url);
  if (!isJson()) info(`Running the six checks against ${t.baseUrl} (signed as Berth signs; /quote within 800 ms)`);
  const results = await runCoverageTest(t);
  printResults(t.baseUrl, results);
}
