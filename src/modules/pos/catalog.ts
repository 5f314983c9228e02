import { nowIso } from '../../lib/clock';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { auditStmt, commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { posFolderItems, posFolders, posItems, posStock, posVariants } from '../../db/schema/pos';
import { posFail } from './errors';
import { unitPriceCents, unitPriceDollars } from './pricing';
import { itemInLocation, itemsOut, locationOf } from './queries';
import type { ItemRow, VariantRow } from './views';

type VariantInput = { variantId?: string; name: string; price: number; quantity?: number; sku?: string; unit?: string };

const isStockCheck = (err: unknown) => /CHECK constraint failed/i.test(String(err)) && String(err).includes('pos_stock_nonnegative');
export const insufficientStock = (what: string) => posFail('insufficient_stock', `Not enough stock of ${what}: the change would take it below zero`);

async function folderLinks(ctx: Ctx, customerId: string, locationId: string, itemId: string, folderIds: string[] | undefined): Promise<Stmt[]> {
  if (folderIds === undefined) return [];
  const unique = [...new Set(folderIds)];
  if (unique.length) {
    const found = await ctx.db
      .select({ id: posFolders.id })
      .from(posFolders)
      .where(and(eq(posFolders.customerId, customerId), eq(posFolders.locationId, locationId), inArray(posFolders.id, unique)))
      .all();
    if (found.length !== unique.length)
      throw new ApiError('bad_request', 'Unknown folderIds for this location', { details: [{ field: 'folderIds', message: 'unknown folder' }] });
  }
  return [
    ctx.db.delete(posFolderItems).where(and(eq(posFolderItems.itemId, itemId), eq(posFolderItems.customerId, customerId))),
    ...unique.map((folderId) => ctx.db.insert(posFolderItems).values({ folderId, itemId, customerId })),
  ];
}

export async function listItems(ctx: Ctx, q: { locationId: string; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  await locationOf(ctx, q.locationId);
  const where = and(eq(posItems.customerId, customerId), eq(posItems.locationId, q.locationId), isNull(posItems.deletedAt));
  const [rows, total] = await Promise.all([
    ctx.db.select().from(posItems).where(where).orderBy(asc(posItems.name)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(posItems).where(where).get(),
  ]);
  return { data: await itemsOut(ctx, rows), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

function newVariant(customerId: string, itemId: string, v: VariantInput, position: number, allowNegative: boolean) {
  const variantId = newId('pvar');
  const row: typeof posVariants.$inferInsert = {
    id: variantId,
    customerId,
    itemId,
    name: v.name,
    price: unitPriceCents(v.price),
    sku: v.sku ?? null,
    unit: v.unit ?? null,
    position,
  };
  const stock: typeof posStock.$inferInsert = { id: newId('pstk'), customerId, itemId, variantId, tillId: '', quantity: v.quantity ?? 0, allowNegative };
  return { row, stock };
}

export async function createItem(
  ctx: Ctx,
  input: {
    locationId: string;
    name: string;
    category?: string;
    taxRate?: number;
    image?: string;
    variants?: VariantInput[];
    tags?: string[];
    price?: number;
    allowNegativeStock?: boolean;
    folderIds?: string[];
  },
) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  await locationOf(ctx, input.locationId);
  const allowNegative = input.allowNegativeStock ?? false;
  const variants: VariantInput[] = input.variants?.length ? input.variants : [{ name: 'Default', price: input.price ?? 0 }];
  for (const v of variants) if ((v.quantity ?? 0) < 0 && !allowNegative) throw insufficientStock(`"${v.name}"`);
  const itemId = newId('pitm');
  const stmts: Stmt[] = [
    ctx.db.insert(posItems).values({
      id: itemId,
      customerId,
      locationId: input.locationId,
      name: input.name,
      category: input.category ?? null,
      taxRate: input.taxRate ?? 0,
      image: input.image ?? null,
      tags: input.tags ?? [],
      allowNegativeStock: allowNegative,
    }),
  ];
  variants.forEach((v, i) => {
    const n = newVariant(customerId, itemId, v, i, allowNegative);
    stmts.push(ctx.db.insert(posVariants).values(n.row), ctx.db.insert(posStock).values(n.stock));
  });
  stmts.push(...(await folderLinks(ctx, customerId, input.locationId, itemId, input.folderIds)));
  await commit(ctx, stmts, { audit: { action: 'pos.item.create', targetType: 'pos_item', targetId: itemId, details: { name: input.name } } });
  return (await itemsOut(ctx, [await itemInLocation(ctx, customerId, input.locationId, itemId)]))[0];
}

export async function updateItem(
  ctx: Ctx,
  input: {
    locationId: string;
    itemId: string;
    name?: string;
    category?: string | null;
    taxRate?: number;
    image?: string | null;
    variants?: VariantInput[];
    tags?: string[];
    allowNegativeStock?: boolean;
    folderIds?: string[];
  },
) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  const item = await itemInLocation(ctx, customerId, input.locationId, input.itemId);
  const patch: Partial<ItemRow> = {};
  for (const k of ['name', 'category', 'taxRate', 'image', 'tags', 'allowNegativeStock'] as const)
    if (input[k] !== undefined) (patch as Record<string, unknown>)[k] = input[k];
  const stmts: Stmt[] = [];
  if (Object.keys(patch).length)
    stmts.push(
      ctx.db
        .update(posItems)
        .set(patch)
        .where(and(eq(posItems.id, item.id), eq(posItems.customerId, customerId))),
    );
  const allowNegative = input.allowNegativeStock ?? item.allowNegativeStock;
  if (input.allowNegativeStock !== undefined)
    stmts.push(
      ctx.db
        .update(posStock)
        .set({ allowNegative })
        .where(and(eq(posStock.itemId, item.id), eq(posStock.customerId, customerId))),
    );
  if (input.variants) {
    const existing = await ctx.db
      .select()
      .from(posVariants)
      .where(and(eq(posVariants.itemId, item.id), isNull(posVariants.deletedAt)))
      .all();
    const byId = new Map<string, VariantRow>(existing.map((v) => [v.id, v]));
    const kept = new Set<string>();
    input.variants.forEach((v, i) => {
      if (v.variantId) {
        if (!byId.has(v.variantId))
          throw new ApiError('bad_request', `Unknown variantId ${v.variantId} of this item`, {
            details: [{ field: `variants.${i}.variantId`, message: 'unknown variant' }],
          });
        kept.add(v.variantId);
        stmts.push(
          ctx.db
            .update(posVariants)
            .set({ name: v.name, price: unitPriceCents(v.price), sku: v.sku ?? null, unit: v.unit ?? null, position: i })
            .where(and(eq(posVariants.id, v.variantId), eq(posVariants.customerId, customerId))),
        );
      } else {
        if ((v.quantity ?? 0) < 0 && !allowNegative) throw insufficientStock(`"${v.name}"`);
        const n = newVariant(customerId, item.id, v, i, allowNegative);
        stmts.push(ctx.db.insert(posVariants).values(n.row), ctx.db.insert(posStock).values(n.stock));
      }
    });
    const dropped = existing.filter((v) => !kept.has(v.id)).map((v) => v.id);
    if (dropped.length)
      stmts.push(
        ctx.db
          .update(posVariants)
          .set({ deletedAt: nowIso(ctx) })
          .where(and(inArray(posVariants.id, dropped), eq(posVariants.customerId, customerId))),
      );
  }
  stmts.push(...(await folderLinks(ctx, customerId, input.locationId, item.id, input.folderIds)));
  if (!stmts.length)
    throw new ApiError('no_changes', 'Nothing to change: give name, category, taxRate, image, variants, tags, allowNegativeStock or folderIds');
  try {
    await commit(ctx, stmts, { audit: { action: 'pos.item.update', targetType: 'pos_item', targetId: item.id, details: { fields: Object.keys(input) } } });
  } catch (err) {
    if (isStockCheck(err)) throw posFail('insufficient_stock', 'allowNegativeStock cannot be turned off while a variant is below zero');
    throw err;
  }
  return (await itemsOut(ctx, [await itemInLocation(ctx, customerId, input.locationId, item.id)]))[0];
}

export async function deleteItem(ctx: Ctx, input: { locationId: string; itemId: string }) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  const item = await itemInLocation(ctx, customerId, input.locationId, input.itemId);
  await commit(
    ctx,
    [
      ctx.db
        .update(posItems)
        .set({ deletedAt: nowIso(ctx) })
        .where(and(eq(posItems.id, item.id), eq(posItems.customerId, customerId))),
      ctx.db.delete(posFolderItems).where(and(eq(posFolderItems.itemId, item.id), eq(posFolderItems.customerId, customerId))),
    ],
    { audit: { action: 'pos.item.delete', targetType: 'pos_item', targetId: item.id, details: { name: item.name } } },
  );
  return { success: true, itemId: item.id };
}

async function variantOf(ctx: Ctx, customerId: string, itemId: string, variantId: string): Promise<VariantRow> {
  const v = await ctx.db
    .select()
    .from(posVariants)
    .where(and(eq(posVariants.id, variantId), eq(posVariants.itemId, itemId), eq(posVariants.customerId, customerId), isNull(posVariants.deletedAt)))
    .get();
  if (!v) throw notFound('Variant');
  return v;
}

/**
 * PATCH /pos/inventory and /pos/inventory/till: a signed change applied by SQL in one statement
 * (`quantity = quantity + change`); the table's CHECK refuses a result below zero unless the
 * product allows negative stock (400 `insufficient_stock`), so parallel changes never oversell.
 */
export async function changeStock(ctx: Ctx, input: { locationId: string; itemId: string; variantId: string; quantity: number; tillId?: string }) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'pos');
  const item = await itemInLocation(ctx, customerId, input.locationId, input.itemId);
  const v = await variantOf(ctx, customerId, item.id, input.variantId);
  const tillId = input.tillId ?? '';
  // SQLite checks a candidate row's CHECK before an upsert's conflict, so a decrease is a plain
  // UPDATE of the existing row; an increase (or a product allowed below zero) may create the till's row.
  const stmt =
    input.quantity >= 0 || item.allowNegativeStock
      ? ctx.db
          .insert(posStock)
          .values({ id: newId('pstk'), customerId, itemId: item.id, variantId: v.id, tillId, quantity: input.quantity, allowNegative: item.allowNegativeStock })
          .onConflictDoUpdate({
            target: [posStock.variantId, posStock.tillId],
            set: { quantity: sql`${posStock.quantity} + ${input.quantity}`, updatedAt: nowIso(ctx) },
          })
          .returning({ quantity: posStock.quantity })
      : ctx.db
          .update(posStock)
          .set({ quantity: sql`${posStock.quantity} + ${input.quantity}`, updatedAt: nowIso(ctx) })
          .where(and(eq(posStock.variantId, v.id), eq(posStock.tillId, tillId), eq(posStock.customerId, customerId)))
          .returning({ quantity: posStock.quantity });
  const what = `"${item.name} / ${v.name}"${input.tillId ? ` at till ${input.tillId}` : ''}`;
  let quantity: number;
  try {
    // The change and its audit row in one batch (commit() cannot hand back the RETURNING row).
    const [res] = await ctx.db.batch([
      stmt,
      auditStmt(ctx, {
        action: input.tillId ? 'pos.stock.till_change' : 'pos.stock.change',
        targetType: 'pos_stock',
        targetId: v.id,
        details: { itemId: item.id, tillId: input.tillId ?? null, change: input.quantity },
      }),
    ]);
    const rows = res as { quantity: number }[];
    if (!rows.length) throw insufficientStock(what); // no stock at this till yet: nothing to take out
    quantity = rows[0].quantity;
  } catch (err) {
    if (isStockCheck(err)) throw insufficientStock(what);
    throw err;
  }
  return { itemId: item.id, variantId: v.id, tillId: input.tillId ?? null, quantity, change: input.quantity };
}

