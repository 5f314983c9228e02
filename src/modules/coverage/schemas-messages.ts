import { z } from '@hono/zod-openapi';
import { MESSAGE_CATEGORIES } from './types';

// ---------------------------------------------------------------------------------------------
// Message requests (the underwriter calls Berth)

export const MessageBody = z
  .object({
    policyNumber: z.string().trim().min(1).max(100).optional().openapi({ description: 'The policy, by the number the underwriter issued' }),
    quoteId: z.string().trim().min(1).max(500).optional().openapi({ description: "Or by the underwriter's quote id" }),
    category: z.enum(MESSAGE_CATEGORIES),
    subject: z.string().trim().min(1).max(150).optional(),
    text: z.string().trim().min(1).max(5000).openapi({ description: 'Plain text: it is escaped and placed in Berth\u2019s template' }),
  })
  .refine((b) => !!b.policyNumber || !!b.quoteId, { message: 'policyNumber or quoteId is required', path: ['policyNumber'] })
  .openapi('CoverageMessageRequest');

export const MessageResult = z
  .object({
    messageId: z.string(),
    policyId: z.string(),
    category: z.enum(MESSAGE_CATEGORIES),
    duplicate: z.boolean().openapi({ description: 'This category was already sent for this policy: nothing was sent again' }),
    createdAt: z.string(),
  })
  .openapi('CoverageMessageResult');
