/**
 * The outbox module's face. No other module calls it today: its router reaches the message list and the preview defined here.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { escapeHtml } from '../../lib/template';
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

/** The preview page's headers: no script, no form, no frame may run or load; images over https and inline styles only (what e-mails use). */
export const PREVIEW_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; img-src https: data:; style-src 'unsafe-inline'; sandbox",
  'x-content-type-options': 'nosniff',
  'cache-control': 'private, no-store',
};

/** GET /outbox/messages/{id}/preview: the message's HTML part, else its text in a page (404 for another operator's message). */
export async function previewMessage(ctx: Ctx, id: string): Promise<string> {
  const m = await ctx.db
    .select({ html: messageOutbox.html, body: messageOutbox.body, subject: messageOutbox.subject })
    .from(messageOutbox)
    .where(and(eq(messageOutbox.id, id), eq(messageOutbox.customerId, tenantOf(ctx))))
    .get();
  if (!m) throw notFound('Message');
  if (m.html) return m.html;
  const title = escapeHtml(m.subject ?? 'Message');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><pre style="white-space:pre-wrap;font:15px/1.5 Arial,Helvetica,sans-serif">${escapeHtml(m.body)}</pre></body></html>`;
}
