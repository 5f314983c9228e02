import { z } from '@hono/zod-openapi';
import { and, count, desc, eq } from 'drizzle-orm';
import { createRouter, mount, route } from '../../lib/openapi';
import { ctxOf, tenantOf } from '../../lib/context';
import { messageOutbox } from '../../db/schema/events';

const CHANNELS = ['email', 'sms', 'chat', 'push'] as const;
const STATUSES = ['queued', 'sending', 'sent', 'failed', 'skipped'] as const;

const Message = z
  .object({
    id: z.string(),
    customerId: z.string(),
    channel: z.enum(CHANNELS),
    to: z.string(),
    subject: z.string().nullable(),
    body: z.string().openapi({ description: 'The text (for an e-mail its plain-text part)' }),
    template: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    status: z.enum(STATUSES),
    provider: z.string().openapi({ description: '`outbox` when no provider is configured, else the provider (`postmark`, `twilio`...)' }),
    html: z.string().nullable().openapi({ description: 'The HTML part of an e-mail' }),
    rentalId: z.string().nullable(),
    providerMessageId: z.string().nullable(),
    providerStatus: z.string().nullable(),
    statusReason: z.string().nullable(),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable().openapi({ description: 'When a queued message that failed for a passing reason is tried again' }),
    sentAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('OutboxMessage');

const listMessages = route({
  method: 'get',
  path: '/outbox/messages',
  operationId: 'listOutboxMessages',
  tags: ['Messages'],
  summary: 'E-mail, SMS, chat and push messages sent for the account',
  description: `Every message of the account with its outcome: \`sent\` (with the provider delivery id and status), \`queued\`/\`sending\`, \`failed\` (provider reason) or \`skipped\` (reason). With no e-mail/SMS provider configured (the offline default) this outbox is where messages go; with a provider it is the send log. \`rentalId\` lists what was sent for a booking.`,
  query: z.object({
    channel: z.enum(CHANNELS).optional(),
    to: z.string().max(254).optional(),
    template: z.string().max(100).optional(),
    rentalId: z.string().max(128).optional(),
    status: z.enum(STATUSES).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  }),
  ok: z.object({ data: z.array(Message), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi('OutboxMessageList'),
});

const router = createRouter();

mount(router, listMessages, async (c, { query }) => {
  const ctx = ctxOf(c);
  const where = and(
    eq(messageOutbox.customerId, tenantOf(ctx)),
    query.channel ? eq(messageOutbox.channel, query.channel) : undefined,
    query.to ? eq(messageOutbox.to, query.to) : undefined,
    query.template ? eq(messageOutbox.template, query.template) : undefined,
    query.rentalId ? eq(messageOutbox.rentalId, query.rentalId) : undefined,
    query.status ? eq(messageOutbox.status, query.status) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(messageOutbox)
      .where(where)
      .orderBy(desc(messageOutbox.createdAt), desc(messageOutbox.id))
      .limit(query.limit)
      .offset(query.offset)
      .all(),
    ctx.db.select({ n: count() }).from(messageOutbox).where(where).get(),
  ]);
  return c.json({ data: rows, total: total?.n ?? 0, limit: query.limit, offset: query.offset });
});

export default router;
