import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

// ------------------------------------------------------------------------------------------------
// Shared pieces

/** Required on every call of this family (query for reads, body for writes); another operator's is 403. */
export const zCustomerId = () =>
  z.string().trim().min(1).max(128).openapi({ example: 'cus_demo_marina', description: "The caller's operator id (required; another operator's answers 403)" });

export const cents = (max = 100_000_000) => z.number().int().min(0).max(max);
export const zText = (max: number) => z.string().trim().max(max);
export const zPhone = () =>
  z
    .string()
    .trim()
    .min(5)
    .max(32)
    .regex(/^\+?[0-9 ().-]+$/, 'must be a phone number');
/** A date (YYYY-MM-DD, midnight UTC) or an ISO 8601 instant with offset. */
export const zDateOrInstant = () =>
  z
    .string()
    .trim()
    .refine(
      (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) || (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))),
      'must be YYYY-MM-DD or an ISO 8601 instant',
    )
    .transform((v) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v).toISOString())
    .openapi({ example: '2026-08-01', description: 'YYYY-MM-DD (midnight UTC) or an ISO 8601 instant' });

export const CustomerQuery = z.object({ customerId: zCustomerId() });
export const CustomerBody = z.object({ customerId: zCustomerId() });
export const MembershipParams = z.object({ membershipId: zId('mbr_01J0000000000000000000000') });
export const TierParams = z.object({ tierId: zId('mtr_01J0000000000000000000000') });
export const OrgParams = z.object({ orgId: zId('org_01J0000000000000000000000') });
export const OrgMemberParams = OrgParams.extend({ renterId: zId('rnt_01J0000000000000000000000') });
export const FamilyParams = MembershipParams.extend({ renterId: zId('rnt_01J0000000000000000000000') });
export const InvoiceParams = MembershipParams.extend({ invoiceId: zId('minv_01J0000000000000000000000') });
