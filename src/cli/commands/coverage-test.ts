import { c, co, data, info, json } from '../lib/output';
import { CliError, EXIT } from '../lib/errors';
import { callUnderwriter, DEADLINE_MS, QUOTE_CHECK_MS, sampleBind, sampleQuote, sampleWindow, type UnderwriterCall } from '../lib/underwriter';

/**
 * `berth coverage test`: the six checks of the specification, each request signed exactly as Berth
 * signs it and held to Berth's deadlines (/quote within 800 ms):
 * 1. an unsigned (and a wrongly signed) request is refused;
 * 2. /quote answers in time; premium is a JSON number; the deposit effect is coherent; a schema version;
 * 3. /schema answers with fields, at most 12;
 * 4. /requote accepts a clean answer set; a decline is HTTP 200 with decision declined;
 * 5. /bind issues a policy, idempotently on the quote; the document URL is https;
 * 6. /reschedule answers; /cancel answers.
 */
export interface CheckResult {
  id: number;
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}

interface Field {
  id?: unknown;
  type?: unknown;
  required?: unknown;
  options?: { value?: unknown }[];
  pattern?: unknown;
  min?: unknown;
  minAgeYears?: unknown;
  showIf?: { field?: unknown; equals?: unknown };
}

const DEPOSIT_EFFECTS = ['none', 'waive', 'reduce_to', 'reduce_by', 'reduce_by_percent'];
const MAX_QUESTIONS = 12;

class CheckFailed extends Error {}
const fail = (why: string): never => {
  throw new CheckFailed(why);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v)?.slice(0, 80) ?? String(v);

/** A 200 with a JSON object, or a failure naming what came instead. */
function answered(r: UnderwriterCall, what: string): Record<string, unknown> {
  if (r.status === null) fail(`${what}: ${r.error}`);
  if (r.status !== 200) fail(`${what} answered HTTP ${r.status}${r.text ? `: ${r.text.slice(0, 120)}` : ''}`);
  if (!isObject(r.json)) fail(`${what} did not answer a JSON object`);
  return r.json as Record<string, unknown>;
}

/** A string that matches the simple patterns underwriters use ([A-Z]{2}[0-9]{6}, \d{5}, literals). */
export function sampleForPattern(pattern: string): string {
  let out = '';
  const re = /(\[[^\]]+\]|\\d|\\w|\\.|.)(\{(\d+)(?:,(\d*))?\}|\+|\*|\?)?/g;
  const body = pattern.replace(/^\^/, '').replace(/\$$/, '');
  for (const m of body.matchAll(re)) {
    const [, atom, quant, n] = m;
    const count = quant === undefined ? 1 : quant === '+' ? 1 : quant === '*' || quant === '?' ? 0 : Number(n);
    let ch: string;
    if (atom === '\\d') ch = '7';
    else if (atom === '\\w') ch = 'a';
    else if (atom.startsWith('\\')) ch = atom.slice(1);
    else if (atom.startsWith('[')) {
      const inner = atom.slice(1, -1).replace(/^\^/, '');
      ch = /A-Z/.test(inner) ? 'K' : /a-z/.test(inner) ? 'k' : /0-9/.test(inner) ? '4' : inner[0];
    } else ch = atom === '.' ? 'x' : atom;
    out += ch.repeat(count);
  }
  return out;
}

/** Answers to the required questions that are shown, as a careful renter gives them. */
export function cleanAnswers(fields: Field[]): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  const shown = (f: Field) => !f.showIf || answers[String(f.showIf.field)] === f.showIf.equals;
  for (const f of fields) {
    if (typeof f.id !== 'string' || f.type === 'notice' || f.required !== true || !shown(f)) continue;
    switch (f.type) {
      case 'date': {
        const years = typeof f.minAgeYears === 'number' ? f.minAgeYears + 10 : 35;
        const d = new Date();
        d.setUTCFullYear(d.getUTCFullYear() - years);
        answers[f.id] = d.toISOString().slice(0, 10);
        break;
      }
      case 'number':
        answers[f.id] = typeof f.min === 'number' ? f.min : 1;
        break;
      case 'checkbox':
        answers[f.id] = true;
        break;
      case 'dropdown':
        answers[f.id] = f.options?.[0]?.value ?? '';
        break;
      case 'multiselect':
        answers[f.id] = f.options?.length ? [f.options[0].value] : [];
        break;
      case 'address':
        answers[f.id] = { line1: '1 Harbor Way', city: 'Miami', region: 'FL', postalCode: '33131', country: 'US' };
        break;
      default:
        answers[f.id] = typeof f.pattern === 'string' ? sampleForPattern(f.pattern) : 'Robin Tester';
    }
  }
  return answers;
}

