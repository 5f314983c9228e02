/**
 * What affiliates earn from bookings. A booking is attributed once: to the affiliate of its
 * referral (`extendedData.refAffiliate` of the booking request, set by the public widget's referral
 * links), else to the affiliate of its promo code. Each rental earns `round(basis × rate / 100)`
 * where `basis` is its pre-tax price after discounts (without tip) and `rate` the affiliate's
 * `percentageEarned` WHEN IT WAS EARNED: the `booking.placed` hook records it as the booking is
 * written (whichever path sold it), and the rate is kept on the entry.
 *
 * A cancelled booking's commission is reversed as it is cancelled (the `booking.cancelled` hook
 * excludes its entries). POST /affiliate/recalculate rebuilds the totals from the operator's
 * bookings: rentals not recorded yet (booked before the affiliate existed, or while a hook failed)
 * are recorded at the current rate, entries of cancelled rentals are excluded, and the totals are
 * summed again in SQL. Commissions of code uses that are not bookings (`POST /promoGiftCards/use`)
 * are recorded on the use by the promo-codes module and counted in the same total (queries.ts).
 *
 * A promo code's affiliate is read from the promo-codes module (`POST /promoGiftCards`,
 * `affiliateId`) first, like the booking commit honours its codes first, then from the legacy codes
 * of the operator's settings (`settings.promoCodes[].affiliateId`, through bookings' service).
 * This ledger is what affiliates are paid from; GET /promoGiftCards/affiliate/{affiliateId} reports
 * the same commissions from the codes' side (a booking's from these entries).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import type { BookingCancelled, BookingPlaced } from '../../lib/hooks';
import { affiliateEntries, affiliates } from '../../db/schema/affiliates';
import { attributedRentals, promoAffiliateOf, promoCodesOfAffiliate, type AttributedRental } from '../bookings/service';
import { affiliateOfCode, codesOfAffiliate } from '../promo-codes/service';
import { findAffiliate, getAffiliateInTenant, totalsStmt } from './queries';
import { affiliateOut, type AffiliateRow } from './views';

type Source = 'booking_ref' | 'promo_booking';

const commission = (basis: number, rate: number) => Math.round((Math.max(0, basis) * rate) / 100);

function entryStmt(ctx: Ctx, a: AffiliateRow, source: Source, rentalId: string, basis: number, earnedAt: string): Stmt {
  return ctx.db
    .insert(affiliateEntries)
    .values({
      id: newId('affe'),
      customerId: a.customerId,
      affiliateId: a.id,
      kind: 'commission',
      source,
      sourceId: rentalId,
      basis,
      rate: a.percentageEarned,
      amount: commission(basis, a.percentageEarned),
      excluded: false,
      earnedAt,
    })
    .onConflictDoNothing();
}

/** Hook `booking.placed`: records the commission of a referred or promo-coded booking at the affiliate's current rate. */
export async function onBookingPlaced(ctx: Ctx, e: BookingPlaced): Promise<void> {
  if (!e.refAffiliate && !e.promoCode) return;
  let a: AffiliateRow | undefined;
  let source: Source = 'booking_ref';
  if (e.refAffiliate) a = await findAffiliate(ctx, e.customerId, e.refAffiliate);
  if (!a && e.promoCode) {
    const id = (await affiliateOfCode(ctx, e.customerId, e.promoCode)) ?? (await promoAffiliateOf(ctx, e.customerId, e.promoCode));
    a = id ? await findAffiliate(ctx, e.customerId, id) : undefined;
    source = 'promo_booking';
  }
  if (!a) return;
  await commit(ctx, [...e.rentals.map((r) => entryStmt(ctx, a, source, r.rentalId, r.basis, e.placedAt)), totalsStmt(ctx, e.customerId, a.id)], {
    audit: {
      action: 'affiliate.commission',
      targetType: 'affiliate',
      targetId: a.id,
      customerId: e.customerId,
      details: { transactionId: e.transactionId, source, rate: a.percentageEarned },
    },
  });
}

const BOOKING_SOURCES: Source[] = ['booking_ref', 'promo_booking'];

