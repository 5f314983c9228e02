/**
 * Bundles as the booking commit reads them from the operator's settings (`customers.settings`):
 *
 *   bundles:    [{bundleCode, name, items: [{inventoryId, quantity}], discountPercentage}]
 *
 * Promo codes and gift cards are the promo-codes module's sale extension (lib/sale-extensions.ts).
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { customers } from '../../db/schema/accounts';

export interface BundleDef {
  bundleCode: string;
  name: string;
  items: { inventoryId: string; quantity: number }[];
  discountPercentage: number;
}

export async function operatorSettings(ctx: Ctx, customerId: string): Promise<Record<string, unknown>> {
  const row = await ctx.db.select({ settings: customers.settings }).from(customers).where(eq(customers.id, customerId)).get();
  return (row?.settings ?? {}) as Record<string, unknown>;
}

export function bundlesOf(settings: Record<string, unknown>): BundleDef[] {
  const list = Array.isArray(settings.bundles) ? settings.bundles : [];
  const out: BundleDef[] = [];
  for (const b of list as Record<string, unknown>[]) {
    if (!b || typeof b.bundleCode !== 'string' || !Array.isArray(b.items)) continue;
    const items = (b.items as Record<string, unknown>[])
      .filter((i) => i && typeof i.inventoryId === 'string')
      .map((i) => ({
        inventoryId: i.inventoryId as string,
        quantity: Number.isInteger(i.quantity) && (i.quantity as number) > 0 ? (i.quantity as number) : 1,
      }));
    if (!items.length) continue;
    const pct = Number(b.discountPercentage ?? 0);
    out.push({
      bundleCode: b.bundleCode,
      name: typeof b.name === 'string' ? b.name : b.bundleCode,
      items,
      discountPercentage: Number.isFinite(pct) ? Math.min(100, Math.max(0, pct)) : 0,
    });
  }
  return out;
}
