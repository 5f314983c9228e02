/**
 * Money keeps its currency. A gift card's balance and a promo code's amount off are in the code's
 * `currency`, and are redeemed only against amounts in that same currency: 400 `currency_mismatch`
 * otherwise (percent-off codes have no amount and apply in any currency). A code's currency is its
 * location's (the location sets the prices); a card bought online is in the currency it was paid in,
 * which must be one the operator sells in.
 */
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { listPublicLocations, locationRowAnyOperator } from '../locations/service';
import { loadItemContext } from '../availability/service';
import type { PromoRow } from './views';

const upper = (c: string) => c.toUpperCase();

/** 400 `currency_mismatch`: money in `held` offered for an amount in `wanted`. */
export function currencyMismatch(what: string, held: string, wanted: string, field = 'currency'): ApiError {
  const message = `${what} is in ${upper(held)} and cannot pay an amount in ${upper(wanted)}`;
  return new ApiError('currency_mismatch', message, { details: [{ field, message }], extra: { currency: held, requestedCurrency: wanted } });
}

/** Whether the code holds money (a gift card's balance, a promo's amount off) rather than a percentage. */
export const holdsMoney = (p: Pick<PromoRow, 'kind' | 'amountOff' | 'percentOff'>) => p.kind === 'gift_card' || (p.percentOff === null && p.amountOff !== null);

/** Throws `currency_mismatch` when a code holding money is offered for an amount in another currency. */
export function requireCurrency(
  p: Pick<PromoRow, 'kind' | 'amountOff' | 'percentOff' | 'currency' | 'code'>,
  wanted: string | null | undefined,
  field?: string,
) {
  if (!wanted || !holdsMoney(p) || p.currency.toLowerCase() === wanted.toLowerCase()) return;
  throw currencyMismatch(p.kind === 'gift_card' ? `The gift card "${p.code}"` : `The promo code "${p.code}"`, p.currency, wanted.toLowerCase(), field);
}

/** The currencies the operator sells in (its active locations'), lower-case. */
export async function operatorCurrencies(ctx: Ctx, customerId: string): Promise<string[]> {
  const locs = await listPublicLocations(ctx, customerId);
  return [...new Set(locs.map((l) => (l.currency || 'usd').toLowerCase()))].sort();
}

/**
 * The currency of money an operator issues or sells: its location's when one is named; else the
 * currency asked for, which must be one the operator sells in; else the operator's only currency.
 * An operator selling in several currencies must name the location or the currency (400).
 */
export async function issueCurrency(ctx: Ctx, customerId: string, q: { locationId?: string | null; requested?: string | null }): Promise<string> {
  const requested = q.requested?.trim().toLowerCase() || null;
  if (q.locationId) {
    const loc = await locationRowAnyOperator(ctx, q.locationId);
    const currency = (loc?.currency || 'usd').toLowerCase();
    if (requested && requested !== currency) throw currencyMismatch(`Location ${q.locationId}`, currency, requested);
    return currency;
  }
  const sold = await operatorCurrencies(ctx, customerId);
  if (requested) {
    if (sold.length && !sold.includes(requested))
      throw new ApiError('currency_mismatch', `This operator sells in ${sold.map(upper).join(', ')}, not ${upper(requested)}`, {
        details: [{ field: 'currency', message: `one of ${sold.join(', ')}` }],
      });
    return requested;
  }
  if (sold.length > 1)
    throw new ApiError('validation_failed', `This operator sells in ${sold.map(upper).join(', ')}: name the locationId or the currency`, {
      details: [{ field: 'currency', message: `one of ${sold.join(', ')}` }],
    });
  return sold[0] ?? 'usd';
}

/** The currency a sale of the operator's items is priced in (as the booking prices it), or null without items. */
export async function saleCurrency(ctx: Ctx, customerId: string, itemIds: readonly string[]): Promise<string | null> {
  if (!itemIds.length) return null;
  return (await loadItemContext(ctx.db, itemIds[0], customerId)).currency;
}
