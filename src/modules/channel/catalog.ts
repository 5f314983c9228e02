import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import { customers } from '../../db/schema/accounts';
import { InventoryData, type InventoryModel } from '../inventory/types';
import { startingPrice, type PriceUnit } from '../inventory/service';
import type { ConnectionRow } from './keys';

type ItemRow = typeof inventoryItems.$inferSelect;

export interface Product {
  productId: string;
  type: 'tour' | 'rental';
  name: string;
  description: string | null;
  category: string | null;
  images: string[];
  merchantId: string;
  merchantName: string;
  connectionId: string;
  locationId: string;
  location: { name: string; address: string; timezone: string } | null;
  currency: string;
  capacity: number;
  seasons: {
    name: string;
    startDate: string | null;
    endDate: string | null;
    dailyPrices: Partial<Record<string, number>>;
    hourlyPrices: Partial<
      Record<string, { basePrice: number; minimumHours?: number; maximumHours?: number; multiHourDiscounts?: { hours: number; discountPercentage: number }[] }>
    >;
  }[];
  startingPrice: number | null;
  priceUnit: PriceUnit;
  taxes: { name: string; rate: number }[];
  totalTaxRate: number;
  tourPricing?: InventoryModel['tourPricing'];
  addons: { addonId: string; name: string; price: number; priceType: string }[];
}

const models = new Map<string, { key: string; model: InventoryModel | null }>();

/** Parses stored item data; a legacy bare hourly number becomes `{basePrice}`. Null when the data is unusable. Cached per item version. */
export function modelOf(item: ItemRow): InventoryModel | null {
  const key = `${item.version}|${item.updatedAt}|${item.name}|${item.locationId}|${item.kind}`;
  const hit = models.get(item.id);
  if (hit?.key === key) return hit.model;
  const parsed = InventoryData.safeParse({ name: item.name, locationId: item.locationId, type: item.kind, ...(item.data ?? {}) });
  const model = parsed.success ? parsed.data : null;
  if (models.size > 2000) models.clear();
  models.set(item.id, { key, model });
  return model;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Taxes that apply to what a reseller sells (the rental or the tickets), and their total rate. */
export function narrowedTaxes(m: InventoryModel) {
  const taxes = (m.taxes ?? []).filter((t) => t.appliesTo !== 'addons').map((t) => ({ name: t.name, rate: t.rate }));
  return { taxes, totalTaxRate: round2(taxes.reduce((a, t) => a + t.rate, 0)) };
}

export function toProduct(
  item: ItemRow,
  m: InventoryModel,
  merchant: { id: string; name: string },
  conn: ConnectionRow,
  loc: typeof locations.$inferSelect | undefined,
): Product {
  const isTour = m.type === 'tour';
  const { taxes, totalTaxRate } = narrowedTaxes(m);
  return {
    productId: item.id,
    type: isTour ? 'tour' : 'rental',
    name: item.name,
    description: m.description ?? null,
    category: m.category ?? null,
    images: m.images ?? [],
    merchantId: merchant.id,
    merchantName: merchant.name,
    connectionId: conn.id,
    locationId: item.locationId,
    location: loc ? { name: loc.name, address: loc.address, timezone: loc.timezone } : null,
    currency: (m.currency ?? loc?.currency ?? conn.currency ?? 'usd').toLowerCase(),
    capacity: m.capacity,
    seasons: isTour
      ? []
      : (m.seasons ?? []).map((s) => ({
          name: s.name,
          startDate: s.startDate ?? null,
          endDate: s.endDate ?? null,
          dailyPrices: s.dailyPrices ?? {},
          hourlyPrices: s.hourlyPrices ?? {},
        })),
    ...startingPrice(m),
    taxes,
    totalTaxRate,
    ...(isTour && m.tourPricing ? { tourPricing: m.tourPricing } : {}),
    addons: (m.addons ?? []).map((a) => ({ addonId: a.addonId, name: a.name, price: a.price, priceType: a.priceType })),
  };
}

/** The items a connection offers (its offer set), not deleted and public. */
export async function offeredItems(ctx: Ctx, conn: ConnectionRow): Promise<ItemRow[]> {
  const rows = await ctx.db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.customerId, conn.customerId), isNull(inventoryItems.deletedAt), eq(inventoryItems.isPublic, true)))
    .orderBy(inventoryItems.displayOrder)
    .all();
  return conn.offerAllInventory ? rows : rows.filter((r) => conn.offeredItemIds.includes(r.id));
}

/** Catalog of the active connections. */
export async function catalog(ctx: Ctx, conns: ConnectionRow[]): Promise<Product[]> {
  const db = ctx.db;
  const active = conns.filter((c) => c.status === 'active');
  if (!active.length) return [];
  const ids = [...new Set(active.map((c) => c.customerId))];
  const [merchants, locs] = await Promise.all([
    db.select({ id: customers.id, name: customers.name }).from(customers).where(inArray(customers.id, ids)).all(),
    db.select().from(locations).where(inArray(locations.customerId, ids)).all(),
  ]);
  const out: Product[] = [];
  for (const conn of active) {
    const merchant = merchants.find((m) => m.id === conn.customerId);
    if (!merchant) continue;
    for (const item of await offeredItems(ctx, conn)) {
      const m = modelOf(item);
      if (m)
        out.push(
          toProduct(
            item,
            m,
            merchant,
            conn,
            locs.find((l) => l.id === item.locationId),
          ),
        );
    }
  }
  return out;
}

/** Finds a product offered to the key; null when it is not offered (indistinguishable from non-existent). */
export async function findOffered(
  ctx: Ctx,
  conns: ConnectionRow[],
  productId: string,
): Promise<{ item: ItemRow; model: InventoryModel; conn: ConnectionRow } | null> {
  const item = await ctx.db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.id, productId), isNull(inventoryItems.deletedAt)))
    .get();
  return offeredOf(conns, item);
}

/** The product when `item` is offered to a key selling through `conns` (public, in the offer set, with usable settings); null otherwise. */
export function offeredOf(conns: ConnectionRow[], item: ItemRow | undefined): { item: ItemRow; model: InventoryModel; conn: ConnectionRow } | null {
  if (!item || !item.isPublic) return null;
  const conn = conns.find((c) => c.customerId === item.customerId);
  if (!conn) return null;
  if (!conn.offerAllInventory && !conn.offeredItemIds.includes(item.id)) return null;
  const model = modelOf(item);
  return model ? { item, model, conn } : null;
}
