import type { z } from '@hono/zod-openapi';
import type { messageOutbox } from '../../db/schema/events';
import type { Message } from './schemas';

export type MessageRow = typeof messageOutbox.$inferSelect;

/** A message as the API answers it (`OutboxMessage`); the sender's retry bookkeeping stays inside. */
export function messageOut(m: MessageRow, customerId: string): z.output<typeof Message> {
  return {
    id: m.id,
    customerId,
    channel: m.channel,
    to: m.to,
    subject: m.subject,
    body: m.body,
    template: m.template,
    metadata: m.metadata,
    status: m.status,
    provider: m.provider,
    html: m.html,
    rentalId: m.rentalId,
    providerMessageId: m.providerMessageId,
    providerStatus: m.providerStatus,
    statusReason: m.statusReason,
    attempts: m.attempts,
    sentAt: m.sentAt,
    createdAt: m.createdAt,
  };
}
