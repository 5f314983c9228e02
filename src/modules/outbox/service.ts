/**
 * The outbox module's face. No other module calls it today: its router reaches the message list defined here.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { messageOutbox } from '../../db/schema/events';
import { messageOut } from './views';

export interface ListMessagesInput {
  channel?: 'email' | 'sms' | 'chat' | 'push';
  to?: string;
  template?: string;
  rentalId?: string;
  status?: 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';
  limit: number;
  offset: number;
}

/** The messages of the caller's account with their outcome, newest first (the offline adapters' outbox, or the providers' send log). */
export async function listMessages(ctx: Ctx, q: ListMessagesInput) {
  const customerId = tenantOf(ctx);
  const where = and(
    eq(messageOutbox.customerId, customerId),
    q.channel ? eq(messageOutbox.channel, q.channel) : undefined,
    q.to ? eq(messageOutbox.to, q.to) : undefined,
    q.template ? eq(messageOutbox.template, q.template) : undefined,
    q.rentalId ? eq(messageOutbox.rentalId, q.rentalId) : undefined,
    q.status ? eq(messageOutbox.status, q.status) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(messageOutbox).where(where).orderBy(desc(messageOutbox.createdAt), desc(messageOutbox.id)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(messageOutbox).where(where).get(),
  ]);
  return { data: rows.map((m) => messageOut(m, customerId)), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}
