import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';
import { Dollars, Iso } from './schemas-fields';

// ---------------------------------------------------------------------------------------------
// Renter page

export const PublicCoverageQuery = z.object({ TransactionId: zId('txn_01J0000000000000000000000') });
export const PublicCoverage = z
  .object({
    transactionId: z.string(),
    policies: z.array(
      z.object({
        rentalId: z.string().nullable(),
        status: z.enum(['issued', 'not_issued_yet', 'not_covered', 'cancelled']),
        statusText: z.string(),
        offeringName: z.string(),
        supportEmail: z.string(),
        premium: Dollars,
        currency: z.string(),
        policyNumber: z.string().nullable(),
        documentUrl: z.string().nullable(),
        coveredStartTime: Iso,
        coveredEndTime: Iso,
      }),
    ),
  })
  .openapi('PublicCoverage');
