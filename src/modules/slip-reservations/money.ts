/**
 * A reservation's money through the one money view (lib/money-view.ts): its ledger entries (by
 * `transactionId` = the reservation id: charges as posted, payments, refunds) and, while it is not
 * confirmed (pending, awaiting payment, an expired hold that can still be billed: nothing is posted),
 * its quote as the charges. Every read, list, bill, e-mail and guard of a reservation's money goes
 * through here; the balance is signed (negative: money held for the renter, a cancelled stay's credit).
 */
import type { Ctx } from '../../lib/context';
import { moneyView, type Money, type MoneyEntry, type UnpostedLine } from '../../lib/money-view';
import { ledgerOfSales, type LedgerRow } from '../bookings/service';
import { QUOTED_STATUSES } from './ledger';
import type { ReservationRow } from './views';

/** The quote of a stay not posted yet: its pricing lines, or its total as one line when they do not add up to it. */
function quotedLines(r: Pick<ReservationRow, 'pricing' | 'totalCents' | 'reservationNumber'>): UnpostedLine[] {
  const lines = (r.pricing?.lines ?? []).map((l) => ({
    description: l.description,
    type: l.kind === 'discount' || l.kind === 'tax' ? l.kind : 'revenue',
    amount: l.amountCents,
  }));
  if (lines.reduce((s, l) => s + l.amount, 0) === r.totalCents) return lines;
  return [{ description: `Slip ${r.reservationNumber} (quoted)`, type: 'revenue', amount: r.totalCents }];
}

/** The money of a reservation from its entries (the ledger's, with any written in the same batch). */
export function moneyOf(r: ReservationRow, entries: MoneyEntry[]): Money {
  return moneyView(entries, { unposted: QUOTED_STATUSES.includes(r.status) ? quotedLines(r) : undefined });
}

export async function reservationLedger(ctx: Ctx, r: ReservationRow): Promise<LedgerRow[]> {
  return (await ledgerOfSales(ctx, r.customerId, 'transaction', [r.id])).get(r.id) ?? [];
}

export async function reservationMoney(ctx: Ctx, r: ReservationRow): Promise<Money> {
  return moneyOf(r, await reservationLedger(ctx, r));
}

export async function moneyOfReservations(ctx: Ctx, rows: ReservationRow[]): Promise<Map<string, Money>> {
  if (!rows.length) return new Map();
  const ledger = await ledgerOfSales(
    ctx,
    rows[0].customerId,
    'transaction',
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, moneyOf(r, ledger.get(r.id) ?? [])]));
}

/** Paid and not refunded: what is held for the renter. */
export const netPaidOf = (m: Money) => m.paid - m.refunded;
