import { z } from '@hono/zod-openapi';
import { zEmail, zId, zLimit } from '../../lib/openapi';
import { MoneyViewSchema } from '../../lib/money-view';
import { BILLING_CYCLES } from './types';
import { cents, zCustomerId, zDateOrInstant, zText } from './schemas-fields';
import { Membership } from './schemas-memberships';

// ------------------------------------------------------------------------------------------------
// Billing

export const InvoiceLine = z
  .object({
    description: z.string(),
    kind: z.string(),
    amount: z.number().openapi({ description: 'Cents (negative: a credit)' }),
    proration: z
      .object({ days: z.number(), periodDays: z.number(), rate: z.number().openapi({ description: 'Cents per period' }), formula: z.string() })
      .optional(),
  })
  .openapi('MembershipInvoiceLine');

export const InvoicePayment = z
  .object({
    paymentId: z.string(),
    kind: z.enum(['charge', 'refund']),
    status: z.enum(['succeeded', 'failed']),
    amount: z.number(),
    paymentIntentId: z.string().nullable(),
    refundId: z.string().nullable(),
    failureCode: z.string().nullable(),
    attempt: z.number().nullable(),
    createdAt: z.string(),
  })
  .openapi('MembershipInvoicePayment');

export const Invoice = z
  .object({
    invoiceId: z.string(),
    membershipId: z.string(),
    number: z.string(),
    kind: z.string(),
    status: z.string(),
    periodStart: z.string(),
    periodEnd: z.string(),
    currency: z.string(),
    lines: z.array(InvoiceLine),
    total: z.number(),
    amountPaid: z.number(),
    amountRefunded: z.number(),
    attempts: z.number(),
    nextAttemptAt: z.string().nullable(),
    paidAt: z.string().nullable(),
    reason: z.string().nullable(),
    payments: z.array(InvoicePayment),
    money: MoneyViewSchema.openapi({
      description: "The invoice's money from the ledger (the one money view, in dollars): its lines, paid, refunded, credited and the balance due",
    }),
    createdAt: z.string(),
  })
  .openapi('MembershipInvoice');

export const HistoryEntry = z
  .object({ type: z.string(), details: z.record(z.string(), z.unknown()).nullable(), actor: z.string().nullable(), at: z.string() })
  .openapi('MembershipHistoryEntry');

export const InvoicesQuery = z.object({ customerId: zCustomerId(), limit: zLimit(100, 50) });
export const InvoiceList = z.object({ data: z.array(Invoice), history: z.array(HistoryEntry) }).openapi('MembershipInvoices');

/** A billing change: the membership after it and the invoice it wrote (null when nothing was invoiced). */
export const BillingResult = z.object({ membership: Membership, invoice: Invoice.nullable() }).openapi('MembershipBillingResult');

export const FreeMonthBody = z.object({ customerId: zCustomerId(), reason: zText(1000).optional() }).openapi('AddFreeMonth');
export const ChangeDateBody = z
  .object({
    customerId: zCustomerId(),
    newBillingDate: zDateOrInstant().openapi({ description: 'The new end of the current period (next billing date); must be in the future' }),
    proRate: z.boolean().optional(),
    reason: zText(1000).optional(),
  })
  .openapi('ChangeBillingDate');
export const SwitchCycleBody = z
  .object({ customerId: zCustomerId(), newBillingCycle: z.enum(BILLING_CYCLES), proRate: z.boolean().optional(), reason: zText(1000).optional() })
  .openapi('SwitchBillingCycle');
export const ChangePriceBody = z
  .object({
    customerId: zCustomerId(),
    newPrice: cents().openapi({ description: 'Cents per cycle' }),
    proRate: z.boolean().optional(),
    reason: zText(1000).optional(),
  })
  .openapi('ChangeMembershipPrice');

export const RefundBody = z
  .object({
    customerId: zCustomerId(),
    invoiceId: zId('minv_01J0000000000000000000000'),
    amount: z.number().int().min(1).max(100_000_000).optional().openapi({ description: 'Cents (default: all that is left to refund on the invoice)' }),
    reason: zText(1000).optional(),
  })
  .openapi('RefundMembershipInvoice');
export const RefundResult = z
  .object({
    membership: Membership,
    invoice: Invoice,
    refund: z.object({ refundId: z.string(), paymentIntentId: z.string(), amount: z.number(), status: z.string() }),
  })
  .openapi('MembershipRefundResult');

export const ResendBody = z
  .object({ customerId: zCustomerId(), email: zEmail().optional().openapi({ description: "Send to this address instead of the member's" }) })
  .openapi('ResendMembershipReceipt');
export const ResendResult = z.object({ invoiceId: z.string(), sentTo: z.string(), messageId: z.string() }).openapi('MembershipReceiptSent');

// ------------------------------------------------------------------------------------------------
// Credits

export const CreditsQuery = z.object({ customerId: zCustomerId(), limit: zLimit(200, 50) });
export const CreditEntry = z
  .object({
    entryId: z.string(),
    kind: z.string(),
    amount: z.number(),
    balanceAfter: z.number(),
    description: z.string(),
    staffId: z.string().nullable(),
    reference: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('MembershipCreditEntry');
export const Credits = z
  .object({ membershipId: z.string(), balance: z.number().openapi({ description: 'Cents' }), history: z.array(CreditEntry) })
  .openapi('MembershipCredits');
export const AdjustCreditsBody = z
  .object({
    customerId: zCustomerId(),
    amount: z
      .number()
      .int()
      .min(-100_000_000)
      .max(100_000_000)
      .refine((v) => v !== 0, 'must not be 0')
      .openapi({ description: 'Cents: positive adds, negative deducts' }),
    description: zText(500).min(1),
    staffId: zText(128).optional(),
  })
  .openapi('AdjustMembershipCredits');
