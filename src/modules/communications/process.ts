import { and, asc, eq, lt, lte } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { nowIso as clockIso, nowMs } from '../../lib/clock';
import { inJobScope, nextDueAt } from '../../lib/job-scope';
import { formatLocalDateTime } from '../../lib/local-time';
import { sendMessage, type SendResult } from '../../adapters/messages';
import { scheduledCommunications } from '../../db/schema/communications';
import { getBookingRow, type BookingRow } from '../bookings/service';
import { getLocationInTenant } from '../locations/service';
import { ANCHORED, sendTimeOf, type Trigger } from './schedule';
import { renderTemplate } from './templates';
import { resolveTemplate } from './resolve';
import { loadRenderSource, variablesFor } from './variables';
import type { ScheduleRow } from './views';

const MIN = 60_000;
/** A due message found more than this late (the processor was down) is skipped instead of sent late. */
export const LATE_GRACE_MS = 60 * MIN;
/** A claim older than this whose run vanished is failed (never re-sent: the e-mail may have gone). */
const STALE_PROCESSING_MS = 15 * MIN;
const BATCH = 100;

/** The same context acting for one operator (the processor runs for every operator). */
export const forTenant = (ctx: Ctx, customerId: string): Ctx =>
  ctx.principal.customerId === customerId ? ctx : { ...ctx, principal: { ...ctx.principal, customerId } };

type Outcome = {
  status: 'sent' | 'skipped' | 'failed' | 'cancelled' | 'pending';
  reason: string | null;
  messageId?: string | null;
  sendAt?: string;
};

/** The first condition a booking does not meet, as a reason; null when all hold. */
export function unmetCondition(c: Record<string, unknown>, b: BookingRow): string | null {
  const statuses = c.bookingStatus as string[] | undefined;
  if (statuses && !statuses.includes(b.status)) return `bookingStatus is ${b.status}, wanted ${statuses.join(' or ')}`;
  if (typeof c.paidInFull === 'boolean' && b.amountPaid >= b.total !== c.paidInFull)
    return c.paidInFull ? 'paidInFull: a balance is due' : 'paidInFull: paid in full';
  if (typeof c.checkedIn === 'boolean' && (b.checkedInAt != null) !== c.checkedIn)
    return c.checkedIn ? 'checkedIn: not checked in' : 'checkedIn: already checked in';
  return null;
}

const fromMessage = (m: SendResult): Outcome => ({
  status: m.status === 'failed' ? 'failed' : m.status === 'skipped' ? 'skipped' : 'sent',
  reason: m.status === 'failed' || m.status === 'skipped' ? m.reason : null,
  messageId: m.messageId,
});

async function runOne(ctx: Ctx, row: ScheduleRow): Promise<Outcome> {
  const now = nowMs(ctx);
  let dueAt = row.sendAt ? Date.parse(row.sendAt) : now;
  if (row.rentalId) {
    const booking = await getBookingRow(ctx, row.rentalId).catch(() => null);
    if (!booking) return { status: 'skipped', reason: 'booking_not_found: the booking no longer exists' };
    if (row.trigger !== 'on_cancel' && booking.status === 'cancelled') return { status: 'cancelled', reason: 'booking_cancelled: the booking was cancelled' };
    const trigger = row.trigger as Trigger;
    if (ANCHORED.includes(trigger)) {
      // The booking may have moved without its hook reaching us: the send time follows the booking.
      const expected = sendTimeOf(trigger, row.delayMinutes, booking, now)!;
      if (expected !== dueAt) {
        if (expected > now) return { status: 'pending', reason: null, sendAt: new Date(expected).toISOString() };
        dueAt = expected;
      }
    }
  }
  if (now - dueAt > LATE_GRACE_MS) {
    const tz = (await getLocationInTenant(ctx, row.locationId).catch(() => null))?.timezone ?? 'UTC';
    return { status: 'skipped', reason: `send_window_missed: due at ${formatLocalDateTime(dueAt, tz)}; not sent late` };
  }

  const src = await loadRenderSource(ctx, { locationId: row.locationId, rentalId: row.rentalId });
  // The item's or operator's own template of the key, else the default.
  const template = (await resolveTemplate(ctx, row.templateId, src.booking?.itemId))?.template;
  if (!template) return { status: 'failed', reason: `unknown template ${row.templateId}` };
  const rendered = renderTemplate(template, variablesFor(src, null));
  const unmet = src.booking ? unmetCondition(row.conditions ?? {}, src.booking) : null;
  const msg = await sendMessage(
    ctx,
    {
      channel: 'email',
      to: row.recipientEmail,
      subject: rendered.subject,
      body: rendered.text,
      html: rendered.html,
      template: template.templateId,
      customerId: row.customerId,
      rentalId: row.rentalId,
      metadata: { scheduleId: row.id, trigger: row.trigger, locationId: row.locationId },
    },
    { skip: unmet ? `condition_not_met: ${unmet}` : undefined },
  );
  return fromMessage(msg);
}

