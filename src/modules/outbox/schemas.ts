import { z } from '@hono/zod-openapi';

export const Message = z
  .object({
    id: z.string(),
    customerId: z.string(),
    channel: z.string(),
    to: z.string(),
    subject: z.string().nullable(),
    body: z.string(),
    template: z.string().nullable(),
    metadata: z.unknown(),
    status: z.string(),
    provider: z.string(),
    html: z.string().nullable(),
    rentalId: z.string().nullable(),
    providerMessageId: z.string().nullable(),
    providerStatus: z.string().nullable(),
    statusReason: z.string().nullable(),
    attempts: z.number(),
    sentAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('OutboxMessage');

export const ListMessagesQuery = z.object({
  channel: z.enum(['email', 'sms', 'chat', 'push']).optional(),
  to: z.string().max(254).optional(),
  template: z.string().max(100).optional(),
  rentalId: z.string().max(128).optional(),
  status: z.enum(['queued', 'sending', 'sent', 'failed', 'skipped']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const MessageParams = z.object({ id: z.string().min(1).max(128).openapi({ description: 'The message id (`msg_...`)' }) });
