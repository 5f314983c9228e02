/**
 * Daily journal exports: one per location and local date (unique row: idempotent), built from the
 * ledger, checked balanced (debits = credits) before anything is sent, and handed to the
 * operator's AccountingQueue Durable Object, which sends them one at a time at the pace the
 * accounting provider allows. A sent export is never sent again; the provider also deduplicates on
 * its `externalId`.
 */
import { and, eq } from 'drizzle-orm';
import { nowIso, todayIn } from '../../lib/clock';
import { nextScheduledRun } from '../../lib/module';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission, systemCtx } from '../../lib/context';
import { loadOperatorClock } from '../../lib/operator-clock';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { addDays, dayBounds } from '../../lib/time';
import type { Env } from '../../env';
import { accountingProvider, isBalanced } from '../../adapters/accounting';
import { ProviderError } from '../../adapters/simulators';
import { acctExports } from '../../db/schema/accounting';
import { getLocationInTenant } from '../locations/service';
import { acctFail } from './errors';
import { buildJournal, missingMappings, type GlKey } from './journal';
import { tokenOf } from './connection';
import { activeLocations, connectedLinks, ledgerOfDay, linkOf, type LocationRow } from './queries';
import { exportOut, type ExportRow, type LinkRow } from './views';

/** A transient failure is retried this many times (with backoff) before the export is marked failed. */
export const MAX_ATTEMPTS = 8;

export const externalIdOf = (e: Pick<ExportRow, 'customerId' | 'locationId' | 'date'>) => `berth:${e.customerId}:${e.locationId}:${e.date}`;

const accountOf = (link: LinkRow) => (key: GlKey) => link.glMappings?.[key] ?? (key === 'bank' ? link.bankAccountId : null);

/** Hands an export to the operator's queue object. */
export async function enqueue(env: Env, customerId: string, exportId: string) {
  const q = env.ACCOUNTING_QUEUE.get(env.ACCOUNTING_QUEUE.idFromName(customerId));
  return q.enqueue({ exportId, customerId });
}

function ready(link: LinkRow | undefined): asserts link is LinkRow {
  if (!link || link.status !== 'connected') throw acctFail('accounting_not_connected', 'The accounting system is not connected');
  const missing = [...(!link.acctBusinessId ? ['acctBusinessId'] : []), ...(!link.bankAccountId ? ['bankAccountId'] : [])];
  if (missing.length)
    throw acctFail('accounting_not_ready', `Choose ${missing.join(' and ')} before exporting`, {
      details: missing.map((f) => ({ field: f, message: 'not set' })),
    });
}

/** The export of a location and date, built and queued the first time; the same row afterwards (a failed one is rebuilt and queued again). */
export async function ensureExport(ctx: Ctx, link: LinkRow, loc: LocationRow, date: string): Promise<ExportRow> {
  const where = and(eq(acctExports.customerId, loc.customerId), eq(acctExports.locationId, loc.id), eq(acctExports.date, date));
  const existing = await ctx.db.select().from(acctExports).where(where).get();
  if (existing && existing.status !== 'failed') {
    if (existing.status === 'queued') await enqueue(ctx.env, loc.customerId, existing.id);
    return existing;
  }
  const { start, end } = dayBounds(date, loc.timezone);
  const entries = await ledgerOfDay(ctx, loc, start, end);
  const journal = buildJournal(
    entries.filter((e) => e.currency === loc.currency),
    accountOf(link),
  );
  if (!isBalanced(journal.lines)) throw new ApiError('internal', `The journal of ${loc.id} on ${date} is not balanced; nothing was sent`);
  const missing = missingMappings(link, journal.keys);
  if (missing.length)
    throw acctFail('accounting_not_ready', `Map these GL accounts first (PUT /acct/gl-mappings): ${missing.join(', ')}`, {
      details: missing.map((k) => ({ field: `glMappings.${k}`, message: 'not mapped' })),
    });
  const now = nowIso(ctx);
  const values = {
    currency: loc.currency,
    status: journal.lines.length ? ('queued' as const) : ('empty' as const),
    lines: journal.lines,
    totalDebit: journal.totalDebit,
    totalCredit: journal.totalCredit,
    entryCount: journal.entryCount,
    attempts: 0,
    lastError: null,
    updatedAt: now,
  };
  if (existing)
    await ctx.db
      .update(acctExports)
      .set(values)
      .where(and(where, eq(acctExports.status, 'failed')));
  else
    await ctx.db
      .insert(acctExports)
      .values({ id: newId('acx'), customerId: loc.customerId, locationId: loc.id, date, ...values })
      .onConflictDoNothing();
  const row = (await ctx.db.select().from(acctExports).where(where).get())!;
  if (row.status === 'queued') await enqueue(ctx.env, loc.customerId, row.id);
  return row;
}

/** POST /acct/journal-exports: export a finished day of a location now (idempotent: the same export afterwards). */
export async function createExport(ctx: Ctx, input: { businessId: string; locationId: string; date: string }) {
  const customerId = ownCustomer(ctx, input.businessId);
  requirePermission(ctx, 'accounting');
  const loc = await getLocationInTenant(ctx, input.locationId);
  if (input.date >= todayIn(ctx, loc.timezone))
    throw new ApiError('bad_request', 'Only finished days can be exported (the date must be before today at the location)', {
      details: [{ field: 'date', message: 'must be a past day' }],
    });
  const link = await linkOf(ctx, customerId);
  ready(link);
  const existed = await ctx.db
    .select({ id: acctExports.id })
    .from(acctExports)
    .where(and(eq(acctExports.customerId, customerId), eq(acctExports.locationId, loc.id), eq(acctExports.date, input.date)))
    .get();
  const row = await ensureExport(ctx, link, loc, input.date);
  return { created: !existed, export: exportOut(row) };
}

