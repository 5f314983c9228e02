import { and, eq, gte, inArray, lte, or } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { locations } from '../../db/schema/locations';
import { customers } from '../../db/schema/accounts';
import { octoBookings, octoSettings } from '../../db/schema/octo';
import { bookings } from '../../db/schema/bookings';
import { itemContextOf, loadItemContext } from '../availability/service';
import { findOffered, merchantConnections, modelOf, offeredItems, type ChannelPrincipal, type ConnectionRow } from '../channel/service';
import { productDef, type ProductDef } from './catalog';
import { octoFail } from './errors';

export type OctoBookingRow = typeof octoBookings.$inferSelect;

/** The operators a key sells, as their connections (paused ones stay listed: their products answer FORBIDDEN). */
export async function keyConnections(ctx: Ctx, p: ChannelPrincipal): Promise<ConnectionRow[]> {
  return (await merchantConnections(ctx, p)).filter((c) => c.status !== 'removed');
}

/** Every product offered to the key, in each operator's display order. */
export async function listProducts(ctx: Ctx, p: ChannelPrincipal): Promise<ProductDef[]> {
  const conns = (await keyConnections(ctx, p)).filter((c) => c.status === 'active');
  if (!conns.length) return [];
  const locs = await ctx.db
    .select()
    .from(locations)
    .where(
      inArray(
        locations.customerId,
        conns.map((c) => c.customerId),
      ),
    )
    .all();
  const out: ProductDef[] = [];
  for (const conn of conns) {
    for (const row of await offeredItems(ctx, conn)) {
      const loc = locs.find((l) => l.id === row.locationId && l.customerId === row.customerId);
      if (!loc || !modelOf(row)) continue;
      const def = productDef(await itemContextOf(ctx.db, row, loc), conn);
      if (def.options.length) out.push(def);
    }
  }
  return out;
}

/** A product offered to the key; INVALID_PRODUCT_ID when it is not (another operator's item answers the same). */
export async function findProduct(ctx: Ctx, p: ChannelPrincipal, productId: string): Promise<ProductDef> {
  const found = await findOffered(ctx, await keyConnections(ctx, p), productId);
  const invalid = () => octoFail('INVALID_PRODUCT_ID', 'The productId was missing or invalid', { extra: { productId } });
  if (!found) throw invalid();
  if (found.conn.status === 'paused') throw new ApiError('forbidden', 'The operator paused this connection');
  const def = productDef(await loadItemContext(ctx.db, found.item.id, found.item.customerId), found.conn);
  if (!def.options.length) throw invalid();
  return def;
}

/** The operator behind a key, for GET /supplier: the only one, or the one named by `Octo-Supplier-Id` when the key sells several. */
export async function supplierOf(ctx: Ctx, p: ChannelPrincipal, wanted: string | undefined) {
  const conns = (await keyConnections(ctx, p)).filter((c) => c.status === 'active');
  const ids = [...new Set(conns.map((c) => c.customerId))];
  if (!ids.length) throw new ApiError('forbidden', 'No operator is connected to this key yet');
  let id = ids[0];
  if (wanted) {
    if (!ids.includes(wanted)) throw new ApiError('bad_request', `Octo-Supplier-Id ${wanted} is not an operator of this key`);
    id = wanted;
  } else if (ids.length > 1) {
    throw new ApiError('bad_request', `This key sells several operators: name one with the Octo-Supplier-Id header (${ids.join(', ')})`);
  }
  const [c, locs] = await Promise.all([
    ctx.db.select().from(customers).where(eq(customers.id, id)).get(),
    ctx.db.select().from(locations).where(eq(locations.customerId, id)).all(),
  ]);
  return { customer: c!, locations: locs };
}

/** An OCTO booking of the key holder by its uuid (or its id); INVALID_BOOKING_UUID otherwise. */
export async function bookingOfKey(ctx: Ctx, p: ChannelPrincipal, uuid: string): Promise<OctoBookingRow> {
  const row = await ctx.db
    .select()
    .from(octoBookings)
    .where(and(eq(octoBookings.scope, p.scope), or(eq(octoBookings.uuid, uuid), eq(octoBookings.id, uuid))))
    .get();
  if (!row) throw octoFail('INVALID_BOOKING_UUID', 'The uuid was missing, invalid or belongs to no booking of this key', { extra: { uuid } });
  return row;
}

export interface ListFilter {
  resellerReference?: string;
  supplierReference?: string;
  localDate?: string;
  localDateStart?: string;
  localDateEnd?: string;
}

/** The key holder's OCTO bookings matching every filter given (at most 500, by start). */
export async function listBookingsOfKey(ctx: Ctx, p: ChannelPrincipal, f: ListFilter): Promise<OctoBookingRow[]> {
  const conds = [eq(octoBookings.scope, p.scope)];
  if (f.resellerReference) conds.push(eq(octoBookings.resellerReference, f.resellerReference));
  if (f.supplierReference) conds.push(or(eq(octoBookings.transactionId, f.supplierReference), eq(octoBookings.id, f.supplierReference))!);
  if (f.localDate) conds.push(eq(octoBookings.localDate, f.localDate));
  if (f.localDateStart) conds.push(gte(octoBookings.localDate, f.localDateStart));
  if (f.localDateEnd) conds.push(lte(octoBookings.localDate, f.localDateEnd));
  return ctx.db
    .select()
    .from(octoBookings)
    .where(and(...conds))
    .orderBy(octoBookings.start, octoBookings.id)
    .limit(500)
    .all();
}

/** The operator's OCTO settings (defaults when never set). */
export async function settingsOf(ctx: Ctx, customerId: string) {
  const row = await ctx.db.select().from(octoSettings).where(eq(octoSettings.customerId, customerId)).get();
  return { customerId, cancellationCutoffHours: row?.cancellationCutoffHours ?? 0, updatedAt: row?.updatedAt ?? null };
}

/** The operator's bookings of confirmed OCTO bookings, by order id (one read for a list). */
export async function rentalsOf(ctx: Ctx, rows: OctoBookingRow[]) {
  const txns = [...new Set(rows.filter((r) => r.status !== 'ON_HOLD').map((r) => r.transactionId))];
  const out = new Map<string, typeof bookings.$inferSelect>();
  if (!txns.length) return out;
  const found = await ctx.db
    .select()
    .from(bookings)
    .where(and(inArray(bookings.transactionId, txns), inArray(bookings.customerId, [...new Set(rows.map((r) => r.customerId))])))
    .all();
  for (const b of found) out.set(b.transactionId, b);
  return out;
}
