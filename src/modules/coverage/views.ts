import type { z } from '@hono/zod-openapi';
import {
  coverageAmendments,
  coverageCalls,
  coverageEnablements,
  coverageFlags,
  coverageOfferings,
  coveragePolicies,
  coverageQuotes,
} from '../../db/schema/coverage';
import { toDollars } from '../../lib/money';
import type * as s from './schemas';
import type { Question } from './questions';
import { answerable } from './questions';

export type OfferingRow = typeof coverageOfferings.$inferSelect;
export type QuoteRow = typeof coverageQuotes.$inferSelect;
export type PolicyRow = typeof coveragePolicies.$inferSelect;
export type AmendmentRow = typeof coverageAmendments.$inferSelect;
export type FlagRow = typeof coverageFlags.$inferSelect;
export type CallRow = typeof coverageCalls.$inferSelect;
export type EnablementRow = typeof coverageEnablements.$inferSelect;

type SecretInfo = z.output<typeof s.Offering>['secret'];

export const offeringOut = (r: OfferingRow, secret: SecretInfo): z.output<typeof s.Offering> => ({
  offeringId: r.id,
  partnerId: r.partnerId,
  name: r.name,
  supportEmail: r.supportEmail,
  baseUrl: r.baseUrl,
  supportedCountries: r.supportedCountries,
  currencies: r.currencies,
  quoteTimeoutMs: r.quoteTimeoutMs,
  enabled: r.enabled,
  status: r.status,
  payoutAccountId: r.payoutAccountId,
  rescheduleDelivery: r.rescheduleDelivery,
  secret,
  review: { reasons: r.reviewReasons ?? null, note: r.reviewNote, submittedAt: r.submittedAt, reviewedAt: r.reviewedAt, approvedAt: r.approvedAt },
  version: r.version,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const operatorOfferingOut = (r: OfferingRow, enabledLocationIds: string[]): z.output<typeof s.OperatorOffering> => ({
  offeringId: r.id,
  name: r.name,
  supportEmail: r.supportEmail,
  supportedCountries: r.supportedCountries,
  currencies: r.currencies,
  status: r.status,
  enabled: r.enabled,
  live: r.status === 'approved',
  enabledLocationIds,
});

export const enablementOut = (r: EnablementRow, offeringName: string): z.output<typeof s.Enablement> => ({
  enablementId: r.id,
  locationId: r.locationId,
  offeringId: r.offeringId,
  offeringName,
  createdAt: r.createdAt,
});

const iso = (ms: number) => new Date(ms).toISOString();

export function quoteOut(r: QuoteRow, offering: Pick<OfferingRow, 'name' | 'supportEmail'>, questions: Question[]): z.output<typeof s.Quote> {
  return {
    quoteId: r.id,
    offeringId: r.offeringId,
    offering: { name: offering.name, supportEmail: offering.supportEmail },
    status: r.status,
    currency: r.currency,
    estimate: toDollars(r.estimate),
    premium: toDollars(r.premium),
    priceChange: r.premium > r.estimate ? 'higher' : r.premium < r.estimate ? 'lower' : 'none',
    depositEffect: r.depositEffect,
    depositEffectValue: r.depositEffectValue ?? null,
    deposit: { withoutCoverage: toDollars(r.depositBefore), withCoverage: toDollars(r.depositAfter) },
    questions,
    answersNeeded: r.status === 'quoted' && answerable(questions).length > 0,
    reason: r.reason,
    inventoryId: r.inventoryId,
    locationId: r.locationId,
    startTime: iso(r.start),
    endTime: iso(r.end),
    quantity: r.quantity,
    expiresAt: r.expiresAt,
    createdAt: r.createdAt,
  };
}

export const policyOut = (r: PolicyRow, offeringName: string): z.output<typeof s.Policy> => ({
  policyId: r.id,
  quoteId: r.quoteId,
  offeringId: r.offeringId,
  offeringName,
  rentalId: r.rentalId,
  transactionId: r.transactionId,
  locationId: r.locationId,
  status: r.status,
  premium: toDollars(r.premium),
  currency: r.currency,
  policyNumber: r.policyNumber,
  documentUrl: r.documentUrl,
  covered: { startTime: iso(r.coveredStart), endTime: iso(r.coveredEnd) },
  bindAttempts: r.bindAttempts,
  lastError: r.lastError,
  boundAt: r.boundAt,
  transferStatus: r.transferStatus,
  cancelStatus: r.cancelStatus,
  cancelledAt: r.cancelledAt,
  cancelReason: r.cancelReason,
  premiumRefunded: r.premiumRefunded,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const amendmentOut = (r: AmendmentRow): z.output<typeof s.Amendment> => ({
  amendmentId: r.id,
  startTime: iso(r.start),
  endTime: iso(r.end),
  status: r.status,
  reason: r.reason,
  attempts: r.attempts,
  lastError: r.lastError,
  dueAt: r.dueAt,
  completedAt: r.completedAt,
  createdAt: r.createdAt,
});

export const flagOut = (r: FlagRow): z.output<typeof s.Flag> => ({
  flagId: r.id,
  kind: r.kind,
  policyId: r.policyId,
  rentalId: r.rentalId,
  message: r.message,
  createdAt: r.createdAt,
  resolvedAt: r.resolvedAt,
  resolution: r.resolution,
});

export const callOut = (r: CallRow): z.output<typeof s.Call> => ({
  callId: r.id,
  endpoint: r.endpoint,
  outcome: r.outcome,
  statusCode: r.statusCode,
  durationMs: r.durationMs,
  error: r.error,
  subjectId: r.subjectId,
  createdAt: r.createdAt,
});

const PUBLIC_STATUS = {
  pending: ['not_issued_yet', 'The policy has not issued yet: the underwriter is confirming it.'],
  not_issued: ['not_issued_yet', 'The policy has not issued yet. The operator has been told and will contact you.'],
  bound: ['issued', 'Your policy is issued.'],
  not_covered: ['not_covered', 'Your new dates are not covered by this policy. The operator has been told and will contact you.'],
  cancelled: ['cancelled', 'This coverage was cancelled.'],
} as const;

export function publicPolicyOut(r: PolicyRow, o: Pick<OfferingRow, 'name' | 'supportEmail'>): z.output<typeof s.PublicCoverage>['policies'][number] {
  const [status, statusText] = PUBLIC_STATUS[r.status];
  return {
    rentalId: r.rentalId,
    status,
    statusText,
    offeringName: o.name,
    supportEmail: o.supportEmail,
    premium: toDollars(r.premium),
    currency: r.currency,
    policyNumber: r.status === 'bound' ? r.policyNumber : null,
    documentUrl: r.status === 'bound' ? r.documentUrl : null,
    coveredStartTime: iso(r.coveredStart),
    coveredEndTime: iso(r.coveredEnd),
  };
}
