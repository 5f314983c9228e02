import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import type { OctoCaller } from './auth';
import { findProduct, listProducts, settingsOf, supplierOf } from './queries';
import { productOut, supplierOut } from './views';

/** GET /octo/v1/supplier: the operator the key sells (`Octo-Supplier-Id` names one when a platform key sells several). */
export async function getSupplier(ctx: Ctx, caller: OctoCaller, supplierId?: string) {
  const { customer, locations } = await supplierOf(ctx, caller.p, supplierId);
  return supplierOut(customer, locations, caller);
}

/** GET /octo/v1/capabilities: what Berth implements. */
export function listCapabilities() {
  return [
    { id: 'octo/pricing', revision: 1, required: false, dependencies: [], docs: 'Net and retail prices in minor units, taxes included' },
    { id: 'octo/content', revision: 1, required: false, dependencies: [], docs: 'Titles, descriptions, images and locations (English)' },
  ];
}

async function cutoffs(ctx: Ctx, customerIds: string[]) {
  const out = new Map<string, number>();
  for (const id of new Set(customerIds)) out.set(id, (await settingsOf(ctx, id)).cancellationCutoffHours);
  return out;
}

/** GET /octo/v1/products. */
export async function getProducts(ctx: Ctx, caller: OctoCaller) {
  const defs = await listProducts(ctx, caller.p);
  const cut = await cutoffs(
    ctx,
    defs.map((d) => d.it.row.customerId),
  );
  const out = [];
  // Each product as of its seller's "now" (a sandbox test clock's operator reads its clock's time).
  for (const d of defs) out.push(productOut(d, caller, cut.get(d.it.row.customerId) ?? 0, (await onOperatorClock(ctx, d.it.row.customerId)).clock.now()));
  return out;
}

/** GET /octo/v1/products/{productId}. */
export async function getProduct(ctx: Ctx, caller: OctoCaller, productId: string) {
  const def = await findProduct(ctx, caller.p, productId);
  ctx = await onOperatorClock(ctx, def.it.row.customerId);
  return productOut(def, caller, (await settingsOf(ctx, def.it.row.customerId)).cancellationCutoffHours, ctx.clock.now());
}
