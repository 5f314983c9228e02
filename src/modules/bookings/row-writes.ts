/**
 * Writes of the `bookings` table that other modules put in their own D1 batch. The bookings module
 * alone writes its table (src/modules/README.md, "Table ownership"): a module that must change a
 * booking row together with its own rows asks for the statement here (through service.ts) and
 * commits it in its batch, so no round trip is added. Every statement is scoped to one operator
 * (`customer_id`). Statements only: nothing here runs a query.
 */
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { bookings } from '../../db/schema/bookings';
import { sqlJsonAppend } from '../../db/json';
import { moneyFromLedgerStmt } from './ledger';

/**
 * The channel's sandbox reset (channel/bookings.ts `sandboxReset`): deletes an operator's test-mode
 * bookings among `rentalIds`, in the batch that also deletes their allocations, ledger rows and
 * activity. Live bookings are never touched (`test_mode` is part of the filter).
 */
export function deleteTestBookingsStmt(ctx: Ctx, t: { customerId: string; rentalIds: string[] }): Stmt {
  return ctx.db.delete(bookings).where(and(eq(bookings.customerId, t.customerId), inArray(bookings.id, t.rentalIds), eq(bookings.testMode, true)));
}

/**
 * The deposits module (deposits/statements.ts `depositInfoStmt`, for authorize, capture, release and
 * provider sync): merges the deposit summary `patch` into the rental's `deposit_information`, as an
 * atomic JSON merge patch inside the UPDATE. The booking's version is left alone: it belongs to the
 * booking lifecycle's compare-and-swap, which a deposit change does not touch.
 */
export function bookingDepositInfoStmt(ctx: Ctx, t: { customerId: string; rentalId: string; patch: Record<string, unknown> }): Stmt {
  return ctx.db
    .update(bookings)
    .set({ depositInformation: sql`json_patch(coalesce(${bookings.depositInformation}, '{}'), ${JSON.stringify(t.patch)})` })
    .where(and(eq(bookings.id, t.rentalId), eq(bookings.customerId, t.customerId)));
}

/**
 * The renter's edit of a rental (public-booking/service.ts `patchPublicBooking`, PATCH /public/booking):
 * writes the edited `customerInfo` and `extendedData` as a compare-and-swap on the booking version
 * read (`version`), moving it to `version + 1` like every booking change; pair it with `activityStmt`
 * of that next version, so a concurrent change makes the batch fail.
 */
export function bookingRenterEditStmt(
  ctx: Ctx,
  t: {
    customerId: string;
    rentalId: string;
    version: number;
    customerInfo: Record<string, unknown>;
    extendedData: Record<string, unknown>;
    updatedAt: string;
  },
): Stmt {
  return ctx.db
    .update(bookings)
    .set({ customerInfo: t.customerInfo, extendedData: t.extendedData, version: t.version + 1, updatedAt: t.updatedAt })
    .where(and(eq(bookings.id, t.rentalId), eq(bookings.customerId, t.customerId), eq(bookings.version, t.version)));
}

/**
 * A renter's tip, paid by card (renter-self-service/money.ts `chargeTip`): raises the rental's
 * `tipTotal` by `amount` (cents) in the batch of the tip's ledger entries and the tip row; its
 * `total` and `amountPaid` follow the ledger (`moneyFromLedgerStmt`), so put this after the entries.
 */
export function bookingTipPaidStmt(ctx: Ctx, t: { customerId: string; rentalId: string; amount: number; updatedAt: string }): Stmt {
  return moneyFromLedgerStmt(ctx, { id: t.rentalId, customerId: t.customerId }, { tipTotal: sql`${bookings.tipTotal} + ${t.amount}` });
}

/**
 * A waiver signed for a transaction (waivers/sign.ts, the signing batch): appends `entry` to
 * `extendedData.signedWaivers` of the operator's bookings whose transaction id or rental id is `ref`,
 * atomically inside the UPDATE (two signatures at once both stay).
 */
export function bookingsWaiverSignedStmt(ctx: Ctx, t: { customerId: string; ref: string; entry: Record<string, unknown> }): Stmt {
  const current = sql`coalesce(json_extract(coalesce(${bookings.extendedData}, '{}'), '$.signedWaivers'), '[]')`;
  return ctx.db
    .update(bookings)
    .set({ extendedData: sql`json_set(coalesce(${bookings.extendedData}, '{}'), '$.signedWaivers', json(${sqlJsonAppend(current, [t.entry])}))` })
    .where(and(eq(bookings.customerId, t.customerId), or(eq(bookings.transactionId, t.ref), eq(bookings.id, t.ref))));
}
