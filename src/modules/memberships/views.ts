import type { z } from '@hono/zod-openapi';
import type { membershipCredits, membershipInvoices, membershipPayments, memberships, membershipTiers, organizations } from '../../db/schema/memberships';
import type * as s from './schemas';
import type { InvoiceLine } from './periods';
import { moneyOut, type Money } from '../../lib/money-view';

export type TierRow = typeof membershipTiers.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;
export type InvoiceRow = typeof membershipInvoices.$inferSelect;
export type PaymentRow = typeof membershipPayments.$inferSelect;
export type CreditRow = typeof membershipCredits.$inferSelect;
export type OrgRow = typeof organizations.$inferSelect;

export interface PausePolicyValue {
  enabled: boolean;
  maxPausesPerYear: number;
  maxPauseDays: number;
}
export interface FamilyOptionsValue {
  enabled: boolean;
  maxMembers: number;
}
export interface BenefitsValue {
  discountPercentage: number;
  creditsPerPeriod: number;
  perks: string[];
}

const num = (v: unknown, dflt: number) => (typeof v === 'number' && Number.isFinite(v) ? v : dflt);

export const pausePolicyOf = (t: TierRow): PausePolicyValue => ({
  enabled: t.pausePolicy?.enabled === true,
  maxPausesPerYear: num(t.pausePolicy?.maxPausesPerYear, 1),
  maxPauseDays: num(t.pausePolicy?.maxPauseDays, 90),
});
export const familyOptionsOf = (t: TierRow): FamilyOptionsValue => ({
  enabled: t.familyOptions?.enabled === true,
  maxMembers: num(t.familyOptions?.maxMembers, 4),
});
export const benefitsOf = (t: TierRow): BenefitsValue => ({
  discountPercentage: num(t.benefits?.discountPercentage, 0),
  creditsPerPeriod: num(t.benefits?.creditsPerPeriod, 0),
  perks: Array.isArray(t.benefits?.perks) ? (t.benefits.perks as string[]) : [],
});

