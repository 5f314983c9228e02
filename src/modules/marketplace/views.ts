/**
 * Row → response mappers of the tour marketplace: the configuration (keys never shown), a
 * reservation, and the outcome of a confirmation, cancellation or amendment (CONFIRMED, or
 * REJECTED with the marketplace's reason code).
 */
import type { z } from '@hono/zod-openapi';
import type { ApiError } from '../../lib/errors';
import { HOLD_MS, type ConfigRow, type ReservationRow } from './types';
import type * as s from './schemas';

export const configOut = (c: ConfigRow): z.output<typeof s.Config> => ({
  customerId: c.customerId,
  supplierId: c.supplierId,
  apiKeyLast4: c.apiKeyLast4,
  hasOutboundApiKey: !!c.outboundApiKey,
  currency: c.currency,
  isActive: c.isActive,
  holdMinutes: HOLD_MS / 60_000,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

export const STATUS_OUT: Record<ReservationRow['status'], 'RESERVED' | 'CONFIRMED' | 'RELEASED' | 'EXPIRED' | 'CANCELLED' | 'CONFIRMING'> = {
  held: 'RESERVED',
  confirming: 'CONFIRMING',
  confirmed: 'CONFIRMED',
  released: 'RELEASED',
  expired: 'EXPIRED',
  cancelled: 'CANCELLED',
};

export const money = (cents: number, currency: string) => ({ amount: cents / 100, currency: currency.toUpperCase() });

/** A reservation as of `now` (the seller's clock): a hold past its expiry reads EXPIRED. */
export const reservationOut = (r: ReservationRow, now: number): z.output<typeof s.Reservation> => ({
  reservationReference: r.id,
  status: r.status === 'held' && r.expiresAt <= now ? ('EXPIRED' as const) : STATUS_OUT[r.status],
  productOptionId: r.productOptionId,
  travelDate: r.travelDate,
  startTime: r.startTime,
  startTimeUtc: new Date(r.start).toISOString(),
  endTimeUtc: new Date(r.end).toISOString(),
  totalTravelers: r.totalTravelers,
  price: money(r.priceCents, r.currency),
  expiresAt: new Date(r.expiresAt).toISOString(),
  holdMinutes: HOLD_MS / 60_000,
});

export type Outcome = z.output<typeof s.Outcome>;

export function confirmed(r: ReservationRow): Outcome {
  return {
    status: 'CONFIRMED',
    bookingRef: r.bookingRef,
    reservationReference: r.id,
    supplierConfirmationNumber: r.transactionId,
    rentalId: r.rentalId,
    rejectionReason: null,
    rejectionMessage: null,
    travelDate: r.travelDate,
    startTime: r.startTime,
    price: money(r.priceCents, r.currency),
  };
}

export function rejected(reason: string, message: string, r?: Partial<ReservationRow> & { bookingRef?: string | null; id?: string }): Outcome {
  return {
    status: 'REJECTED',
    bookingRef: r?.bookingRef ?? null,
    reservationReference: r?.id ?? null,
    supplierConfirmationNumber: null,
    rentalId: null,
    rejectionReason: reason,
    rejectionMessage: message,
    travelDate: r?.travelDate ?? null,
    startTime: r?.startTime ?? null,
    price: null,
  };
}

/** Why a sale was refused, as the marketplace's reason code. */
export function reasonOf(err: ApiError): string {
  if (err.code === 'unavailable') return 'UNAVAILABLE';
  if (err.code === 'version_conflict') return 'PRODUCT_CHANGED';
  if (err.code === 'not_cancellable' || err.code === 'invalid_state') return 'NOT_ALLOWED_IN_CURRENT_STATE';
  if (err.status === 400) return 'INVALID_REQUEST';
  return 'REJECTED';
}
