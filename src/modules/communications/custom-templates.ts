/**
 * Templates edited by the operator (`/communication/templates`): per message key, for every item
 * (`itemId` null) or for one item. The template a message of a key uses is the item's, else the
 * operator's, else the default (resolveTemplate). Preview renders one with a booking's real data (or
 * sample data); the test send delivers it through the e-mail/SMS adapter to an address given.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { ApiError, isUniqueViolation, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { commit } from '../../lib/commit';
import { sendMessage, type SendResult } from '../../adapters/messages';
import { messageTemplates } from '../../db/schema/communications';
import { customers } from '../../db/schema/accounts';
import { getItemInTenant } from '../inventory/service';
import { checkTemplate, isBookingKey, type MessageKey } from './message-keys';
import { asTemplate, OPERATOR_SCOPE, type TemplateRow } from './resolve';
import { smsPhone } from './phone';
import { locationCountry } from './send';
import { renderTemplate, TEMPLATES, type Rendered, type TemplateId } from './templates';
import { loadRenderSource, variablesFor } from './variables';

export interface TemplateInput {
  key: MessageKey;
  itemId?: string | null;
  name?: string;
  subject: string;
  html: string;
  text: string;
  sms?: string | null;
}

async function getRow(ctx: Ctx, id: string): Promise<TemplateRow> {
  const row = await ctx.db
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.id, id), eq(messageTemplates.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Template');
  return row;
}

export const getCustomTemplate = getRow;

export async function listCustomTemplates(ctx: Ctx, q: { key?: string; itemId?: string; limit: number; offset: number }) {
  const where = and(
    eq(messageTemplates.customerId, tenantOf(ctx)),
    q.key ? eq(messageTemplates.key, q.key) : undefined,
    q.itemId ? eq(messageTemplates.scope, q.itemId) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(messageTemplates).where(where).orderBy(asc(messageTemplates.key), asc(messageTemplates.scope)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(messageTemplates).where(where).get(),
  ]);
  return { rows, total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

const duplicate = (key: string, scope: string) =>
  new ApiError('already_exists', `A ${key} template for ${scope === OPERATOR_SCOPE ? 'the operator' : `item ${scope}`} exists; update it instead`);

/**
 * Rewrites the operator's `message_template_keys` from its templates, in the batch of a template
 * write (after it, so the batch's own insert or delete counts): booking e-mails read it to know
 * whether to hold a message for its delivery.
 */
function syncKeysStmt(ctx: Ctx, customerId: string) {
  const t = messageTemplates;
  return ctx.db
    .update(customers)
    .set({
      messageTemplateKeys: sql`(SELECT coalesce(json_group_array(key), '[]') FROM (SELECT DISTINCT ${t.key} AS key FROM ${t} WHERE ${t.customerId} = ${customerId}))`,
    })
    .where(eq(customers.id, customerId));
}

