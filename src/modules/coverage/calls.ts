/**
 * Calls to an offering's underwriter, signed with its secrets and logged (GET
 * /partners/coverage/offerings/{offeringId}/calls shows the partner what Berth sent and got).
 */
import { lt } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { newId } from '../../lib/ids';
import { coverageCalls } from '../../db/schema/coverage';
import { callUnderwriter, type CallResult, type UnderwriterEndpoint } from '../../adapters/underwriter';
import { activeSecrets } from './secrets';
import type { OfferingRow } from './views';

/** Calls that never take longer than this (the checkout's own calls use the offering's quote timeout). */
export const CALL_TIMEOUT_MS = { quote: 5000, schema: 5000, requote: 5000, bind: 10_000, reschedule: 10_000, cancel: 10_000 } as const;

export async function callOffering(
  ctx: Ctx,
  offering: OfferingRow,
  endpoint: UnderwriterEndpoint,
  body: unknown,
  opts: { timeoutMs?: number; subjectId?: string } = {},
): Promise<CallResult> {
  const secrets = await activeSecrets(ctx, offering.id);
  const timeoutMs = Math.min(opts.timeoutMs ?? CALL_TIMEOUT_MS[endpoint], CALL_TIMEOUT_MS[endpoint]);
  const result: CallResult = secrets.length
    ? await callUnderwriter(ctx.env, { baseUrl: offering.baseUrl, offeringId: offering.id, secrets, endpoint, body, timeoutMs, requestId: newId('cvr') })
    : { outcome: 'network', status: null, json: null, durationMs: 0, error: 'the offering has no signing secret' };
  await logCall(ctx, offering.id, endpoint, result, opts.subjectId);
  return result;
}

/** Logs a call (and, when an answer broke the contract, the reason it was rejected). */
export async function logCall(
  ctx: Ctx,
  offeringId: string,
  endpoint: string,
  r: { outcome: string; status: number | null; durationMs: number; error: string | null },
  subjectId?: string,
) {
  await ctx.db.insert(coverageCalls).values({
    id: newId('cvc'),
    offeringId,
    endpoint,
    outcome: r.outcome,
    statusCode: r.status,
    durationMs: r.durationMs,
    error: r.error?.slice(0, 500) ?? null,
    subjectId: subjectId ?? null,
  });
}

/** Marks the last logged call of a subject as rejected (a 200 whose body breaks the contract). */
export async function logRejected(ctx: Ctx, offeringId: string, endpoint: string, reason: string, subjectId?: string) {
  await logCall(ctx, offeringId, `${endpoint}:rejected`, { outcome: 'rejected', status: 200, durationMs: 0, error: reason }, subjectId);
}

/**
 * Cron (platform housekeeping, on the wall clock): the call log keeps 30 days. The log is the
 * underwriters' (per offering, no operator column), so it is not swept per operator.
 */
export async function purgeCalls(ctx: Ctx) {
  const cutoff = new Date(ctx.clock.now() - 30 * 86_400_000).toISOString();
  await ctx.db.delete(coverageCalls).where(lt(coverageCalls.createdAt, cutoff));
}

/** Exponential backoff: `base` seconds doubling per attempt, capped. */
export const backoffMs = (attempt: number, baseS: number, capS: number) => Math.min(capS, baseS * 2 ** Math.max(0, attempt - 1)) * 1000;

/** Is this call worth retrying (spec rule 5: timeouts and 5xx answers; a connection that failed counts as a timeout)? */
export const retriable = (r: CallResult) => r.outcome === 'timeout' || r.outcome === 'network' || (r.outcome === 'http_error' && (r.status ?? 0) >= 500);
