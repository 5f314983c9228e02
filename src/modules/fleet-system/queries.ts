/** Reads of the fleet-software link: the operator's link, and the operator's items among some ids (product mappings). */
import { and, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { fleetsysLinks } from '../../db/schema/fleet-system';
import { inventoryItems } from '../../db/schema/inventory';
import type { LinkRow } from './views';

export const linkOf = (ctx: Ctx, customerId: string): Promise<LinkRow | undefined> =>
  ctx.db.select().from(fleetsysLinks).where(eq(fleetsysLinks.customerId, customerId)).get();

/** The ids among \`ids\` that are items of the operator. */
export async function ownItemIds(ctx: Ctx, customerId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await ctx.db
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.customerId, customerId), inArray(inventoryItems.id, ids)))
    .all();
  return new Set(rows.map((r) => r.id));
}
