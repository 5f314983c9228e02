import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { slipReservationMessages } from '../../db/schema/slip-reservations';
import { emailStmt, smsStmt } from '../../adapters/messages';
import { getReservationRow } from './queries';
import { messageOut, type MessageRow } from './views';

/** Staff message to the renter (e-mail or SMS through the message outbox) or an internal note. */
export async function sendMessage(ctx: Ctx, id: string, input: { body: string; subject?: string; channel: 'email' | 'sms' | 'note' }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (input.channel === 'sms' && !r.renter.phone) throw new ApiError('bad_request', 'The renter has no phone number for an SMS');
  const stmts: Stmt[] = [];
  let outboxId: string | null = null;
  let sentTo: string | null = null;
  const subject = input.subject ?? (input.channel === 'note' ? null : `Your reservation ${r.reservationNumber}`);
  if (input.channel !== 'note') {
    sentTo = input.channel === 'sms' ? r.renter.phone! : r.renter.email;
    const meta = { slipReservationId: r.id, reservationNumber: r.reservationNumber };
    const m =
      input.channel === 'sms'
        ? smsStmt(ctx, { to: sentTo, body: input.body, template: 'slip_reservation.message', customerId: r.customerId, metadata: meta })
        : emailStmt(ctx, { to: sentTo, subject: subject!, body: input.body, template: 'slip_reservation.message', customerId: r.customerId, metadata: meta });
    outboxId = m.id;
    stmts.push(m.stmt);
  }
  const row: MessageRow = {
    id: newId('smsg'),
    customerId: r.customerId,
    reservationId: r.id,
    direction: input.channel === 'note' ? 'internal' : 'outbound',
    channel: input.channel,
    subject,
    body: input.body,
    sentTo,
    senderId: ctx.principal.userId ?? ctx.principal.credentialId,
    outboxMessageId: outboxId,
    createdAt: nowIso(ctx),
  };
  stmts.push(ctx.db.insert(slipReservationMessages).values(row));
  await commit(ctx, stmts, {
    audit: { action: 'slip_reservation.message', targetType: 'slip_reservation', targetId: r.id, details: { channel: input.channel, messageId: row.id } },
  });
  return messageOut(row);
}

export async function listMessages(ctx: Ctx, id: string, q: { limit: number; offset: number }) {
  const r = await getReservationRow(ctx, id);
  const where = and(eq(slipReservationMessages.customerId, r.customerId), eq(slipReservationMessages.reservationId, r.id));
  const [rows, count] = await Promise.all([
    ctx.db.select().from(slipReservationMessages).where(where).orderBy(desc(slipReservationMessages.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(slipReservationMessages)
      .where(where)
      .get(),
  ]);
  return { data: rows.map(messageOut), total: Number(count?.n ?? 0), limit: q.limit, offset: q.offset };
}

/** A message the renter wrote in the tenant portal (inbound; the caller checked the renter owns the reservation). */
export async function recordRenterMessage(ctx: Ctx, id: string, input: { body: string; subject?: string }) {
  const r = await getReservationRow(ctx, id);
  const row: MessageRow = {
    id: newId('smsg'),
    customerId: r.customerId,
    reservationId: r.id,
    direction: 'inbound',
    channel: 'portal',
    subject: input.subject ?? null,
    body: input.body,
    sentTo: null,
    senderId: `renter:${r.renterId}`,
    outboxMessageId: null,
    createdAt: nowIso(ctx),
  };
  await commit(ctx, [ctx.db.insert(slipReservationMessages).values(row)], {
    audit: { action: 'slip_reservation.renter_message', targetType: 'slip_reservation', targetId: r.id, details: { messageId: row.id } },
  });
  return messageOut(row);
}

/** The thread the renter sees: every message except internal staff notes, newest first. */
export async function renterThread(ctx: Ctx, id: string, q: { limit: number; offset: number }) {
  const r = await getReservationRow(ctx, id);
  const where = and(
    eq(slipReservationMessages.customerId, r.customerId),
    eq(slipReservationMessages.reservationId, r.id),
    ne(slipReservationMessages.direction, 'internal'),
  );
  const [rows, count] = await Promise.all([
    ctx.db.select().from(slipReservationMessages).where(where).orderBy(desc(slipReservationMessages.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(slipReservationMessages)
      .where(where)
      .get(),
  ]);
  return { data: rows.map(messageOut), total: Number(count?.n ?? 0), limit: q.limit, offset: q.offset };
}
