import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowMs, todayIn } from '../../lib/clock';
import { formatCalendarDate, formatLocalDateTime } from '../../lib/local-time';
import { onOperatorClock } from '../../lib/operator-clock';
import { waitlistEntries } from '../../db/schema/waitlist';
import { emailStmt } from '../../adapters/messages';
import { departuresOn, existingWallTime, loadItemContext, openingBounds, type ItemContext } from '../availability/service';
import { asTenant } from '../holds/service';
import { entryOut, iso } from './views';
import { activeKey, type EntryRow } from './types';
import { bad, inThePast } from './errors';
import { errText } from './d1-results';
import { syncOne } from './booked';

// ------------------------------------------------------------------------------------------------
// Join (public)

export interface JoinInput {
  firstName: string;
  lastName: string;
  email: string;
  date: string;
  inventoryId: string;
  locationId: string;
  time?: string;
  duration?: number;
  quantity?: number;
  customerId?: string;
  addons?: unknown;
  boatAddons?: unknown;
  giftCardCode?: string;
  refAffiliate?: string;
}

export async function joinWaitlist(ctx0: Ctx, input: JoinInput): Promise<{ entry: ReturnType<typeof entryOut>; created: boolean }> {
  const caller = ctx0.principal.customerId;
  if (caller && input.customerId && input.customerId !== caller) throw new ApiError('forbidden', 'customerId does not belong to the authenticated operator');
  const ic = await loadItemContext(ctx0.db, input.inventoryId, input.customerId ?? caller ?? null);
  if (ic.row.locationId !== input.locationId) throw notFound('Inventory item at this location');
  const own = caller === ic.row.customerId;
  if (!own && (!ic.row.isPublic || ic.item.model.isPublic === false)) throw notFound('Inventory item');
  const customerId = ic.row.customerId;
  // The operator is known now: "today" and "past" are on its clock.
  const ctx = await onOperatorClock(ctx0, customerId);
  const now = nowMs(ctx);
  validateWanted(ic, input, now, todayIn(ctx, ic.item.timezone));

  const email = input.email.trim().toLowerCase();
  const key = activeKey(ic.row.id, email, input.date, input.time);
  const existing = await findActive(ctx, customerId, key);
  if (existing) return { entry: entryOut(await syncOne(ctx, existing)), created: false };

  const nowIso = iso(now);
  const row: EntryRow = {
    id: newId('wl'),
    customerId,
    locationId: ic.row.locationId,
    inventoryId: ic.row.id,
    firstName: input.firstName,
    lastName: input.lastName,
    email,
    date: input.date,
    time: input.time ?? null,
    duration: input.duration ?? null,
    quantity: input.quantity ?? 1,
    addons: input.addons ?? null,
    boatAddons: input.boatAddons ?? null,
    giftCardCode: input.giftCardCode ?? null,
    refAffiliate: input.refAffiliate ?? null,
    status: 'waiting',
    activeKey: key,
    offerId: null,
    offerStart: null,
    offerEnd: null,
    offerAssetIds: null,
    offeredAt: null,
    offerExpiresAt: null,
    offerBookingUrl: null,
    bookedAt: null,
    bookedRentalId: null,
    expiredAt: null,
    cancelledAt: null,
    closedAt: null,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
  const tctx = asTenant(ctx, customerId);
  const wantedStart = input.time ? existingWallTime(input.date, input.time, ic.item.timezone) : null;
  const when = wantedStart != null ? formatLocalDateTime(wantedStart, ic.item.timezone) : formatCalendarDate(input.date);
  const mail = emailStmt(tctx, {
    customerId,
    to: email,
    subject: `You are on the waitlist: ${ic.row.name} on ${when}`,
    body: `Hello ${row.firstName},\n\nYou are on the waitlist for ${ic.row.name} (${ic.location.name}) on ${when}${row.quantity > 1 ? ` for ${row.quantity}` : ''}. When a spot opens up we hold it for you and e-mail you a booking link.`,
    template: 'waitlist.joined',
    metadata: { entryId: row.id, inventoryId: row.inventoryId, date: row.date, time: row.time },
  });
  try {
    await commit(tctx, [ctx.db.insert(waitlistEntries).values(row), mail.stmt], {
      audit: {
        action: 'waitlist.join',
        targetType: 'waitlist_entry',
        targetId: row.id,
        customerId,
        details: { inventoryId: row.inventoryId, date: row.date, time: row.time, email, quantity: row.quantity },
      },
    });
  } catch (err) {
    // A concurrent join with the same e-mail, item, date and time won the unique index: answer its entry.
    if (/waitlist_entries\.active_key/.test(errText(err))) {
      const winner = await findActive(ctx, customerId, key);
      if (winner) return { entry: entryOut(winner), created: false };
    }
    throw err;
  }
  return { entry: entryOut(row), created: true };
}

async function findActive(ctx: Ctx, customerId: string, key: string) {
  return ctx.db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.customerId, customerId), eq(waitlistEntries.activeKey, key)))
    .get();
}

/**
 * The wanted date/time must exist for the item: a departure of the tour, or a start within a rental's
 * opening hours; not in the past (400 `in_the_past`: `today` is the location's date at `now`).
 */
function validateWanted(ic: ItemContext, input: Pick<JoinInput, 'date' | 'time' | 'duration' | 'quantity'>, now: number, today: string) {
  const tz = ic.item.timezone;
  if (input.date < today) throw inThePast('date', `The date has passed (today is ${formatCalendarDate(today)} at this location)`);
  const quantity = input.quantity ?? 1;
  if (ic.item.kind === 'tour') {
    const deps = departuresOn(ic.item, input.date);
    if (!deps.length) throw bad('date', `The tour has no departures on ${input.date}`);
    if (input.time) {
      const dep = deps.find((d) => d.time === input.time);
      if (!dep) throw bad('time', `${input.time} is not a departure of this tour on ${input.date}; departures: ${deps.map((d) => d.time).join(', ')}`);
      if (dep.start <= now) throw inThePast('time', `The ${input.time} departure on ${input.date} has already left`);
      if (quantity > dep.capacity) throw bad('quantity', `The ${input.time} departure has ${dep.capacity} seats`);
    } else {
      const ahead = deps.filter((d) => d.start > now);
      if (!ahead.length) throw inThePast('date', `Every departure on ${input.date} has already left`);
      const most = Math.max(...ahead.map((d) => d.capacity));
      if (quantity > most) throw bad('quantity', `Departures on ${input.date} have at most ${most} seats`);
    }
    return;
  }
  const b = openingBounds(ic.item, input.date);
  if (!b) throw bad('date', `Closed on ${input.date}`);
  const units = ic.item.assets.filter((a) => a.status === 'active').length;
  if (quantity > units) throw bad('quantity', `The item has ${units} unit${units === 1 ? '' : 's'}`);
  if (input.time) {
    const start = existingWallTime(input.date, input.time, tz);
    if (start == null) throw bad('time', `${input.time} does not exist on ${input.date} (clock change)`);
    if (start < b.open || start >= b.close) throw bad('time', `${input.time} is outside the opening hours (${b.openTime}-${b.closeTime}) on ${input.date}`);
    if (start <= now) throw inThePast('time', `${input.date} ${input.time} has passed`);
  } else if (b.close <= now) {
    throw inThePast('date', `${input.date} is over at this location`);
  }
}
