import { z } from '@hono/zod-openapi';
import { zId, zLimit, zOffset } from '../../lib/openapi';
import { POLICY_STATUSES } from './types';
import { Dollars, Iso, page } from './schemas-fields';

// ---------------------------------------------------------------------------------------------
// Policies, flags

export const PolicyParams = z.object({ policyId: zId('cpl_01J0000000000000000000000') });
export const PolicyQuery = z.object({
  status: z.enum(POLICY_STATUSES).optional(),
  rentalId: zId().optional(),
  limit: zLimit(),
  offset: zOffset(),
});

const Window = z.object({ startTime: Iso, endTime: Iso });
export const Amendment = z
  .object({
    amendmentId: z.string(),
    startTime: Iso,
    endTime: Iso,
    status: z.enum(['pending', 'accepted', 'declined', 'superseded', 'skipped', 'failed']),
    reason: z.string().nullable(),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    dueAt: z.string(),
    completedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('CoverageAmendment');

export const Policy = z
  .object({
    policyId: z.string(),
    quoteId: z.string(),
    offeringId: z.string(),
    offeringName: z.string(),
    rentalId: z.string().nullable(),
    transactionId: z.string(),
    locationId: z.string(),
    status: z.enum(POLICY_STATUSES),
    premium: Dollars,
    currency: z.string(),
    policyNumber: z.string().nullable(),
    documentUrl: z.string().nullable(),
    covered: Window.openapi({ description: 'The window the underwriter covers' }),
    bindAttempts: z.number().int(),
    lastError: z.string().nullable(),
    boundAt: z.string().nullable(),
    transferStatus: z.enum(['none', 'done', 'failed', 'reversed', 'not_needed']),
    cancelStatus: z.enum(['none', 'pending', 'done', 'failed']),
    cancelledAt: z.string().nullable(),
    cancelReason: z.string().nullable(),
    premiumRefunded: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('CoveragePolicy');
export const PolicyDetail = Policy.extend({ amendments: z.array(Amendment) }).openapi('CoveragePolicyDetail');
export const PolicyList = page(Policy, 'CoveragePolicyList');

export const VoidBody = z
  .object({
    reason: z.string().trim().min(1).max(500),
    refund: z.boolean().default(true).openapi({ description: 'Give the premium back to the renter (default)' }),
  })
  .openapi('VoidCoverage');

export const FlagParams = z.object({ flagId: zId('cfl_01J0000000000000000000000') });
export const FlagQuery = z.object({ open: z.enum(['true', 'false']).optional(), limit: zLimit(), offset: zOffset() });
export const Flag = z
  .object({
    flagId: z.string(),
    kind: z.enum(['bind_failed', 'not_covered']),
    policyId: z.string(),
    rentalId: z.string().nullable(),
    message: z.string(),
    createdAt: z.string(),
    resolvedAt: z.string().nullable(),
    resolution: z.string().nullable(),
  })
  .openapi('CoverageFlag');
export const FlagList = page(Flag, 'CoverageFlagList');
export const ResolveBody = z.object({ resolution: z.string().trim().min(1).max(1000) }).openapi('ResolveCoverageFlag');
