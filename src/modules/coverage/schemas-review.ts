import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';
import { RESCHEDULE_DELIVERIES } from './types';
import { Offering } from './schemas-offerings';

// ---------------------------------------------------------------------------------------------
// Review (platform staff)

export const ReviewQuery = z.object({ status: z.enum(['draft', 'in_review', 'approved']).default('in_review'), limit: zLimit(), offset: zOffset() });
export const ReviewOffering = Offering.extend({
  partner: z.object({ partnerId: z.string(), name: z.string(), email: z.string(), company: z.string().nullable() }),
}).openapi('CoverageOfferingForReview');
export const ReviewList = z
  .object({ data: z.array(ReviewOffering), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('CoverageReviewList');
export const ApproveBody = z
  .object({
    rescheduleDelivery: z
      .enum(RESCHEDULE_DELIVERIES)
      .default('hourly')
      .openapi({ description: '`hourly`: date changes reach /reschedule within the hour (default); `immediate`: at once; `none`: never' }),
    note: z.string().trim().max(2000).optional(),
  })
  .openapi('ApproveCoverageOffering');
export const RejectBody = z
  .object({ reasons: z.array(z.string().trim().min(1).max(500)).min(1).max(20).openapi({ description: 'What the partner must fix' }) })
  .openapi('RejectCoverageOffering');
