import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { customers } from '../../db/schema/accounts';
import type { CustomerRow } from './views';

/** The caller's account; 404 when the identity has none. */
export async function getOwnCustomer(ctx: Ctx): Promise<CustomerRow> {
  const id = ctx.principal.customerId;
  const row = id ? await ctx.db.select().from(customers).where(eq(customers.id, id)).get() : undefined;
  if (!row) throw new ApiError('not_found', 'No operator account for this identity; create one with POST /customer');
  return row;
}