/** Hook `booking.cancelled`: the rental's commission is reversed (its entries excluded) and the affiliates' totals refreshed. */
export async function onBookingCancelled(ctx: Ctx, e: BookingCancelled): Promise<void> {
  const earned = await ctx.db
    .select({ affiliateId: affiliateEntries.affiliateId })
    .from(affiliateEntries)
    .where(
      and(
        eq(affiliateEntries.customerId, e.customerId),
        inArray(affiliateEntries.source, BOOKING_SOURCES),
        eq(affiliateEntries.sourceId, e.rentalId),
        eq(affiliateEntries.excluded, false),
      ),
    )
    .all();
  const ids = [...new Set(earned.map((r) => r.affiliateId))];
  if (!ids.length) return;
  const exclude = ctx.db
    .update(affiliateEntries)
    .set({ excluded: true })
    .where(and(eq(affiliateEntries.customerId, e.customerId), inArray(affiliateEntries.source, BOOKING_SOURCES), eq(affiliateEntries.sourceId, e.rentalId)));
  await commit(ctx, [exclude, ...ids.map((id) => totalsStmt(ctx, e.customerId, id))], {
    audit: { action: 'affiliate.commission_reversed', targetType: 'booking', targetId: e.rentalId, customerId: e.customerId, details: { affiliateIds: ids } },
  });
}

/** The rentals attributed to the affiliate and how (the referral wins over a promo code of another affiliate). */
async function attributions(ctx: Ctx, a: AffiliateRow): Promise<{ rental: AttributedRental; source: Source }[]> {
  const [stored, legacy, known] = await Promise.all([
    codesOfAffiliate(ctx, a.customerId, a.id),
    promoCodesOfAffiliate(ctx, a.customerId, a.id),
    ctx.db.select({ id: affiliates.id }).from(affiliates).where(eq(affiliates.customerId, a.customerId)).all(),
  ]);
  const ids = new Set(known.map((k) => k.id));
  const codes = [...new Set([...stored, ...legacy])];
  const rentals = await attributedRentals(ctx, a.customerId, { refAffiliate: a.id, promoCodes: codes });
  const out: { rental: AttributedRental; source: Source }[] = [];
  for (const r of rentals) {
    if (r.refAffiliate === a.id) out.push({ rental: r, source: 'booking_ref' });
    // The promo code's affiliate earns unless the booking was referred by another (existing) affiliate.
    else if (r.promoCode && codes.includes(r.promoCode.toLowerCase()) && !(r.refAffiliate && ids.has(r.refAffiliate)))
      out.push({ rental: r, source: 'promo_booking' });
  }
  return out;
}

async function recalculateOne(ctx: Ctx, a: AffiliateRow, nowIso: string) {
  const found = await attributions(ctx, a);
  const cancelled = found.filter((f) => f.rental.status === 'cancelled').map((f) => f.rental.rentalId);
  const counted = found.filter((f) => f.rental.status !== 'cancelled').map((f) => f.rental.rentalId);
  const statements: Stmt[] = found.map((f) => entryStmt(ctx, a, f.source, f.rental.rentalId, f.rental.basis, f.rental.createdAt));
  const mark = (ids: string[], excluded: boolean) => {
    for (let i = 0; i < ids.length; i += 80) {
      statements.push(
        ctx.db
          .update(affiliateEntries)
          .set({ excluded })
          .where(
            and(
              eq(affiliateEntries.customerId, a.customerId),
              eq(affiliateEntries.affiliateId, a.id),
              inArray(affiliateEntries.source, BOOKING_SOURCES),
              inArray(affiliateEntries.sourceId, ids.slice(i, i + 80)),
            ),
          ),
      );
    }
  };
  mark(cancelled, true);
  mark(counted, false);
  statements.push(totalsStmt(ctx, a.customerId, a.id, { recalculatedAt: nowIso }));
  await commit(ctx, statements, {
    audit: { action: 'affiliate.recalculate', targetType: 'affiliate', targetId: a.id, details: { bookings: counted.length, excluded: cancelled.length } },
  });
  const after = await getAffiliateInTenant(ctx, a.customerId, a.id);
  return { ...affiliateOut(after), bookings: counted.length, excludedBookings: cancelled.length };
}

/** POST /affiliate/recalculate: one affiliate, or every affiliate of the operator. */
export async function recalculate(ctx: Ctx, input: { customerId: string; affiliateId?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  const list = input.affiliateId
    ? [await getAffiliateInTenant(ctx, customerId, input.affiliateId)]
    : await ctx.db.select().from(affiliates).where(eq(affiliates.customerId, customerId)).all();
  const nowIso = new Date(ctx.clock.now()).toISOString();
  const data = [];
  for (const a of list) data.push(await recalculateOne(ctx, a, nowIso));
  return { data, recalculatedAt: nowIso };
}
