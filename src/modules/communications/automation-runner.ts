/**
 * The automation processor (cron every 5 minutes; a test clock's advance steps to each timed
 * automation's instant). For every active automation it finds the bookings (or waitlist offers) it
 * is due for and has not fired for, claims each with a unique row (automation, subject) so it fires
 * at most once whatever runs overlap, then renders the template and sends it. Times are UTC instants
 * relative to the booking: N hours before `start`, N hours after `end`; `booked` and `cancelled` fire
 * for bookings made or cancelled after the automation was created, `hours_before_start` for any
 * booking that has not started yet.
 */
import { and, asc, eq, gt, inArray, lte, min, ne, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Ctx } from '../../lib/context';
import { nowIso, nowMs } from '../../lib/clock';
import { inJobScope } from '../../lib/job-scope';
import { ACTIVE_STATUSES } from '../../lib/booking-status';
import { newId } from '../../lib/ids';
import { sendMessage, type SendResult } from '../../adapters/messages';
import { bookings } from '../../db/schema/bookings';
import { users } from '../../db/schema/accounts';
import { waitlistEntries, waitlistOffers } from '../../db/schema/waitlist';
import { automationRuns, messageAutomations } from '../../db/schema/communications';
import { getItemInTenant } from '../inventory/service';
import type { AutomationRow } from './automations';
import { getCustomTemplate } from './custom-templates';
import { asTemplate, resolveTemplate } from './resolve';
import { tryPhone } from './phone';
import { forTenant } from './process';
import { locationCountry } from './send';
import { renderTemplate, type Template } from './templates';
import { formattersFor, loadRenderSource, variablesFor, type Person, type RenderSource } from './variables';

const HOUR = 3_600_000;
const BATCH = 100;

