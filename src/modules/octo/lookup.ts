import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import type { OctoCaller } from './auth';
import { defOfRow, factsOf } from './holds';
import { bookingOfKey, listBookingsOfKey, rentalsOf, type ListFilter, type OctoBookingRow } from './queries';
import { bookingOut } from './views';
import type { ProductDef } from './catalog';

/** One booking as OCTO answers it now (the operator's booking is the truth once confirmed). */
export async function bookingView(ctx: Ctx, caller: OctoCaller, row: OctoBookingRow) {
  const [def, rentals] = await Promise.all([defOfRow(ctx, caller.p, row), rentalsOf(ctx, [row])]);
  return bookingOut(row, await factsOf(ctx, row, def, rentals.get(row.transactionId) ?? null), caller);
}

/** GET /octo/v1/bookings/{uuid}. */
export async function getBooking(ctx: Ctx, caller: OctoCaller, uuid: string) {
  return bookingView(ctx, caller, await bookingOfKey(ctx, caller.p, uuid));
}

/** GET /octo/v1/bookings: by reseller or supplier reference, or by local date (one date or a range); at least one is required. */
export async function listBookings(ctx: Ctx, caller: OctoCaller, f: ListFilter) {
  if (!f.resellerReference && !f.supplierReference && !f.localDate && !f.localDateStart && !f.localDateEnd)
    throw new ApiError('bad_request', 'Give resellerReference, supplierReference, localDate or localDateStart/localDateEnd');
  if ((f.localDateStart && !f.localDateEnd) || (!f.localDateStart && f.localDateEnd))
    throw new ApiError('bad_request', 'localDateStart and localDateEnd go together');
  const rows = await listBookingsOfKey(ctx, caller.p, f);
  const rentals = await rentalsOf(ctx, rows);
  const defs = new Map<string, ProductDef | null>();
  const out = [];
  for (const row of rows) {
    const k = `${row.connectionId}|${row.productId}`;
    if (!defs.has(k)) defs.set(k, await defOfRow(ctx, caller.p, row).catch(() => null));
    const def = defs.get(k);
    if (!def) continue;
    out.push(bookingOut(row, await factsOf(ctx, row, def, rentals.get(row.transactionId) ?? null), caller));
  }
  return out;
}