export type SendOutcome = { outcome: 'sent' | 'failed' | 'done' } | { outcome: 'retry'; error: string } | { outcome: 'rate_limited'; retryAfterMs: number };

/**
 * Sends one queued export (called by the AccountingQueue object, one at a time per operator, at the
 * provider's real-time pace). The export is stamped on its operator's clock (a sandbox test clock's
 * operator reads its clock's time).
 */
export async function sendExport(env: Env, exportId: string, giveUp = false): Promise<SendOutcome> {
  const ctx = systemCtx(env, { requestId: `acct_${exportId}` });
  const row = await ctx.db.select().from(acctExports).where(eq(acctExports.id, exportId)).get();
  if (!row || row.status !== 'queued') return { outcome: 'done' };
  const clock = await loadOperatorClock(ctx.db, row.customerId);
  const tctx = systemCtx(env, { customerId: row.customerId, requestId: ctx.requestId, clock });
  const where = and(eq(acctExports.id, row.id), eq(acctExports.status, 'queued'));
  const fail = async (message: string) => {
    await tctx.db
      .update(acctExports)
      .set({ status: 'failed', lastError: message.slice(0, 500), attempts: row.attempts + 1 })
      .where(where);
    return { outcome: 'failed' as const };
  };
  const provider = accountingProvider(env);
  if (!provider) return fail('The accounting integration is not configured');
  const link = await linkOf(tctx, row.customerId);
  if (!link?.acctBusinessId || !link.bankAccountId) return fail('The accounting business or bank account is no longer set');
  const lines = row.lines.map((l) => ({ ...l, accountId: accountOf(link)(l.account as GlKey) }));
  if (!isBalanced(lines)) return fail('The journal is not balanced; nothing was sent');
  if (lines.some((l) => !l.accountId))
    return fail(
      `Unmapped GL accounts: ${lines
        .filter((l) => !l.accountId)
        .map((l) => l.account)
        .join(', ')}`,
    );
  const loc = await getLocationInTenant(tctx, row.locationId).catch(() => null);
  try {
    const { token } = await tokenOf(tctx, link, provider);
    const res = await provider.postJournal(token, link.acctBusinessId, {
      externalId: externalIdOf(row),
      date: row.date,
      description: `Berth daily journal: ${loc?.name ?? row.locationId}, ${row.date}`,
      currency: row.currency,
      bankAccountId: link.bankAccountId,
      lines: lines.map((l) => ({ accountId: l.accountId!, debit: l.debit, credit: l.credit, description: l.description })),
    });
    await tctx.db
      .update(acctExports)
      .set({ status: 'sent', externalId: res.id, sentAt: nowIso(tctx), attempts: row.attempts + 1, lastError: null })
      .where(where);
    return { outcome: 'sent' };
  } catch (err) {
    if (err instanceof ProviderError && err.kind === 'rate_limited') return { outcome: 'rate_limited', retryAfterMs: err.retryAfterMs ?? 60_000 };
    if (err instanceof ProviderError && err.kind === 'transient' && !giveUp) {
      await tctx.db
        .update(acctExports)
        .set({ attempts: row.attempts + 1, lastError: err.message })
        .where(where);
      return { outcome: 'retry', error: err.message };
    }
    if (err instanceof ProviderError || err instanceof ApiError) return fail(err.message);
    if (!giveUp) {
      await tctx.db
        .update(acctExports)
        .set({ attempts: row.attempts + 1, lastError: String(err) })
        .where(where);
      return { outcome: 'retry', error: String(err) };
    }
    return fail(String(err));
  }
}

/**
 * Cron (daily): yesterday's journal (the location's yesterday, on the job's clock) of every location
 * of every operator in the job's scope that is ready to export.
 */
/** When the daily export has work for the operators in scope: the next daily run while one is connected, else never. */
export async function nextDailyExport(job: Ctx): Promise<number | null> {
  const links = await connectedLinks(job);
  return links.some((l) => l.acctBusinessId && l.bankAccountId) ? nextScheduledRun('0 3 * * *', job.clock.now()) : null;
}

export async function dailyExports(job: Ctx) {
  const links = await connectedLinks(job);
  let queued = 0;
  let skipped = 0;
  for (const link of links) {
    if (!link.acctBusinessId || !link.bankAccountId) continue;
    const ctx = systemCtx(job.env, { customerId: link.customerId, clock: job.clock, hooks: job.hooks, waitUntil: job.waitUntil, requestId: job.requestId });
    const locs = await activeLocations(ctx, link.customerId);
    for (const loc of locs) {
      const date = addDays(todayIn(ctx, loc.timezone), -1);
      try {
        const row = await ensureExport(ctx, link, loc, date);
        if (row.status === 'queued') queued++;
      } catch (err) {
        skipped++;
        ctx.log.warn('daily journal export skipped', { customerId: link.customerId, locationId: loc.id, date, error: String(err) });
      }
    }
  }
  return { operators: links.length, queued, skipped };
}