const FUEL = new Set(['fuel', 'gas', 'gasoline', 'petrol', 'diesel']);

/** GET /pos/gas-price: the location's fuel product (category or tag fuel/gas); 404 when it has none. */
export async function gasPrice(ctx: Ctx, q: { locationId: string }) {
  const customerId = tenantOf(ctx);
  const loc = await locationOf(ctx, q.locationId);
  const items = await ctx.db
    .select()
    .from(posItems)
    .where(and(eq(posItems.customerId, customerId), eq(posItems.locationId, q.locationId), isNull(posItems.deletedAt)))
    .orderBy(asc(posItems.createdAt))
    .all();
  const fuel = items.find((i) => FUEL.has((i.category ?? '').toLowerCase()) || (i.tags ?? []).some((t) => FUEL.has(t.toLowerCase())));
  if (!fuel) throw notFound('Gas item (a product with category or tag "fuel" or "gas")');
  const variants = await ctx.db
    .select()
    .from(posVariants)
    .where(and(eq(posVariants.itemId, fuel.id), isNull(posVariants.deletedAt)))
    .orderBy(asc(posVariants.position))
    .all();
  if (!variants.length) throw notFound('Gas item price');
  return {
    itemId: fuel.id,
    name: fuel.name,
    variantId: variants[0].id,
    price: unitPriceDollars(variants[0].price),
    unit: variants[0].unit ?? 'gallon',
    taxRate: fuel.taxRate,
    currency: loc.currency,
    variants: variants.map((v) => ({ variantId: v.id, name: v.name, price: unitPriceDollars(v.price), unit: v.unit })),
  };
}
