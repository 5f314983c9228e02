/**
 * The figures of a set of ledger entries, as an accountant reads them. Revenue is analytics' one
 * definition (LedgerSums: sales less discounts, with what is kept beside a sale, net of
 * cancellations and refunds' reversals), so a report and GET /analytics/metrics of the same days
 * agree to the cent. Every figure is in integer cents and positive as the operator reads it.
 */
import { KEPT_TYPES, LedgerSums } from '../analytics/service';
import type { GiftCardLiabilityRow, JournalEntry } from './queries';

/** A gift card sold or reloaded at the counter: a liability, never revenue (pos' gift-card lines). */
export const GIFT_CARD_SALE = 'gift_card_sale';

export interface Figures {
  grossCents: number;
  discountsCents: number;
  adjustmentsCents: number;
  refundsCents: number;
  netCents: number;
  taxCents: number;
  tipsCents: number;
  cancellationFeesCents: number;
  premiumsCents: number;
  platformFeesCents: number;
  paymentsCents: number;
  netPayoutCents: number;
  depositsHeldCents: number;
  depositsReleasedCents: number;
  depositsCapturedCents: number;
  giftCardsSoldCents: number;
  giftCardsRedeemedCents: number;
  ledgerSumCents: number;
  entryCount: number;
}

/** Adds up entries; `figures()` answers what they show. */
export class Tally {
  private readonly sums = new LedgerSums();
  private giftRedeemed = 0;
  private ledgerSum = 0;
  private count = 0;

  add(e: JournalEntry) {
    this.sums.add(e.kind, e.entryType, e.amount);
    if (e.entryType === 'payment' && e.method === 'gift_card') this.giftRedeemed -= e.amount;
    this.ledgerSum += e.amount;
    this.count++;
  }

  figures(): Figures {
    const s = this.sums;
    const payments = -s.sum('payment');
    const refunds = s.sum('refund');
    return {
      grossCents: s.gross(),
      discountsCents: -s.sum('discount'),
      adjustmentsCents: -s.adjustments(),
      refundsCents: refunds,
      netCents: s.revenue(),
      taxCents: s.sum('tax'),
      tipsCents: s.sum('tip'),
      cancellationFeesCents: s.kept('cancellationFees'),
      premiumsCents: s.kept('premiums'),
      platformFeesCents: s.sum('platform_fee'),
      paymentsCents: payments,
      netPayoutCents: payments - refunds,
      depositsHeldCents: s.sum('deposit_hold'),
      depositsReleasedCents: -s.sum('deposit_release'),
      depositsCapturedCents: KEPT_TYPES.depositCaptures.reduce((n, t) => n + s.sum(t), 0),
      giftCardsSoldCents: s.sum(GIFT_CARD_SALE),
      giftCardsRedeemedCents: this.giftRedeemed,
      ledgerSumCents: this.ledgerSum,
      entryCount: this.count,
    };
  }
}

export function tally(entries: JournalEntry[]): Figures {
  const t = new Tally();
  for (const e of entries) t.add(e);
  return t.figures();
}

/** The gift card liability at the end of the range: sold minus redeemed minus expired. */
export function liabilityOf(g: GiftCardLiabilityRow, asOf: string) {
  return {
    asOf,
    soldCents: g.sold,
    redeemedCents: g.redeemed,
    expiredCents: g.expired,
    liabilityCents: g.sold - g.redeemed - g.expired,
  };
}
