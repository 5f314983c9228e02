import type { z } from '@hono/zod-openapi';
import { toDollars } from '../../lib/money';
import type { ledgerEntries, renters } from '../../db/schema/bookings';
import type { Accounting as AccountingSchema, JournalEntry, Renter, Suggestion } from './schemas';

export type RenterRow = typeof renters.$inferSelect;
export type Status = RenterRow['status'];
export type Accounting = z.output<typeof AccountingSchema>;
type LedgerRow = typeof ledgerEntries.$inferSelect;

/** A renter as the API answers it (`Renter`), with its ledger totals when they were read. */
export function renterOut(r: RenterRow, accounting?: Accounting): z.output<typeof Renter> {
  return {
    id: r.id,
    customerId: r.customerId,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    address: r.address ?? null,
    dob: r.dob,
    licenseNumber: r.licenseNumber,
    waivers_signed_urls: r.waiversSignedUrls ?? [],
    id_verifications: r.idVerifications ?? {},
    transactions: r.transactions ?? [],
    additional_info: r.additionalInfo ?? {},
    payment_customer_id: r.paymentCustomerId,
    status: r.status,
    riskScore: r.riskScore,
    notes: r.notes ?? [],
    loyaltyPoints: r.loyaltyPoints,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(accounting ? { accounting } : {}),
  };
}

/** The ledger totals read by `accountingSql` (`RenterAccounting`). */
export function parseAccounting(json: string | null | undefined): Accounting {
  const o = json ? (JSON.parse(json) as { b: number; c: number; k: number; n: number; l: string | null; a?: number }) : { b: 0, c: 0, k: 0, n: 0, l: null };
  const a = o.a ?? 0;
  return {
    balanceCents: o.b,
    balance: toDollars(o.b),
    chargesCents: o.c,
    creditsCents: o.k,
    entryCount: o.n,
    lastEntryAt: o.l,
    accountCreditCents: a,
    accountCredit: toDollars(a),
  };
}

/** A search suggestion (`Suggestion`): the renter's name and contact with a display label. */
export function suggestionOut(r: RenterRow): z.output<typeof Suggestion> {
  return {
    id: r.id,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    label: `${r.firstName} ${r.lastName} <${r.email}>`,
  };
}

/** A ledger entry of the renter's journal (`JournalEntry`), amounts in cents and dollars. */
export function journalEntryOut(e: LedgerRow): z.output<typeof JournalEntry> {
  return {
    id: e.id,
    entryType: e.entryType,
    amountCents: e.amount,
    amount: toDollars(e.amount),
    currency: e.currency,
    affectsBalance: e.affectsBalance,
    occurredAt: e.occurredAt,
    description: e.description,
    transactionId: e.transactionId,
    rentalId: e.rentalId,
    locationId: e.locationId,
    itemId: e.itemId,
    source: e.source,
    reference: e.reference,
    metadata: e.metadata ?? null,
    createdAt: e.createdAt,
  };
}
