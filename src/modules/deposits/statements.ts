import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { bookingDepositInfoStmt, insertLedger, memoEntry, scopeOf } from '../bookings/service';
import type { BookingRow, DepositRow } from './views';

// The statements the deposit use cases add to their commit: the ledger memo and the
// rental's deposit summary.

export function ledgerMemo(
  ctx: Ctx,
  b: BookingRow,
  d: { entryType: string; amount: number; currency: string; paymentIntentId: string; description: string; metadata?: Record<string, unknown> },
): Stmt {
  // The bookings ledger's memo entry (affectsBalance false), in the deposit's currency and without an asset.
  const [row] = insertLedger(ctx, [
    memoEntry(
      { ...scopeOf(b), assetId: null, currency: d.currency },
      { entryType: d.entryType, amount: d.amount, description: d.description, source: 'deposit', reference: d.paymentIntentId, metadata: d.metadata },
    ),
  ]);
  return row;
}

/**
 * Merges the deposit summary into the rental's `depositInformation` (an atomic JSON merge in the
 * UPDATE). The booking's version is left alone: it belongs to the booking lifecycle's
 * compare-and-swap (status, times, money), which a deposit change does not touch.
 */
export function depositInfoStmt(ctx: Ctx, b: BookingRow, d: DepositRow): Stmt {
  const patch = {
    paymentIntentId: d.paymentIntentId,
    status: d.status,
    amount: toDollars(d.amount),
    capturedAmount: toDollars(d.capturedAmount),
    currency: d.currency,
    method: d.method,
    updatedAt: nowIso(ctx),
  };
  return bookingDepositInfoStmt(ctx, { customerId: b.customerId, rentalId: b.id, patch });
}