export async function runCoverageTest(o: { baseUrl: string; secret: string; offeringId?: string; currency: string; country: string }): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const ctx: { quoteId?: string; premium?: number; version?: string; fields?: Field[]; answers?: Record<string, unknown>; policyNumber?: string } = {};
  const window = sampleWindow();
  const signed = (endpoint: string, payload: unknown, timeoutMs = DEADLINE_MS[endpoint as keyof typeof DEADLINE_MS]) =>
    callUnderwriter(o.baseUrl, endpoint, payload, { secret: o.secret, offeringId: o.offeringId, timeoutMs });

  async function check(id: number, name: string, needs: (keyof typeof ctx)[], run: () => Promise<string>) {
    const started = performance.now();
    let ok = false;
    let detail: string;
    const missing = needs.filter((k) => ctx[k] === undefined);
    if (missing.length) detail = `not run: needs ${missing.join(', ')} from an earlier check`;
    else
      try {
        detail = await run();
        ok = true;
      } catch (err) {
        if (!(err instanceof CheckFailed)) throw err;
        detail = err.message;
      }
    results.push({ id, name, ok, detail, ms: Math.round(performance.now() - started) });
  }

  await check(1, 'unsigned request refused', [], async () => {
    const payload = sampleQuote({ offeringId: o.offeringId, currency: o.currency, country: o.country, window });
    const unsigned = await callUnderwriter(o.baseUrl, 'quote', payload, { secret: null, offeringId: o.offeringId, timeoutMs: DEADLINE_MS.quote });
    if (unsigned.status === null) fail(`/quote without a signature: ${unsigned.error}`);
    if (unsigned.status! < 400 || unsigned.status! >= 500)
      fail(`/quote without a signature answered HTTP ${unsigned.status} (must be refused with 401 or 403)`);
    const forged = await callUnderwriter(o.baseUrl, 'quote', payload, { secret: `${o.secret}-wrong`, offeringId: o.offeringId, timeoutMs: DEADLINE_MS.quote });
    if (forged.status !== null && forged.status >= 200 && forged.status < 300) fail(`/quote with a wrong signature answered HTTP ${forged.status}`);
    const staleTs = (Math.floor(Date.now() / 1000) - 3600).toString();
    const stale = await callUnderwriter(o.baseUrl, 'quote', payload, {
      secret: o.secret,
      offeringId: o.offeringId,
      timeoutMs: DEADLINE_MS.quote,
      timestamp: staleTs,
    });
    if (stale.status !== null && stale.status >= 200 && stale.status < 300)
      fail(`/quote signed an hour ago answered HTTP ${stale.status} (stale timestamps must be refused)`);
    return `unsigned ${unsigned.status}, wrong signature ${forged.status ?? forged.error}, stale timestamp ${stale.status ?? stale.error}`;
  });

  await check(2, 'quote', [], async () => {
    const r = await signed('quote', sampleQuote({ offeringId: o.offeringId, currency: o.currency, country: o.country, window }), QUOTE_CHECK_MS);
    if (r.status === null && /no answer within/.test(r.error ?? '')) fail(`/quote did not answer within ${QUOTE_CHECK_MS} ms`);
    const q = answered(r, '/quote');
    if (typeof q.premium !== 'number' || !Number.isFinite(q.premium)) fail(`premium must be a JSON number, got ${show(q.premium)}`);
    const effect = q.depositEffect ?? 'none';
    if (typeof effect !== 'string' || !DEPOSIT_EFFECTS.includes(effect)) fail(`depositEffect ${show(effect)} is not one of ${DEPOSIT_EFFECTS.join(', ')}`);
    if (effect !== 'none' && effect !== 'waive') {
      const v = q.depositEffectValue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) fail(`depositEffect ${effect as string} needs a numeric depositEffectValue, got ${show(v)}`);
      if (effect === 'reduce_by_percent' && (v as number) > 100) fail(`depositEffectValue ${v as number} is above 100 percent`);
    }
    if (typeof q.questionSchemaVersion !== 'string' || !q.questionSchemaVersion) fail('the quote carries no questionSchemaVersion');
    if (typeof q.quoteId !== 'string' || !q.quoteId) fail('the quote carries no quoteId');
    ctx.quoteId = q.quoteId as string;
    ctx.premium = q.premium as number;
    ctx.version = q.questionSchemaVersion as string;
    return `${r.ms} ms (limit ${QUOTE_CHECK_MS}), premium ${q.premium as number}, deposit ${effect as string}${q.depositEffectValue !== undefined ? ` ${show(q.depositEffectValue)}` : ''}, schema ${ctx.version}`;
  });

  await check(3, 'schema', ['version'], async () => {
    const s = answered(await signed('schema', { version: ctx.version }), '/schema');
    if (!Array.isArray(s.fields) || !s.fields.length) fail('/schema answered no fields');
    const fields = s.fields as Field[];
    if (fields.length > MAX_QUESTIONS) fail(`${fields.length} questions: at most ${MAX_QUESTIONS}`);
    ctx.fields = fields;
    return `${fields.length} question(s), version ${ctx.version}`;
  });

  await check(4, 'requote', ['quoteId', 'fields'], async () => {
    const answers = cleanAnswers(ctx.fields!);
    const base = { requestId: `cq_cli_requote`, currency: o.currency, window };
    const a = answered(await signed('requote', { ...base, quoteId: ctx.quoteId, answers }), '/requote');
    if (a.decision !== 'accepted' && a.decision !== 'declined') fail(`decision must be accepted or declined, got ${show(a.decision)}`);
    if (a.decision !== 'accepted') fail(`a clean answer set was declined${typeof a.reason === 'string' ? `: ${a.reason}` : ''}`);
    if (a.premium !== undefined && (typeof a.premium !== 'number' || !Number.isFinite(a.premium)))
      fail(`the final premium must be a JSON number, got ${show(a.premium)}`);
    ctx.answers = answers;
    const d = await signed('requote', { ...base, quoteId: `${ctx.quoteId}-never-issued`, answers });
    if (d.status === null) fail(`/requote of an unknown quote: ${d.error}`);
    if (d.status !== 200) fail(`/requote of an unknown quote answered HTTP ${d.status}: a decline must be HTTP 200 with decision declined`);
    const dd = answered(d, '/requote of an unknown quote');
    if (dd.decision !== 'declined') fail(`/requote of an unknown quote answered decision ${show(dd.decision)}, not declined`);
    return `accepted${a.premium !== undefined ? ` at ${a.premium as number}` : ''}; an unknown quote is declined with HTTP 200`;
  });

  await check(5, 'bind', ['quoteId', 'answers'], async () => {
    const body = sampleBind({ quoteId: ctx.quoteId!, premium: ctx.premium!, currency: o.currency, answers: ctx.answers!, window, reference: 'cvp_cli_test_1' });
    const first = answered(await signed('bind', body), '/bind');
    if (typeof first.policyNumber !== 'string' || !first.policyNumber) fail('/bind answered no policyNumber');
    const doc = first.documentUrl;
    let https = false;
    try {
      https = typeof doc === 'string' && new URL(doc).protocol === 'https:';
    } catch {}
    if (!https) fail(`documentUrl must be https, got ${show(doc)}`);
    const retry = answered(await signed('bind', body), '/bind (retry)');
    const other = answered(await signed('bind', { ...body, reference: 'cvp_cli_test_2', idempotencyKey: 'cvp_cli_test_2' }), '/bind (same quote)');
    for (const [what, again] of [
      ['a retry', retry],
      ['another bind of the same quote', other],
    ] as const) {
      if (again.policyNumber !== first.policyNumber)
        fail(`bind is not idempotent on quoteId: ${what} gave policy ${show(again.policyNumber)}, not ${first.policyNumber as string}`);
    }
    ctx.policyNumber = first.policyNumber as string;
    return `policy ${first.policyNumber as string}, the same on a retry and on a second bind of the quote; document ${doc as string}`;
  });

  await check(6, 'reschedule and cancel', ['policyNumber'], async () => {
    const moved = { start: new Date(Date.parse(window.start) + 86_400_000).toISOString(), end: new Date(Date.parse(window.end) + 86_400_000).toISOString() };
    const r = await signed('reschedule', {
      policyNumber: ctx.policyNumber,
      quoteId: ctx.quoteId,
      reference: 'cvp_cli_test_1',
      idempotencyKey: `cvp_cli_test_1:${moved.start}:${moved.end}`,
      window: moved,
      previousWindow: window,
    });
    if (r.status === null) fail(`/reschedule: ${r.error}`);
    if (r.status !== 200) fail(`/reschedule answered HTTP ${r.status}`);
    const decision = isObject(r.json) ? r.json.decision : undefined;
    if (decision !== undefined && decision !== 'accepted' && decision !== 'declined')
      fail(`/reschedule decision must be accepted or declined, got ${show(decision)}`);
    const cx = await signed('cancel', { quoteId: ctx.quoteId, policyNumber: ctx.policyNumber, reference: 'cvp_cli_test_1', reason: 'booking_cancelled' });
    if (cx.status === null) fail(`/cancel: ${cx.error}`);
    if (cx.status !== 200) fail(`/cancel answered HTTP ${cx.status}`);
    return `reschedule ${decision === undefined ? 'accepted (bare 200)' : (decision as string)}, cancel 200`;
  });
  return results;
}

export function printResults(baseUrl: string, results: CheckResult[]) {
  const k = co();
  for (const r of results) data(`${r.ok ? k.green('PASS') : k.red('FAIL')} ${r.id}. ${r.name}: ${r.detail}`);
  const failed = results.filter((r) => !r.ok);
  json({ url: baseUrl, passed: failed.length === 0, checks: results });
  if (failed.length) {
    throw new CliError(
      `${failed.length} of ${results.length} checks failed: ${failed.map((f) => `${f.id}. ${f.name}`).join(', ')}`,
      EXIT.failure,
      'checks_failed',
    );
  }
  info(c().green(`All ${results.length} checks passed against ${baseUrl}`));
}
