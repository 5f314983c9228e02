/** Reads of the tour marketplace: configurations (by operator or by the marketplace's key) and reservations. */
import { and, asc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { sha256Hex } from '../../lib/crypto';
import type { DB } from '../../db/client';
import { marketplaceConfigs, marketplaceReservations } from '../../db/schema/marketplace';
import { inventoryItems } from '../../db/schema/inventory';
import { bookings } from '../../db/schema/bookings';
import { marketplaceFail } from './errors';
import type { ConfigRow } from './types';

export async function configOf(ctx: Ctx): Promise<ConfigRow | undefined> {
  return ctx.db
    .select()
    .from(marketplaceConfigs)
    .where(eq(marketplaceConfigs.customerId, tenantOf(ctx)))
    .get();
}

/** The configuration of an operator (hooks and jobs, outside a request of the operator). */
export async function configOfCustomer(ctx: Ctx, customerId: string): Promise<ConfigRow | undefined> {
  return ctx.db.select().from(marketplaceConfigs).where(eq(marketplaceConfigs.customerId, customerId)).get();
}

/** The configuration a marketplace key belongs to: 401 when missing or unknown, 403 when inactive. */
export async function configByKey(db: DB, key: string | undefined | null): Promise<ConfigRow> {
  if (!key) throw marketplaceFail('missing_marketplace_key', 'Send the marketplace API key in the exp-api-key header (or data.ApiKey for /ota/api)');
  const cfg = await db
    .select()
    .from(marketplaceConfigs)
    .where(eq(marketplaceConfigs.apiKeyHash, await sha256Hex(key)))
    .get();
  if (!cfg) throw marketplaceFail('invalid_marketplace_key', 'Unknown marketplace API key');
  if (!cfg.isActive) throw marketplaceFail('marketplace_inactive', "The operator's marketplace configuration is inactive");
  return cfg;
}

/** A reservation of the caller's operator matching \`where\`. */
export async function reservationWhere(ctx: Ctx, where: SQL) {
  return ctx.db
    .select()
    .from(marketplaceReservations)
    .where(and(eq(marketplaceReservations.customerId, tenantOf(ctx)), where))
    .get();
}

/** Ids of the operator's public items in display order (at most 500): the tour list. */
export async function publicItemIds(ctx: Ctx): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.customerId, tenantOf(ctx)), isNull(inventoryItems.deletedAt), eq(inventoryItems.isPublic, true)))
    .orderBy(asc(inventoryItems.displayOrder), asc(inventoryItems.id))
    .limit(500)
    .all();
  return rows.map((r) => r.id);
}

/** The booking a confirmation wrote (by its transaction id), if it was written. */
export async function bookingIdByTransaction(db: DB, customerId: string, transactionId: string): Promise<string | undefined> {
  const b = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.transactionId, transactionId), eq(bookings.customerId, customerId)))
    .get();
  return b?.id;
}