/**
 * The scheduled-communication processor (cron every 5 minutes, and `POST /communication/process-scheduled`).
 * Each due message is claimed with a conditional UPDATE (`pending` -> `processing` while still due),
 * so overlapping runs never send one message twice; then it is checked again (booking still there
 * and not cancelled, send time still right, conditions met), rendered and sent through the one send
 * function. It runs at `ctx.clock`'s "now" for the operators of the job's scope (one operator when
 * `ctx` acts for one: a test clock's advance, or `POST /communication/process-scheduled`).
 */
export async function processScheduledMessages(ctx: Ctx) {
  const t = scheduledCommunications;
  const now = nowMs(ctx);
  const nowIso = new Date(now).toISOString();
  const own = inJobScope(ctx, t.customerId);
  const counts = { claimed: 0, sent: 0, skipped: 0, failed: 0, cancelled: 0, rescheduled: 0, interrupted: 0 };
  const stale = await ctx.db
    .update(t)
    .set({
      status: 'failed',
      statusReason: 'interrupted: the processor stopped mid-send; not retried, the e-mail may have gone',
      processedAt: nowIso,
      updatedAt: nowIso,
    })
    .where(and(eq(t.status, 'processing'), lt(t.claimedAt, new Date(now - STALE_PROCESSING_MS).toISOString()), own))
    .returning({ id: t.id })
    .all();
  counts.interrupted = stale.length;
  const due = await ctx.db
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.status, 'pending'), lte(t.sendAt, nowIso), own))
    .orderBy(asc(t.sendAt))
    .limit(BATCH)
    .all();
  for (const { id } of due) {
    const claimed = await ctx.db
      .update(t)
      .set({ status: 'processing', claimedAt: nowIso, updatedAt: nowIso })
      .where(and(eq(t.id, id), eq(t.status, 'pending'), lte(t.sendAt, nowIso), own))
      .returning()
      .get();
    if (!claimed) continue; // another run has it
    counts.claimed++;
    let out: Outcome;
    try {
      out = await runOne(forTenant(ctx, claimed.customerId), claimed);
    } catch (err) {
      ctx.log.error('scheduled communication failed', { scheduleId: id, error: String(err) });
      out = { status: 'failed', reason: `error: ${String((err as Error)?.message ?? err)}` };
    }
    const done = clockIso(ctx);
    await ctx.db
      .update(t)
      .set(
        out.status === 'pending'
          ? { status: 'pending', sendAt: out.sendAt, claimedAt: null, updatedAt: done }
          : { status: out.status, statusReason: out.reason, messageId: out.messageId ?? null, processedAt: done, updatedAt: done },
      )
      .where(and(eq(t.id, id), eq(t.status, 'processing')));
    if (out.status === 'pending') counts.rescheduled++;
    else counts[out.status]++;
  }
  return counts;
}

/** When the processor next has work (its `nextDue`): the earliest pending send time after now. */
export async function nextScheduledDue(ctx: Ctx): Promise<number | null> {
  const t = scheduledCommunications;
  return nextDueAt(ctx, { table: t, due: t.sendAt, customer: t.customerId }, eq(t.status, 'pending'));
}
