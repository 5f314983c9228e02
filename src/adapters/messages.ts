import type { Ctx } from '../lib/context';
import type { Stmt } from '../db/client';
import { messageOutbox } from '../db/schema/events';
import { newId } from '../lib/ids';

/**
 * E-mail, SMS, chat and push notifications. Every message is written to `message_outbox` in the
 * caller's batch (so a message exists exactly when its change does). With no provider configured
 * the outbox is the destination (status `sent`, provider `outbox`) and operators read it through
 * GET /outbox/messages; a deployment with a provider marks rows `queued` for the sender job.
 */
export interface OutgoingMessage {
  channel: 'email' | 'sms' | 'chat' | 'push';
  to: string;
  subject?: string;
  body: string;
  template?: string;
  metadata?: Record<string, unknown>;
  customerId?: string | null;
}

export function messageStmt(ctx: Ctx, msg: OutgoingMessage): { id: string; stmt: Stmt } {
  const id = newId('msg');
  return {
    id,
    stmt: ctx.db.insert(messageOutbox).values({
      id,
      customerId: msg.customerId === undefined ? ctx.principal.customerId : msg.customerId,
      channel: msg.channel,
      to: msg.to,
      subject: msg.subject ?? null,
      body: msg.body,
      template: msg.template ?? null,
      metadata: msg.metadata ?? null,
      status: 'sent',
      provider: 'outbox',
    }),
  };
}

export const emailStmt = (ctx: Ctx, m: Omit<OutgoingMessage, 'channel'>) => messageStmt(ctx, { ...m, channel: 'email' });
export const smsStmt = (ctx: Ctx, m: Omit<OutgoingMessage, 'channel'>) => messageStmt(ctx, { ...m, channel: 'sms' });
export const chatStmt = (ctx: Ctx, m: Omit<OutgoingMessage, 'channel'>) => messageStmt(ctx, { ...m, channel: 'chat' });