interface Subject {
  id: string;
  dueAt: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const notRun = (a: AutomationRow, subjectColumn: SQLiteColumn) =>
  sql`NOT EXISTS (SELECT 1 FROM ${automationRuns} WHERE ${automationRuns.automationId} = ${a.id} AND ${automationRuns.subjectId} = ${subjectColumn})`;

/** The bookings or offers an automation is due for at `now` and has not fired for (oldest due first). */
async function dueSubjects(ctx: Ctx, a: AutomationRow, now: number): Promise<Subject[]> {
  const n = a.hours * HOUR;
  if (a.trigger === 'waitlist_offered') {
    const o = waitlistOffers;
    const rows = await ctx.db
      .select({ id: o.id, at: o.createdAt })
      .from(o)
      .where(
        and(
          eq(o.customerId, a.customerId),
          lte(o.createdAt, iso(now)),
          sql`${o.createdAt} >= ${a.createdAt}`,
          a.itemIds.length ? inArray(o.inventoryId, a.itemIds) : undefined,
          notRun(a, o.id),
        ),
      )
      .orderBy(asc(o.createdAt))
      .limit(BATCH)
      .all();
    return rows.map((r) => ({ id: r.id, dueAt: Date.parse(r.at) }));
  }
  const b = bookings;
  const due: Record<Exclude<AutomationRow['trigger'], 'waitlist_offered'>, { at: SQL; where: SQL | undefined }> = {
    booked: { at: sql`${b.createdAt}`, where: and(ne(b.status, 'cancelled'), sql`${b.createdAt} >= ${a.createdAt}`, lte(b.createdAt, iso(now))) },
    cancelled: { at: sql`${b.cancelledAt}`, where: and(eq(b.status, 'cancelled'), sql`${b.cancelledAt} >= ${a.createdAt}`, lte(b.cancelledAt, iso(now))) },
    hours_before_start: { at: sql`${b.start} - ${n}`, where: and(inArray(b.status, ACTIVE_STATUSES), lte(sql`${b.start} - ${n}`, now), gt(b.start, now)) },
    hours_after_end: {
      at: sql`${b.end} + ${n}`,
      where: and(ne(b.status, 'cancelled'), lte(sql`${b.end} + ${n}`, now), sql`${b.end} + ${n} >= ${Date.parse(a.createdAt)}`),
    },
  };
  const d = due[a.trigger];
  const rows = await ctx.db
    .select({ id: b.id, at: d.at })
    .from(b)
    .where(and(eq(b.customerId, a.customerId), d.where, a.itemIds.length ? inArray(b.itemId, a.itemIds) : undefined, notRun(a, b.id)))
    .orderBy(asc(d.at))
    .limit(BATCH)
    .all();
  return rows.map((r) => ({ id: r.id, dueAt: typeof r.at === 'number' ? r.at : Date.parse(String(r.at)) }));
}

interface Rendering {
  src: RenderSource;
  vars: Record<string, string>;
  template: Template | null;
  locationId: string | null;
  rentalId: string | null;
  /** The renter of a waitlist offer (the booking's renter is in `src`). */
  person: Person | null;
  smsConsent: boolean;
}

async function templateOf(ctx: Ctx, a: AutomationRow, itemId: string | null): Promise<Template | null> {
  if (a.templateId.startsWith('mtp_')) {
    const row = await getCustomTemplate(ctx, a.templateId).catch(() => null);
    return row ? asTemplate(row) : null;
  }
  return (await resolveTemplate(ctx, a.templateId, itemId))?.template ?? null;
}

/** What a firing renders: the booking's (or the offer's) data, and the template. */
async function renderingOf(ctx: Ctx, a: AutomationRow, subjectId: string): Promise<Rendering | null> {
  if (a.trigger === 'waitlist_offered') {
    const row = await ctx.db
      .select({ offer: waitlistOffers, entry: waitlistEntries })
      .from(waitlistOffers)
      .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
      .where(and(eq(waitlistOffers.id, subjectId), eq(waitlistOffers.customerId, a.customerId)))
      .get();
    if (!row) return null;
    // The location, the item and the template are read side by side (one round trip).
    const [src, item, template] = await Promise.all([
      loadRenderSource(ctx, { locationId: row.entry.locationId }),
      getItemInTenant(ctx, row.offer.inventoryId, { includeDeleted: true }).catch(() => null),
      templateOf(ctx, a, row.offer.inventoryId),
    ]);
    const person: Person = { firstName: row.entry.firstName, lastName: row.entry.lastName, email: row.entry.email };
    const f = formattersFor(src.location);
    const vars = {
      ...variablesFor(src, person),
      'waitlist.itemName': item?.name ?? '',
      'waitlist.when': f.range(row.offer.start, row.offer.end),
      'waitlist.expiresAt': f.dateTime(Date.parse(row.offer.expiresAt)),
    };
    return { src, vars, template, locationId: row.entry.locationId, rentalId: null, person, smsConsent: false };
  }
  const src = await loadRenderSource(ctx, { rentalId: subjectId }).catch(() => null);
  if (!src?.booking) return null;
  const template = await templateOf(ctx, a, src.booking.itemId);
  return {
    src,
    vars: variablesFor(src, null),
    template,
    locationId: src.booking.locationId,
    rentalId: src.booking.id,
    person: null,
    smsConsent: src.prefs.smsOptIn,
  };
}

/** The people a firing goes to: the renter, the staff user, or the staff of the location (users assigned to it). */
async function recipientsOf(ctx: Ctx, a: AutomationRow, r: Rendering): Promise<{ email: string | null; phone: string | null; staff: boolean }[]> {
  if (a.recipient === 'renter') {
    const who = r.person ?? r.src.renter;
    return [{ email: r.src.prefs.emailOptOut ? null : (who.email ?? null), phone: r.smsConsent ? (who.phone ?? null) : null, staff: false }];
  }
  const staff = await ctx.db
    .select({ email: users.email, phone: users.phone })
    .from(users)
    .where(
      and(
        eq(users.customerId, a.customerId),
        a.staffUserId ? eq(users.id, a.staffUserId) : sql`EXISTS (SELECT 1 FROM json_each(${users.locations}) WHERE json_each.value = ${r.locationId ?? ''})`,
      ),
    )
    .orderBy(asc(users.email))
    .limit(50)
    .all();
  return staff.map((u) => ({ email: u.email, phone: u.phone, staff: true }));
}

type RunOutcome = { status: 'sent' | 'skipped' | 'failed'; reason: string | null; messageIds: string[] };

async function fire(ctx: Ctx, a: AutomationRow, subjectId: string): Promise<RunOutcome> {
  const r = await renderingOf(ctx, a, subjectId);
  if (!r) return { status: 'skipped', reason: 'subject_not_found: the booking or offer no longer exists', messageIds: [] };
  if (!r.template) return { status: 'skipped', reason: `no_template: ${a.templateId} has no template`, messageIds: [] };
  const out = renderTemplate(r.template, r.vars);
  const country = locationCountry(r.src.location);
  const sent: SendResult[] = [];
  const base = {
    customerId: a.customerId,
    template: r.template.templateId,
    rentalId: r.rentalId,
    metadata: { automationId: a.id, trigger: a.trigger, subjectId, ...(r.locationId ? { locationId: r.locationId } : {}) },
  };
  for (const who of await recipientsOf(ctx, a, r)) {
    if (a.channel === 'email' && who.email)
      sent.push(await sendMessage(ctx, { ...base, channel: 'email', to: who.email, subject: out.subject, body: out.text, html: out.html }));
    const phone = a.channel === 'sms' ? tryPhone(who.phone, country) : null;
    if (phone?.smsAvailable) sent.push(await sendMessage(ctx, { ...base, channel: 'sms', to: phone.e164, body: out.sms }));
  }
  const ids = sent.map((m) => m.messageId);
  if (!sent.length) {
    const why = a.channel === 'email' ? 'no e-mail address (or the renter opted out of e-mails)' : 'no SMS number (or no consent to texts)';
    return { status: 'skipped', reason: `no_recipient: ${a.recipient === 'staff' ? 'no staff with an address' : why}`, messageIds: [] };
  }
  if (sent.some((m) => m.status === 'sent' || m.status === 'queued' || m.status === 'sending')) return { status: 'sent', reason: null, messageIds: ids };
  const first = sent.find((m) => m.reason)?.reason ?? null;
  return { status: sent.some((m) => m.status === 'failed') ? 'failed' : 'skipped', reason: first, messageIds: ids };
}

/**
 * Runs every active automation in the job's scope at the clock's now. Each (automation, subject) is
 * claimed by inserting its unique run row first: a second run, parallel or later, finds it and moves
 * on, so a message goes once. A firing interrupted after its claim is not retried (at most once).
 */
export async function runAutomations(ctx: Ctx) {
  const now = nowMs(ctx);
  const counts = { fired: 0, sent: 0, skipped: 0, failed: 0 };
  const autos = await ctx.db
    .select()
    .from(messageAutomations)
    .where(and(eq(messageAutomations.active, true), inJobScope(ctx, messageAutomations.customerId)))
    .orderBy(asc(messageAutomations.createdAt))
    .limit(500)
    .all();
  for (const a of autos) {
    const tctx = forTenant(ctx, a.customerId);
    for (const s of await dueSubjects(tctx, a, now)) {
      const stamp = nowIso(ctx);
      const claimed = await ctx.db
        .insert(automationRuns)
        .values({
          id: newId('arn'),
          customerId: a.customerId,
          automationId: a.id,
          subjectId: s.id,
          dueAt: iso(s.dueAt),
          status: 'claimed',
          createdAt: stamp,
          updatedAt: stamp,
        })
        .onConflictDoNothing()
        .returning({ id: automationRuns.id })
        .get();
      if (!claimed) continue; // another run has it
      counts.fired++;
      let out: RunOutcome;
      try {
        out = await fire(tctx, a, s.id);
      } catch (err) {
        ctx.log.error('automation failed', { automationId: a.id, subjectId: s.id, error: String(err) });
        out = { status: 'failed', reason: `error: ${String((err as Error)?.message ?? err)}`, messageIds: [] };
      }
      counts[out.status]++;
      await ctx.db
        .update(automationRuns)
        .set({ status: out.status, statusReason: out.reason, messageIds: out.messageIds, updatedAt: nowIso(ctx) })
        .where(eq(automationRuns.id, claimed.id));
    }
  }
  return counts;
}

/** When a timed automation next fires (its job's `nextDue`, for a test clock's advance): the earliest booking instant ahead. */
export async function nextAutomationDue(ctx: Ctx): Promise<number | null> {
  const now = nowMs(ctx);
  const autos = await ctx.db
    .select()
    .from(messageAutomations)
    .where(
      and(
        eq(messageAutomations.active, true),
        inArray(messageAutomations.trigger, ['hours_before_start', 'hours_after_end']),
        inJobScope(ctx, messageAutomations.customerId),
      ),
    )
    .limit(100)
    .all();
  if (!autos.length) return null;
  const b = bookings;
  const dues = await Promise.all(
    autos.map(async (a) => {
      const at = a.trigger === 'hours_before_start' ? sql<number>`${b.start} - ${a.hours * HOUR}` : sql<number>`${b.end} + ${a.hours * HOUR}`;
      const row = await ctx.db
        .select({ at: min(at) })
        .from(b)
        .where(
          and(
            eq(b.customerId, a.customerId),
            a.trigger === 'hours_before_start' ? inArray(b.status, ACTIVE_STATUSES) : ne(b.status, 'cancelled'),
            gt(at, now),
            a.itemIds.length ? inArray(b.itemId, a.itemIds) : undefined,
          ),
        )
        .get();
      return row?.at == null ? null : Number(row.at);
    }),
  );
  const ahead = dues.filter((d): d is number => d != null);
  return ahead.length ? Math.min(...ahead) : null;
}
