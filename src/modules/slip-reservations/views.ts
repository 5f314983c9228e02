import type { z } from '@hono/zod-openapi';
import type { slipPayments, slipReservationMessages, slipReservations } from '../../db/schema/slip-reservations';
import type { SlipRow } from '../slips/service';
import type * as s from './schemas';
import { moneyOut, type Money } from '../../lib/money-view';
import { nightsBetween } from './pricing';

export type ReservationRow = typeof slipReservations.$inferSelect;
export type PaymentRow = typeof slipPayments.$inferSelect;
export type MessageRow = typeof slipReservationMessages.$inferSelect;

/**
 * The API view of a reservation; `now` (the caller's clock) says whether a bill hold has lapsed, and
 * `money` is its money view from the ledger (money.ts): paid, refunded and the balance come from it.
 */
export function reservationOut(r: ReservationRow, slip: SlipRow | null | undefined, now: number, money: Money): z.output<typeof s.Reservation> {
  return {
    id: r.id,
    reservationNumber: r.reservationNumber,
    customerId: r.customerId,
    locationId: r.locationId,
    slipId: r.slipId,
    unit: slip ? { id: slip.id, unitNumber: slip.unitNumber, name: slip.name, section: slip.section, unitType: slip.unitType } : null,
    renterId: r.renterId,
    renter: r.renter
      ? { id: r.renterId, firstName: r.renter.firstName, lastName: r.renter.lastName, email: r.renter.email, phone: r.renter.phone ?? null }
      : null,
    status: r.status,
    rateType: r.rateType,
    arrivalDate: r.arrivalDate,
    departureDate: r.departureDate,
    nights: nightsBetween(r.arrivalDate, r.departureDate),
    boat: r.boat,
    pricing: r.pricing,
    currency: r.currency,
    baseCents: r.baseCents,
    feesCents: r.feesCents,
    utilitiesCents: r.utilitiesCents,
    discountCents: r.discountCents,
    taxCents: r.taxCents,
    totalCents: r.totalCents,
    depositCents: r.depositCents,
    amountPaidCents: money.paid,
    amountRefundedCents: money.refunded,
    balanceCents: money.balance,
    money: moneyOut(money, r.currency),
    hold:
      r.status === 'awaiting_payment' && r.holdExpiresAt != null
        ? { expiresAt: new Date(r.holdExpiresAt).toISOString(), expired: r.holdExpiresAt <= now }
        : null,
    billSentAt: r.billSentAt,
    confirmedAt: r.confirmedAt,
    checkedInAt: r.checkedInAt,
    checkedOutAt: r.checkedOutAt,
    cancelledAt: r.cancelledAt,
    cancellationReason: r.cancellationReason,
    expiredAt: r.expiredAt,
    contract: { status: r.contractStatus, contractId: r.contractId, signedAt: r.contractSignedAt },
    recognizedThrough: r.recognizedThrough,
    notes: r.notes,
    source: r.source,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function paymentOut(p: PaymentRow): z.output<typeof s.Payment> {
  return {
    id: p.id,
    reservationId: p.reservationId,
    kind: p.kind,
    method: p.method,
    amountCents: p.amountCents,
    refundedCents: p.refundedCents,
    refundableCents: p.kind === 'payment' ? p.amountCents - p.refundedCents : 0,
    currency: p.currency,
    paymentIntentId: p.paymentIntentId,
    providerRefundId: p.providerRefundId,
    paymentId: p.paymentId,
    reference: p.reference,
    note: p.note,
    card: p.cardBrand || p.cardLast4 ? { brand: p.cardBrand, last4: p.cardLast4 } : null,
    recordedBy: p.recordedBy,
    createdAt: p.createdAt,
  };
}

export function messageOut(m: MessageRow): z.output<typeof s.Message> {
  return {
    id: m.id,
    reservationId: m.reservationId,
    direction: m.direction,
    channel: m.channel,
    subject: m.subject,
    body: m.body,
    sentTo: m.sentTo,
    senderId: m.senderId,
    createdAt: m.createdAt,
  };
}
