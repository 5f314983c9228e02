import { and, asc, eq, gt, isNull, lt, lte, min, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../lib/context';
import { nowIso as nowIsoOf, nowMs } from '../lib/clock';
import { inJobScope } from '../lib/job-scope';
import { enqueueLater } from '../lib/queue';
import type { QueueMessage } from '../lib/module';
import { insertRows, type Stmt } from '../db/client';
import { messageOutbox } from '../db/schema/events';
import { smsOptOuts } from '../db/schema/communications';
import { newId } from '../lib/ids';
import { emailTransport, headerText, type ProviderResult } from './email';
import { smsTransport, TWILIO_UNSUBSCRIBED } from './sms';

/**
 * E-mail, SMS, chat and push notifications: the ONE way a message leaves Berth. Every message is
 * recorded in `message_outbox` (the send log) with its outcome: `queued`, `sending`, `sent` (with
 * the provider's delivery id and status), `failed` (with the provider's reason) or `skipped` (with
 * the reason, for example an SMS to a number that replied STOP).
 *
 * - `messageStmt` (and `emailStmt`/`smsStmt`/`chatStmt`) records a message in the caller's batch,
 *   so it exists exactly when the change does. Offline (no provider configured for the channel)
 *   the outbox is the destination and the row is final at once (`sent`, or `skipped` for an
 *   opted-out number). With a provider the row is `queued` and its delivery is queued a moment
 *   later (after the commit); the communications sweep delivers anything left every 5 minutes.
 * - `sendMessage` records and delivers now (outside a batch); it answers the outcome.
 *
 * Providers: Postmark for e-mail and Twilio for SMS (src/adapters/email.ts, sms.ts). A temporary
 * provider failure is retried (up to 5 attempts, 1 min doubling); a refusal fails the message.
 */
export type MessageChannel = 'email' | 'sms' | 'chat' | 'push';
export type MessageStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';

export interface OutgoingMessage {
  channel: MessageChannel;
  to: string;
  subject?: string;
  /** Plain text (the whole SMS; the text part of an e-mail). */
  body: string;
  /** HTML part of an e-mail. */
  html?: string | null;
  template?: string;
  metadata?: Record<string, unknown>;
  customerId?: string | null;
  /** The booking the message is about (defaults to `metadata.rentalId`, or the one id of `metadata.rentalIds`). */
  rentalId?: string | null;
  /** E-mail: the address replies go to (kept as `metadata.replyTo`). */
  replyTo?: string | null;
}

export interface SendResult {
  messageId: string;
  channel: MessageChannel;
  to: string;
  status: MessageStatus;
  provider: string;
  providerMessageId: string | null;
  providerStatus: string | null;
  reason: string | null;
}

export const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 60_000;
/** A claimed message whose sender vanished this long ago is failed (never re-sent: the provider may have taken it). */
const STALE_SENDING_MS = 10 * 60_000;
/** Transactional rows younger than this are left to their queued delivery by the sweep. */
const SWEEP_GRACE_MS = 30_000;
/** A queued delivery whose row never appears (the batch failed) is dropped after this long. */
const UNCOMMITTED_DROP_MS = 10 * 60_000;

type Row = typeof messageOutbox.$inferSelect;
export type MessageRow = Row;

/**
 * A step run on a claimed message right before it is sent (the communications module renders an
 * operator's template there): the fields it answers replace the stored ones, in the send and the row.
 */
export type PrepareMessage = (ctx: Ctx, row: Row) => Promise<Partial<Pick<Row, 'subject' | 'body' | 'html' | 'metadata'>> | null>;

/** The provider a channel goes to under this configuration (`outbox` = the offline default). */
export function providerFor(ctx: Pick<Ctx, 'env'>, channel: MessageChannel): 'outbox' | 'postmark' | 'twilio' {
  if (channel === 'email') return emailTransport(ctx.env)?.name ?? 'outbox';
  if (channel === 'sms') return smsTransport(ctx.env)?.name ?? 'outbox';
  return 'outbox';
}

const optedOutSql = (to: string) => sql`EXISTS (SELECT 1 FROM ${smsOptOuts} WHERE ${smsOptOuts.phone} = ${to} AND ${smsOptOuts.status} = 'opted_out')`;
export const OPTED_OUT_REASON = 'opted_out: the number replied STOP; START re-opens it';

/**
 * The header-bound fields of a message (recipient, subject, reply-to, template tag) as recorded and
 * sent: CR, LF and other control characters never reach a header, whoever built the message
 * (adapters/email.ts `headerText`). The body keeps its line breaks.
 */
function clean(msg: OutgoingMessage): OutgoingMessage {
  return {
    ...msg,
    to: headerText(msg.to, 320),
    subject: msg.subject == null ? msg.subject : headerText(msg.subject),
    replyTo: msg.replyTo ? headerText(msg.replyTo, 320) : msg.replyTo,
    template: msg.template == null ? msg.template : headerText(msg.template, 200),
  };
}

function insertQuery(ctx: Ctx, id: string, raw: OutgoingMessage, provider: string, skip: string | undefined, holdIf?: SQL) {
  const msg = clean(raw);
  const now = nowIsoOf(ctx);
  const ids = msg.metadata?.rentalIds;
  const single = Array.isArray(ids) && ids.length === 1 && typeof ids[0] === 'string' ? ids[0] : null;
  const rentalId = msg.rentalId ?? (typeof msg.metadata?.rentalId === 'string' ? msg.metadata.rentalId : single);
  const base = {
    id,
    customerId: msg.customerId === undefined ? ctx.principal.customerId : msg.customerId,
    channel: msg.channel,
    to: msg.to,
    subject: msg.subject ?? null,
    body: msg.body,
    html: msg.html ?? null,
    template: msg.template ?? null,
    metadata: msg.replyTo ? { ...(msg.metadata ?? {}), replyTo: msg.replyTo } : (msg.metadata ?? null),
    rentalId,
    provider,
    createdAt: now,
    updatedAt: now,
  };
  if (skip) return insertRows(ctx.db, messageOutbox, { ...base, status: 'skipped', statusReason: skip });
  if (provider !== 'outbox') return insertRows(ctx.db, messageOutbox, { ...base, status: 'queued' });
  if (msg.channel === 'sms') {
    // Offline SMS: the opt-out check runs inside the insert, so the row is final in the caller's batch.
    const out = optedOutSql(msg.to);
    return ctx.db.insert(messageOutbox).values({
      ...base,
      status: sql`CASE WHEN ${out} THEN 'skipped' ELSE 'sent' END`,
      statusReason: sql`CASE WHEN ${out} THEN ${OPTED_OUT_REASON} ELSE NULL END`,
      sentAt: sql`CASE WHEN ${out} THEN NULL ELSE ${now} END`,
      attempts: 1,
    });
  }
  if (holdIf) {
    // Offline, held for its delivery when the condition holds (an operator template to render there).
    return ctx.db.insert(messageOutbox).values({
      ...base,
      status: sql`CASE WHEN ${holdIf} THEN 'queued' ELSE 'sent' END`,
      sentAt: sql`CASE WHEN ${holdIf} THEN NULL ELSE ${now} END`,
      attempts: sql`CASE WHEN ${holdIf} THEN 0 ELSE 1 END`,
    });
  }
  return insertRows(ctx.db, messageOutbox, { ...base, status: 'sent', sentAt: now, attempts: 1 });
}

/**
 * Records a message in the caller's batch (see the file comment). `skip` records it as skipped
 * with that reason instead of sending it. `holdIf` (an SQL condition evaluated in the insert): an
 * offline message is queued for its delivery instead of final when it holds (its content is made
 * at delivery, by the consumer's `prepare` step).
 */
export function messageStmt(ctx: Ctx, msg: OutgoingMessage, opts: { skip?: string; holdIf?: SQL } = {}): { id: string; stmt: Stmt } {
  const id = newId('msg');
  const provider = providerFor(ctx, msg.channel);
  const stmt = insertQuery(ctx, id, msg, provider, opts.skip, msg.channel === 'sms' ? undefined : opts.holdIf);
  if ((provider !== 'outbox' || (opts.holdIf && msg.channel !== 'sms')) && !opts.skip) {
    // Delivered after the caller's commit: the consumer waits for the row (retries) and drops it if the batch failed.
    // On a sandbox test clock the delayed send is not made: the sweep delivers the row at its due time.
    enqueueLater(ctx, { kind: 'message.deliver', messageId: id, enqueuedAt: nowMs(ctx) }, { delaySeconds: 2 });
  }
  return { id, stmt };
}

export const emailStmt = (ctx: Ctx, m: Omit<OutgoingMessage, 'channel'>, opts: { holdIf?: SQL } = {}) => messageStmt(ctx, { ...m, channel: 'email' }, opts);
export const smsStmt = (ctx: Ctx, m: Omit<OutgoingMessage, 'channel'>) => messageStmt(ctx, { ...m, channel: 'sms' });
export const chatStmt = (ctx: Ctx, m: Omit<OutgoingMessage, 'channel'>) => messageStmt(ctx, { ...m, channel: 'chat' });

/** Records a message and delivers it now; answers the outcome (never throws for a provider refusal). */
export async function sendMessage(ctx: Ctx, msg: OutgoingMessage, opts: { skip?: string } = {}): Promise<SendResult> {
  const id = newId('msg');
  const provider = providerFor(ctx, msg.channel);
  await ctx.db.batch([insertQuery(ctx, id, msg, provider, opts.skip)]);
  if (provider !== 'outbox' && !opts.skip) {
    const delivered = await deliverMessage(ctx, id);
    if (delivered) return delivered;
  }
  return resultOf((await readMessage(ctx, id))!);
}

export function resultOf(r: Row): SendResult {
  return {
    messageId: r.id,
    channel: r.channel,
    to: r.to,
    status: r.status,
    provider: r.provider,
    providerMessageId: r.providerMessageId,
    providerStatus: r.providerStatus,
    reason: r.statusReason,
  };
}

export const readMessage = (ctx: Pick<Ctx, 'db'>, id: string) => ctx.db.select().from(messageOutbox).where(eq(messageOutbox.id, id)).get();

/**
 * Delivers one queued message through its provider. The row is claimed with a conditional UPDATE
 * (`queued` -> `sending`), so two deliveries of the same message never both send it. Answers the
 * outcome, or the row as it is when another sender has it (null when there is no such row).
 */
export async function deliverMessage(ctx: Ctx, id: string, opts: { prepare?: PrepareMessage } = {}): Promise<SendResult | null> {
  const now = nowMs(ctx);
  const nowIso = new Date(now).toISOString();
  const row0 = await ctx.db
    .update(messageOutbox)
    .set({ status: 'sending', attempts: sql`${messageOutbox.attempts} + 1`, updatedAt: nowIso })
    .where(and(eq(messageOutbox.id, id), eq(messageOutbox.status, 'queued'), or(isNull(messageOutbox.nextAttemptAt), lte(messageOutbox.nextAttemptAt, nowIso))))
    .returning()
    .get();
  if (!row0) {
    const row = await readMessage(ctx, id);
    return row ? resultOf(row) : null;
  }
  // The prepare step's content is sent and kept; when it fails, the stored content goes (logged).
  const prepared = opts.prepare
    ? await opts.prepare(ctx, row0).catch((err) => {
        ctx.log.error('message prepare failed; sending the stored content', { messageId: id, error: String(err) });
        return null;
      })
    : null;
  const claimed: Row = prepared ? { ...row0, ...prepared } : row0;
  const content = prepared ?? {};
  const finish = async (outcome: Partial<Row>) => {
    const set = { ...content, ...outcome };
    const row = await ctx.db
      .update(messageOutbox)
      .set({ ...set, updatedAt: nowIsoOf(ctx) })
      .where(and(eq(messageOutbox.id, id), eq(messageOutbox.status, 'sending')))
      .returning()
      .get();
    return resultOf(row ?? { ...claimed, ...set });
  };

  if (claimed.channel === 'sms' && (await isOptedOut(ctx, claimed.to))) return finish({ status: 'skipped', statusReason: OPTED_OUT_REASON });
  let result: ProviderResult | null = null;
  let provider = claimed.provider;
  if (claimed.channel === 'email') {
    const t = emailTransport(ctx.env);
    if (t) {
      provider = t.name;
      result = await t.send({
        to: claimed.to,
        subject: claimed.subject ?? '',
        text: claimed.body,
        html: claimed.html,
        tag: claimed.template,
        replyTo: typeof claimed.metadata?.replyTo === 'string' ? claimed.metadata.replyTo : null,
        metadata: { messageId: id, ...(claimed.rentalId ? { rentalId: claimed.rentalId } : {}) },
      });
    }
  } else if (claimed.channel === 'sms') {
    const t = smsTransport(ctx.env);
    if (t) {
      provider = t.name;
      const base = ctx.env.PUBLIC_BASE_URL?.replace(/\/$/, '');
      result = await t.send({ to: claimed.to, body: claimed.body, statusCallback: base ? `${base}/communication/sms/status` : undefined });
    }
  }
  // No transport any more (configuration changed since it was queued): the outbox is the destination.
  if (!result) return finish({ status: 'sent', provider: 'outbox', sentAt: nowIso, statusReason: null });
  if (result.ok) {
    return finish({
      status: 'sent',
      provider,
      providerMessageId: result.providerMessageId,
      providerStatus: result.providerStatus,
      sentAt: nowIso,
      statusReason: null,
    });
  }
  if (result.retry && claimed.attempts < MAX_ATTEMPTS) {
    const next = new Date(now + RETRY_BASE_MS * 2 ** (claimed.attempts - 1)).toISOString();
    return finish({ status: 'queued', provider, nextAttemptAt: next, statusReason: `retrying: ${result.reason}` });
  }
  if (claimed.channel === 'sms' && result.code === TWILIO_UNSUBSCRIBED) {
    await recordSmsOptOut(ctx, { phone: claimed.to, keyword: 'PROVIDER', source: 'provider' });
  }
  return finish({ status: 'failed', provider, providerStatus: result.providerStatus ?? null, statusReason: result.reason });
}

/**
 * The rows of the operators a sweep works on (lib/job-scope.ts). Messages of no operator (platform
 * mail) are swept on the wall clock only.
 */
function sweepScope(ctx: Ctx) {
  const own = inJobScope(ctx, messageOutbox.customerId);
  return ctx.principal.customerId ? own : or(isNull(messageOutbox.customerId), own);
}

/**
 * The sweep (every 5 minutes): delivers queued messages that are due (retries, and rows whose
 * queued delivery was lost), and fails messages whose sender vanished mid-send.
 */
export async function deliverDueMessages(ctx: Ctx, opts: { limit?: number; prepare?: PrepareMessage } = {}) {
  const now = nowMs(ctx);
  const nowIso = new Date(now).toISOString();
  const scope = sweepScope(ctx);
  const stale = await ctx.db
    .update(messageOutbox)
    .set({ status: 'failed', statusReason: 'interrupted: the sender stopped mid-delivery; not retried, the provider may have accepted it', updatedAt: nowIso })
    .where(and(eq(messageOutbox.status, 'sending'), lt(messageOutbox.updatedAt, new Date(now - STALE_SENDING_MS).toISOString()), scope))
    .returning({ id: messageOutbox.id })
    .all();
  const graceIso = new Date(now - SWEEP_GRACE_MS).toISOString();
  const due = await ctx.db
    .select({ id: messageOutbox.id })
    .from(messageOutbox)
    .where(
      and(
        eq(messageOutbox.status, 'queued'),
        or(and(isNull(messageOutbox.nextAttemptAt), lte(messageOutbox.createdAt, graceIso)), lte(messageOutbox.nextAttemptAt, nowIso)),
        scope,
      ),
    )
    .orderBy(asc(messageOutbox.createdAt))
    .limit(opts.limit ?? 100)
    .all();
  const counts = { sent: 0, failed: 0, skipped: 0, retrying: 0, interrupted: stale.length };
  for (const { id } of due) {
    const r = await deliverMessage(ctx, id, { prepare: opts.prepare });
    if (r?.status === 'sent') counts.sent++;
    else if (r?.status === 'failed') counts.failed++;
    else if (r?.status === 'skipped') counts.skipped++;
    else if (r?.status === 'queued') counts.retrying++;
  }
  return counts;
}

/**
 * When the sweep next has work (its `nextDue`): the earliest retry of a queued message, or the end
 * of the grace of a queued message whose delivery was never made (on a test clock, every one).
 */
export async function nextMessageDue(ctx: Ctx): Promise<number | null> {
  const now = nowMs(ctx);
  const scope = sweepScope(ctx);
  const queued = eq(messageOutbox.status, 'queued');
  const [retry, fresh] = await ctx.db.batch([
    ctx.db
      .select({ at: min(messageOutbox.nextAttemptAt) })
      .from(messageOutbox)
      .where(and(queued, gt(messageOutbox.nextAttemptAt, new Date(now).toISOString()), scope)),
    ctx.db
      .select({ at: min(messageOutbox.createdAt) })
      .from(messageOutbox)
      .where(and(queued, isNull(messageOutbox.nextAttemptAt), gt(messageOutbox.createdAt, new Date(now - SWEEP_GRACE_MS).toISOString()), scope)),
  ]);
  const dues = [retry[0]?.at ? Date.parse(retry[0].at) : null, fresh[0]?.at ? Date.parse(fresh[0].at) + SWEEP_GRACE_MS : null];
  const next = dues.filter((d): d is number => d != null && d > now);
  return next.length ? Math.min(...next) : null;
}

/** Queue consumer of `message.deliver`: waits for the caller's commit (retried), drops a row that never appeared. */
export async function deliverQueuedMessage(ctx: Ctx, msg: QueueMessage, opts: { prepare?: PrepareMessage } = {}): Promise<void> {
  const id = typeof msg.messageId === 'string' ? msg.messageId : null;
  if (!id) return;
  const row = await readMessage(ctx, id);
  if (!row) {
    const age = nowMs(ctx) - (typeof msg.enqueuedAt === 'number' ? msg.enqueuedAt : 0);
    if (age < UNCOMMITTED_DROP_MS) throw new Error(`message ${id} is not committed yet`);
    return;
  }
  if (row.status === 'queued') await deliverMessage(ctx, id, opts);
}

/** A delivery report of the provider (Twilio status callback): stores its status; `failed`/`undelivered` fail the message. */
export async function recordProviderStatus(ctx: Ctx, r: { provider: string; providerMessageId: string; status: string; errorCode?: string | null }) {
  const failed = r.status === 'failed' || r.status === 'undelivered';
  const set: Partial<Row> = { providerStatus: r.status.slice(0, 40), updatedAt: nowIsoOf(ctx) };
  if (failed) Object.assign(set, { status: 'failed', statusReason: `${r.provider} reported ${r.status}${r.errorCode ? ` (error ${r.errorCode})` : ''}` });
  const row = await ctx.db
    .update(messageOutbox)
    .set(set)
    .where(and(eq(messageOutbox.provider, r.provider), eq(messageOutbox.providerMessageId, r.providerMessageId)))
    .returning({ id: messageOutbox.id, to: messageOutbox.to })
    .get();
  if (row && failed && r.errorCode === String(TWILIO_UNSUBSCRIBED)) await recordSmsOptOut(ctx, { phone: row.to, keyword: 'PROVIDER', source: 'provider' });
  return row ?? null;
}

// ------------------------------------------------------------------------------------------------
// SMS opt-outs (by E.164 number, for every operator: they all send from the platform's sender)

export async function isOptedOut(ctx: Pick<Ctx, 'db'>, phone: string): Promise<boolean> {
  const row = await ctx.db.select({ status: smsOptOuts.status }).from(smsOptOuts).where(eq(smsOptOuts.phone, phone)).get();
  return row?.status === 'opted_out';
}

export async function recordSmsOptOut(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  o: { phone: string; keyword: string; source: 'inbound' | 'provider'; toNumber?: string | null },
) {
  await setOptStatus(ctx, 'opted_out', o);
}

export async function recordSmsOptIn(ctx: Pick<Ctx, 'db' | 'clock'>, o: { phone: string; keyword: string; toNumber?: string | null }) {
  await setOptStatus(ctx, 'opted_in', { ...o, source: 'inbound' });
}

async function setOptStatus(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  status: 'opted_out' | 'opted_in',
  o: { phone: string; keyword: string; source: string; toNumber?: string | null },
) {
  const now = nowIsoOf(ctx);
  const values = { phone: o.phone, status, keyword: o.keyword.slice(0, 40), source: o.source, toNumber: o.toNumber ?? null, updatedAt: now };
  await ctx.db
    .insert(smsOptOuts)
    .values({ ...values, createdAt: now })
    .onConflictDoUpdate({ target: smsOptOuts.phone, set: values });
}
