/**
 * Reads of the voice webhooks. The provider's requests are not an operator's: the location comes
 * from the number called (or the signed URL's \`locationId\`), and every later read is scoped to
 * that location's operator. Callers are matched among the operator's renters by E.164 number.
 */
import { and, count, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { nowMs } from '../../lib/clock';
import { locations, phoneNumbers } from '../../db/schema/locations';
import { bookings, renters } from '../../db/schema/bookings';
import { inventoryItems } from '../../db/schema/inventory';
import { voiceCalls, voicemails } from '../../db/schema/voice';
import { DIGITS_SQL, toE164 } from './phone';
import { voicemailOut } from './views';

export type LocationRow = typeof locations.$inferSelect;
export type CallRow = typeof voiceCalls.$inferSelect;

/** The location a number belongs to: a number bought for it, else its own phone number. */
export async function locationByNumber(ctx: Ctx, called: string | undefined): Promise<LocationRow | undefined> {
  const e164 = toE164(called);
  if (!e164) return undefined;
  const bought = await ctx.db
    .select({ locationId: phoneNumbers.locationId, customerId: phoneNumbers.customerId })
    .from(phoneNumbers)
    .where(eq(phoneNumbers.phoneNumber, e164))
    .get();
  if (bought)
    return ctx.db
      .select()
      .from(locations)
      .where(and(eq(locations.id, bought.locationId), eq(locations.customerId, bought.customerId)))
      .get();
  const digits = e164.slice(1);
  const candidates = await ctx.db
    .select()
    .from(locations)
    .where(sql`${sql.raw(DIGITS_SQL('phone_number'))} LIKE ${`%${digits.slice(-10)}`}`)
    .limit(20)
    .all();
  return candidates.find((l) => toE164(l.phoneNumber) === e164);
}

/** The location of a signed webhook URL (404 unknown). */
export async function locationInCall(ctx: Ctx, locationId: string): Promise<LocationRow> {
  const loc = await ctx.db.select().from(locations).where(eq(locations.id, locationId)).get();
  if (!loc) throw notFound('Location');
  return loc;
}

export interface Caller {
  renterId: string;
  firstName: string;
  booking: { rentalId: string; itemName: string; start: number } | null;
}

/** The caller among the operator's renters (same E.164 number), with their next booking at this location. */
export async function identifyCaller(ctx: Ctx, loc: LocationRow, from: string | undefined): Promise<Caller | null> {
  const e164 = toE164(from);
  if (!e164) return null;
  const last10 = e164.slice(1).slice(-10);
  if (!/^\d+$/.test(last10)) return null;
  const found = await ctx.db
    .select({ id: renters.id, firstName: renters.firstName, phone: renters.phone })
    .from(renters)
    .where(and(eq(renters.customerId, loc.customerId), sql`${sql.raw(DIGITS_SQL('phone'))} LIKE ${`%${last10}`}`, sql`${renters.deletedAt} IS NULL`))
    .limit(20)
    .all();
  const matches = found.filter((r) => toE164(r.phone) === e164);
  if (!matches.length) return null;
  const next = await ctx.db
    .select({ id: bookings.id, start: bookings.start, renterId: bookings.renterId, itemName: inventoryItems.name })
    .from(bookings)
    .leftJoin(inventoryItems, eq(inventoryItems.id, bookings.itemId))
    .where(
      and(
        eq(bookings.customerId, loc.customerId),
        eq(bookings.locationId, loc.id),
        inArray(
          bookings.renterId,
          matches.map((m) => m.id),
        ),
        inArray(bookings.status, ['pending', 'confirmed', 'checked_in']),
        gt(bookings.end, nowMs(ctx)),
      ),
    )
    .orderBy(bookings.start)
    .limit(1)
    .get();
  const renter = (next && matches.find((m) => m.id === next.renterId)) || matches[0];
  return {
    renterId: renter.id,
    firstName: renter.firstName,
    booking: next ? { rentalId: next.id, itemName: next.itemName ?? 'your rental', start: next.start } : null,
  };
}

/** The call a webhook is about (the provider's CallSid). */
export async function callOf(ctx: Ctx, callSid: string): Promise<CallRow | undefined> {
  return ctx.db.select().from(voiceCalls).where(eq(voiceCalls.callSid, callSid)).get();
}

/** The caller identified when the call came in, with the booking found then. */
export async function callerOfCall(ctx: Ctx, call: CallRow | undefined): Promise<Caller | null> {
  if (!call?.renterId) return null;
  const r = await ctx.db
    .select({ firstName: renters.firstName })
    .from(renters)
    .where(and(eq(renters.id, call.renterId), eq(renters.customerId, call.customerId)))
    .get();
  if (!r) return null;
  const b = call.rentalId
    ? await ctx.db
        .select({ id: bookings.id, start: bookings.start, itemName: inventoryItems.name })
        .from(bookings)
        .leftJoin(inventoryItems, eq(inventoryItems.id, bookings.itemId))
        .where(and(eq(bookings.id, call.rentalId), eq(bookings.customerId, call.customerId)))
        .get()
    : undefined;
  return { renterId: call.renterId, firstName: r.firstName, booking: b ? { rentalId: b.id, itemName: b.itemName ?? 'your rental', start: b.start } : null };
}

/** GET /communication/voice/voicemails */
export async function listVoicemails(ctx: Ctx, q: { locationId?: string; limit: number; offset: number }) {
  requirePermission(ctx, 'voice');
  const customerId = tenantOf(ctx);
  const where = and(eq(voicemails.customerId, customerId), q.locationId ? eq(voicemails.locationId, q.locationId) : undefined);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(voicemails).where(where).orderBy(desc(voicemails.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(voicemails).where(where).get(),
  ]);
  return {
    data: rows.map(voicemailOut),
    total: total?.n ?? 0,
    limit: q.limit,
    offset: q.offset,
  };
}