export async function createCustomTemplate(ctx: Ctx, input: TemplateInput): Promise<TemplateRow> {
  requirePermission(ctx, 'communications');
  const customerId = tenantOf(ctx);
  checkTemplate(input.key, input);
  if (input.itemId) await getItemInTenant(ctx, input.itemId); // 404 for another operator's item
  const scope = input.itemId ?? OPERATOR_SCOPE;
  const now = nowIso(ctx);
  const row: TemplateRow = {
    id: newId('mtp'),
    customerId,
    key: input.key,
    scope,
    name: input.name ?? (TEMPLATES[input.key as TemplateId]?.name || input.key),
    subject: input.subject,
    html: input.html,
    text: input.text,
    sms: input.sms ?? null,
    createdBy: ctx.principal.userId ?? null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await commit(ctx, [ctx.db.insert(messageTemplates).values(row), syncKeysStmt(ctx, customerId)], {
      audit: { action: 'message_template.created', targetType: 'message_template', targetId: row.id, details: { key: row.key, scope } },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate(row.key, scope);
    throw err;
  }
  return row;
}

export async function updateCustomTemplate(ctx: Ctx, id: string, input: Partial<Omit<TemplateInput, 'key' | 'itemId'>>): Promise<TemplateRow> {
  requirePermission(ctx, 'communications');
  const row = await getRow(ctx, id);
  const next: TemplateRow = {
    ...row,
    name: input.name ?? row.name,
    subject: input.subject ?? row.subject,
    html: input.html ?? row.html,
    text: input.text ?? row.text,
    sms: input.sms === undefined ? row.sms : input.sms,
    updatedAt: nowIso(ctx),
  };
  checkTemplate(row.key as MessageKey, next);
  await commit(
    ctx,
    [
      ctx.db
        .update(messageTemplates)
        .set({ name: next.name, subject: next.subject, html: next.html, text: next.text, sms: next.sms, updatedAt: next.updatedAt })
        .where(and(eq(messageTemplates.id, id), eq(messageTemplates.customerId, row.customerId))),
    ],
    { audit: { action: 'message_template.updated', targetType: 'message_template', targetId: id, details: { key: row.key, scope: row.scope } } },
  );
  return next;
}

export async function deleteCustomTemplate(ctx: Ctx, id: string) {
  requirePermission(ctx, 'communications');
  const row = await getRow(ctx, id);
  const del = ctx.db.delete(messageTemplates).where(and(eq(messageTemplates.id, id), eq(messageTemplates.customerId, row.customerId)));
  await commit(ctx, [del, syncKeysStmt(ctx, row.customerId)], {
    audit: { action: 'message_template.deleted', targetType: 'message_template', targetId: id, details: { key: row.key, scope: row.scope } },
  });
  return { success: true, templateId: id };
}

/** Sample values of every variable, for a preview without a booking. */
const SAMPLE: Record<string, string> = {
  'renter.firstName': 'Alex',
  'renter.lastName': 'Rivera',
  'renter.fullName': 'Alex Rivera',
  'renter.email': 'alex.rivera@example.com',
  'renter.phone': '+13055550142',
  'booking.rentalId': 'bk_01SAMPLE0000000000000000',
  'booking.reference': 'bk_01SAMPLE0000000000000000',
  'booking.manageUrl': 'https://example.com/widget?manage=bk_01SAMPLE0000000000000000',
  'booking.transactionId': 'txn_01SAMPLE000000000000000',
  'booking.itemName': 'Pontoon 22',
  'booking.date': 'Sat 17 Jul 2027',
  'booking.startTime': '10:00 EDT',
  'booking.endTime': '14:00 EDT',
  'booking.start': 'Sat 17 Jul 2027, 10:00 EDT',
  'booking.end': 'Sat 17 Jul 2027, 14:00 EDT',
  'booking.when': 'Sat 17 Jul 2027, 10:00–14:00 EDT',
  'booking.quantity': '1',
  'booking.participants': '4',
  'booking.status': 'confirmed',
  'booking.total': '$450.00',
  'booking.amountPaid': '$150.00',
  'booking.balanceDue': '$300.00',
  'link.url': 'https://example.com/link',
  'cart.itemName': 'Pontoon 22',
  'cart.start': 'Sat 17 Jul 2027, 10:00 EDT',
  'giftCard.code': 'GIFT-SAMPLE',
  'giftCard.amount': '$100.00',
  'giftCard.expiresOn': 'Sun 17 Jul 2028',
  'membership.tierName': 'Captain',
  'membership.amount': '$49.00',
  'membership.periodEnd': 'Tue 17 Aug 2027',
  'slip.unit': 'A-12',
  'slip.amount': '$620.00',
  'slip.dueDate': 'Sun 1 Aug 2027',
  'cancellation.reason': 'Weather',
  'cancellation.refund': 'We are refunding $150.00 to the card you paid with.',
  'change.previousWhen': 'Fri 16 Jul 2027, 10:00–14:00 EDT',
  'change.summary': 'Party: 4 guests (was 2 guests)',
  'change.price': 'New total $450.00 (was $400.00); $50.00 charged to the card.',
  'waitlist.itemName': 'Pontoon 22',
  'waitlist.when': 'Sat 17 Jul 2027, 10:00–14:00 EDT',
  'waitlist.expiresAt': 'Fri 16 Jul 2027, 18:00 EDT',
};

/** The variables a preview or test send renders with: the booking's real ones when `rentalId` is given, else samples over the operator's own. */
async function previewVariables(ctx: Ctx, row: TemplateRow, q: { rentalId?: string; locationId?: string; variables?: Record<string, string> }) {
  if (q.rentalId && !isBookingKey(row.key)) throw new ApiError('bad_request', `${row.key} is not a booking message; rentalId does not apply`);
  const src = await loadRenderSource(ctx, { rentalId: q.rentalId, locationId: q.locationId });
  const real = variablesFor(src, null);
  const vars = q.rentalId ? real : { ...SAMPLE, ...Object.fromEntries(Object.entries(real).filter(([k, v]) => v && !k.startsWith('renter.'))) };
  return { src, vars: { ...vars, ...(q.variables ?? {}) } };
}

export async function previewCustomTemplate(ctx: Ctx, id: string, q: { rentalId?: string; locationId?: string; variables?: Record<string, string> }) {
  const row = await getRow(ctx, id);
  const { vars } = await previewVariables(ctx, row, q);
  const out = renderTemplate(asTemplate(row), vars);
  return { templateId: row.id, key: row.key, rentalId: q.rentalId ?? null, sample: !q.rentalId, ...out };
}

/** Sends the template once to the e-mail and/or phone given (subject prefixed `[Test]`), through the adapters (the outbox offline). */
export async function testSendCustomTemplate(
  ctx: Ctx,
  id: string,
  q: { email?: string; phoneNumber?: string; country?: string; rentalId?: string; locationId?: string },
): Promise<{ templateId: string; messages: SendResult[] }> {
  requirePermission(ctx, 'communications');
  const row = await getRow(ctx, id);
  const { src, vars } = await previewVariables(ctx, row, q);
  const out: Rendered = renderTemplate(asTemplate(row), vars);
  const phone = q.phoneNumber ? smsPhone(q.phoneNumber, q.country ?? locationCountry(src.location), 'phoneNumber') : null;
  const base = { customerId: row.customerId, template: row.key, rentalId: q.rentalId ?? null, metadata: { templateId: row.id, test: true } };
  const messages: SendResult[] = [];
  if (q.email)
    messages.push(await sendMessage(ctx, { ...base, channel: 'email', to: q.email, subject: `[Test] ${out.subject}`, body: out.text, html: out.html }));
  if (phone) messages.push(await sendMessage(ctx, { ...base, channel: 'sms', to: phone.e164, body: out.sms }));
  return { templateId: row.id, messages };
}
