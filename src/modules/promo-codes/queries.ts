import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { promoCodes } from '../../db/schema/promo-codes';
import { affiliates } from '../../db/schema/affiliates';
import { promoFail } from './errors';
import type { PromoRow } from './views';

export const codeKey = (code: string) => code.trim().toLowerCase();

export async function findCode(ctx: Ctx, customerId: string, code: string): Promise<PromoRow | undefined> {
  return ctx.db
    .select()
    .from(promoCodes)
    .where(and(eq(promoCodes.customerId, customerId), eq(promoCodes.codeKey, codeKey(code))))
    .get();
}

/** The affiliate a code of the operator pays commission to, or null (unknown code or none). */
export async function affiliateOfCode(ctx: Ctx, customerId: string, code: string): Promise<string | null> {
  return (await findCode(ctx, customerId, code))?.affiliateId ?? null;
}

/** The operator's codes that pay commission to the affiliate (lower-cased). */
export async function codesOfAffiliate(ctx: Ctx, customerId: string, affiliateId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ key: promoCodes.codeKey })
    .from(promoCodes)
    .where(and(eq(promoCodes.customerId, customerId), eq(promoCodes.affiliateId, affiliateId)))
    .all();
  return rows.map((r) => r.key);
}

/** A code of the operator; 404 otherwise (another operator's code included). */
export async function getCode(ctx: Ctx, customerId: string, code: string): Promise<PromoRow> {
  const row = await findCode(ctx, customerId, code);
  if (!row) throw notFound('Promo code');
  return row;
}

/**
 * The affiliate of the operator (400 `invalid_affiliate` when unknown). The affiliates table belongs
 * to the affiliates module; this read moves behind its service once that module exists.
 */
export async function affiliateOf(ctx: Ctx, customerId: string, affiliateId: string) {
  const row = await ctx.db
    .select()
    .from(affiliates)
    .where(and(eq(affiliates.customerId, customerId), eq(affiliates.id, affiliateId)))
    .get();
  if (!row)
    throw promoFail('invalid_affiliate', `Unknown affiliate "${affiliateId}" for this operator`, {
      details: [{ field: 'affiliateId', message: 'unknown affiliate' }],
    });
  return row;
}
