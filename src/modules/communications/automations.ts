/**
 * Message automations (`/communication/automations`): when (booked, N hours before the start, N
 * hours after the end, cancelled, waitlist offered), who (the renter, one staff user or the staff of
 * the booking's location), how (e-mail or SMS), which template (an operator template id, or a
 * message key: the item's, operator's or default template of that key), for which items, active or
 * not. They run in the scheduled processor (automation-runner.ts).
 */
import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { commit } from '../../lib/commit';
import { inventoryItems } from '../../db/schema/inventory';
import { users } from '../../db/schema/accounts';
import { messageAutomations, messageTemplates } from '../../db/schema/communications';
import { MESSAGE_KEYS } from './message-keys';

export type AutomationRow = typeof messageAutomations.$inferSelect;
export const AUTOMATION_TRIGGERS = ['booked', 'hours_before_start', 'hours_after_end', 'cancelled', 'waitlist_offered'] as const;
export type AutomationTrigger = (typeof AUTOMATION_TRIGGERS)[number];
export const TIMED_TRIGGERS: AutomationTrigger[] = ['hours_before_start', 'hours_after_end'];

export interface AutomationInput {
  name?: string;
  trigger: AutomationTrigger;
  hours?: number;
  recipient: 'renter' | 'staff';
  staffUserId?: string | null;
  channel: 'email' | 'sms';
  templateId: string;
  itemIds?: string[];
  active?: boolean;
}

async function getRow(ctx: Ctx, id: string): Promise<AutomationRow> {
  const row = await ctx.db
    .select()
    .from(messageAutomations)
    .where(and(eq(messageAutomations.id, id), eq(messageAutomations.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Automation');
  return row;
}
export const getAutomation = getRow;

export async function listAutomations(ctx: Ctx, q: { active?: boolean; limit: number; offset: number }) {
  const where = and(eq(messageAutomations.customerId, tenantOf(ctx)), q.active === undefined ? undefined : eq(messageAutomations.active, q.active));
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(messageAutomations)
      .where(where)
      .orderBy(asc(messageAutomations.createdAt), asc(messageAutomations.id))
      .limit(q.limit)
      .offset(q.offset)
      .all(),
    ctx.db.select({ n: count() }).from(messageAutomations).where(where).get(),
  ]);
  return { rows, total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

const bad = (field: string, message: string) => new ApiError('validation_failed', `${field}: ${message}`, { details: [{ field, message }] });

type Refs = Pick<AutomationInput, 'trigger' | 'hours' | 'recipient' | 'staffUserId' | 'templateId' | 'itemIds'>;

/**
 * Checks an automation (`a`, as it will be stored) and what `sent` points at, in one read batch: the
 * template, staff user and items a request names must be the operator's (404 otherwise). Only what
 * the request names is looked up, so an automation whose item or template was deleted since can
 * still be changed (switched off, pointed elsewhere); the runner skips such firings.
 */
async function checkRefs(ctx: Ctx, a: Refs, sent: Partial<Refs> = a) {
  const customerId = tenantOf(ctx);
  if (TIMED_TRIGGERS.includes(a.trigger) && !a.hours) throw bad('hours', `${a.trigger} needs hours (1 to 2160)`);
  if (!TIMED_TRIGGERS.includes(a.trigger) && a.hours) throw bad('hours', `${a.trigger} takes no hours`);
  if (a.recipient === 'renter' && a.staffUserId) throw bad('staffUserId', 'only for recipient staff');
  const isKey = (MESSAGE_KEYS as readonly string[]).includes(a.templateId);
  if (!isKey && !a.templateId.startsWith('mtp_')) throw bad('templateId', `an operator template id (mtp_...) or a message key: ${MESSAGE_KEYS.join(', ')}`);
  const lookTemplate = !isKey && sent.templateId !== undefined;
  const staffUserId = sent.staffUserId ? a.staffUserId : null;
  const items = [...new Set(sent.itemIds ?? [])];
  const [tpl, user, found] = await ctx.db.batch([
    ctx.db
      .select({ id: messageTemplates.id })
      .from(messageTemplates)
      .where(and(eq(messageTemplates.id, lookTemplate ? a.templateId : ''), eq(messageTemplates.customerId, customerId))),
    ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, staffUserId ?? ''), eq(users.customerId, customerId))),
    ctx.db
      .select({ id: inventoryItems.id })
      .from(inventoryItems)
      .where(and(inArray(inventoryItems.id, items.length ? items : ['']), eq(inventoryItems.customerId, customerId), isNull(inventoryItems.deletedAt))),
  ]);
  if (lookTemplate && !tpl.length) throw new ApiError('not_found', `Template ${a.templateId} not found`);
  if (staffUserId && !user.length) throw new ApiError('not_found', `User ${staffUserId} not found`);
  const missing = items.filter((id) => !found.some((f) => f.id === id));
  if (missing.length) throw new ApiError('not_found', `Items not found: ${missing.join(', ')}`);
}

export async function createAutomation(ctx: Ctx, input: AutomationInput): Promise<AutomationRow> {
  requirePermission(ctx, 'communications');
  const customerId = tenantOf(ctx);
  await checkRefs(ctx, input);
  const now = nowIso(ctx);
  const row: AutomationRow = {
    id: newId('aut'),
    customerId,
    name: input.name ?? `${input.trigger}${input.hours ? ` ${input.hours}h` : ''} ${input.channel} to ${input.recipient}`,
    trigger: input.trigger,
    hours: input.hours ?? 0,
    recipient: input.recipient,
    staffUserId: input.staffUserId ?? null,
    channel: input.channel,
    templateId: input.templateId,
    itemIds: [...new Set(input.itemIds ?? [])],
    active: input.active ?? true,
    createdBy: ctx.principal.userId ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(messageAutomations).values(row)], {
    audit: { action: 'message_automation.created', targetType: 'message_automation', targetId: row.id, details: { trigger: row.trigger } },
  });
  return row;
}

export async function updateAutomation(ctx: Ctx, id: string, input: Partial<AutomationInput>): Promise<AutomationRow> {
  requirePermission(ctx, 'communications');
  const row = await getRow(ctx, id);
  const next: AutomationRow = {
    ...row,
    ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
    hours: input.hours ?? (input.trigger && !TIMED_TRIGGERS.includes(input.trigger) ? 0 : row.hours),
    staffUserId: input.staffUserId === undefined ? (input.recipient === 'renter' ? null : row.staffUserId) : input.staffUserId,
    itemIds: input.itemIds ? [...new Set(input.itemIds)] : row.itemIds,
    updatedAt: nowIso(ctx),
  };
  await checkRefs(ctx, next, input);
  const { id: _id, customerId, createdAt: _c, createdBy: _b, ...set } = next;
  await commit(
    ctx,
    [
      ctx.db
        .update(messageAutomations)
        .set(set)
        .where(and(eq(messageAutomations.id, id), eq(messageAutomations.customerId, customerId))),
    ],
    {
      audit: { action: 'message_automation.updated', targetType: 'message_automation', targetId: id, details: { fields: Object.keys(input) } },
    },
  );
  return next;
}

export async function deleteAutomation(ctx: Ctx, id: string) {
  requirePermission(ctx, 'communications');
  const row = await getRow(ctx, id);
  await commit(ctx, [ctx.db.delete(messageAutomations).where(and(eq(messageAutomations.id, id), eq(messageAutomations.customerId, row.customerId)))], {
    audit: { action: 'message_automation.deleted', targetType: 'message_automation', targetId: id },
  });
  return { success: true, automationId: id };
}