export function tierOut(t: TierRow): z.output<typeof s.Tier> {
  return {
    tierId: t.id,
    customerId: t.customerId,
    name: t.name,
    description: t.description,
    scope: t.scope,
    locationIds: t.locationIds ?? [],
    pricing: { monthly: t.monthlyPrice, yearly: t.yearlyPrice, currency: t.currency },
    benefits: benefitsOf(t),
    pausePolicy: pausePolicyOf(t),
    familyOptions: familyOptionsOf(t),
    allowedMemberTypes: t.allowedMemberTypes ?? ['individual'],
    displayOrder: t.displayOrder,
    isActive: t.isActive,
    isPublic: t.isPublic,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

export function publicTierOut(t: TierRow): z.output<typeof s.PublicTier> {
  const full = tierOut(t);
  return {
    tierId: full.tierId,
    name: full.name,
    description: full.description,
    pricing: full.pricing,
    benefits: full.benefits,
    familyOptions: full.familyOptions,
    displayOrder: full.displayOrder,
  };
}

export interface FamilyView {
  renterId: string;
  email: string;
  name: string | null;
  addedAt: string;
}

export function membershipOut(m: MembershipRow, extra: { creditBalance: number; family: FamilyView[] }): z.output<typeof s.Membership> {
  const dunning = m.openInvoiceId || m.pastDueSince || m.dunningAttempts > 0;
  return {
    membershipId: m.id,
    customerId: m.customerId,
    tierId: m.tierId,
    memberType: m.memberType,
    memberId: m.renterId,
    renterId: m.renterId,
    organizationId: m.organizationId,
    memberEmail: m.memberEmail,
    memberName: m.memberName,
    memberPhone: m.memberPhone,
    billingCycle: m.billingCycle,
    price: m.price,
    currency: m.currency,
    status: m.status,
    cancelAtPeriodEnd: m.cancelAtPeriodEnd,
    canceledAt: m.canceledAt,
    currentPeriodStart: m.currentPeriodStart,
    currentPeriodEnd: m.currentPeriodEnd,
    nextBillingDate: m.status === 'active' && !m.cancelAtPeriodEnd ? m.nextChargeAt : null,
    pausedAt: m.pausedAt,
    resumeAt: m.resumeAt,
    dunning: dunning
      ? { attempts: m.dunningAttempts, nextAttemptAt: m.openInvoiceId ? m.nextChargeAt : null, openInvoiceId: m.openInvoiceId, pastDueSince: m.pastDueSince }
      : null,
    paymentMethod: m.paymentMethodId ? { paymentMethodId: m.paymentMethodId } : null,
    creditBalance: extra.creditBalance,
    familyMembers: extra.family,
    staffId: m.staffId,
    notes: m.notes,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

export function paymentOut(p: PaymentRow): z.output<typeof s.InvoicePayment> {
  return {
    paymentId: p.id,
    kind: p.kind,
    status: p.status,
    amount: p.amount,
    paymentIntentId: p.paymentIntentId,
    refundId: p.refundId,
    failureCode: p.failureCode,
    attempt: p.attempt,
    createdAt: p.createdAt,
  };
}

/** An invoice as the API shows it; `money` is its money view from the ledger (bookings' moneyOfSales). */
export function invoiceOut(i: InvoiceRow, payments: PaymentRow[], money: Money): z.output<typeof s.Invoice> {
  return {
    invoiceId: i.id,
    membershipId: i.membershipId,
    number: i.number,
    kind: i.kind,
    status: i.status,
    periodStart: i.periodStart,
    periodEnd: i.periodEnd,
    currency: i.currency,
    lines: (i.lines ?? []) as unknown as InvoiceLine[],
    total: i.total,
    amountPaid: i.amountPaid,
    amountRefunded: i.amountRefunded,
    attempts: i.attempts,
    nextAttemptAt: i.nextAttemptAt,
    paidAt: i.paidAt,
    reason: i.reason,
    payments: payments.map(paymentOut),
    money: moneyOut(money, i.currency),
    createdAt: i.createdAt,
  };
}

export function creditOut(c: CreditRow): z.output<typeof s.CreditEntry> {
  return {
    entryId: c.id,
    kind: c.kind,
    amount: c.amount,
    balanceAfter: c.balanceAfter,
    description: c.description,
    staffId: c.staffId,
    reference: c.reference,
    createdAt: c.createdAt,
  };
}

export interface OrgMemberView {
  renterId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  addedAt: string;
}

export function orgOut(o: OrgRow, members: OrgMemberView[], membershipId: string | null): z.output<typeof s.Organization> {
  return {
    orgId: o.id,
    customerId: o.customerId,
    name: o.name,
    contactEmail: o.contactEmail,
    contactName: o.contactName,
    contactPhone: o.contactPhone,
    billingAddress: o.billingAddress ?? null,
    maxAuthorizedRenters: o.maxAuthorizedRenters,
    authorizedRenters: members,
    membershipId,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

export function portalMembershipOut(
  m: z.output<typeof s.Membership>,
  tier: TierRow | null,
  card: { brand: string; last4: string } | null,
): z.output<typeof s.PortalMembership> {
  return {
    membershipId: m.membershipId,
    customerId: m.customerId,
    tierId: m.tierId,
    tierName: tier?.name ?? null,
    benefits: tier ? benefitsOf(tier) : null,
    memberEmail: m.memberEmail,
    memberName: m.memberName,
    billingCycle: m.billingCycle,
    price: m.price,
    currency: m.currency,
    status: m.status,
    cancelAtPeriodEnd: m.cancelAtPeriodEnd,
    currentPeriodStart: m.currentPeriodStart,
    currentPeriodEnd: m.currentPeriodEnd,
    nextBillingDate: m.nextBillingDate,
    pausedAt: m.pausedAt,
    resumeAt: m.resumeAt,
    creditBalance: m.creditBalance,
    familyMembers: m.familyMembers,
    pausePolicy: tier ? pausePolicyOf(tier) : null,
    card,
  };
}
