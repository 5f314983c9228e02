/**
 * Which template a message of a key uses: the item's, else the operator's (message_templates), else
 * the key's default (templates.ts).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { oneLine } from '../../lib/template';
import { messageTemplates } from '../../db/schema/communications';
import { isBookingKey } from './message-keys';
import { TEMPLATES, type Template, type TemplateId } from './templates';

export type TemplateRow = typeof messageTemplates.$inferSelect;
/** The scope of an operator template (every item). */
export const OPERATOR_SCOPE = '*';

/** A stored template as the engine's Template (the SMS defaults to the plain-text part on one line). */
export function asTemplate(r: TemplateRow): Template {
  return {
    templateId: r.key,
    name: r.name,
    description: r.scope === OPERATOR_SCOPE ? 'Operator template' : `Template of item ${r.scope}`,
    needsBooking: isBookingKey(r.key),
    subject: r.subject,
    text: r.text,
    html: r.html,
    sms: r.sms ?? oneLine(r.text, 1600),
  };
}

/**
 * The template of a key for a message about `itemId`: the item's, else the operator's (one read),
 * else the key's default (null when the key has none, such as `booking_changed`). `source` says which.
 */
export async function resolveTemplate(
  ctx: Ctx,
  key: string,
  itemId?: string | null,
): Promise<{ template: Template; source: 'item' | 'operator' | 'default'; templateId: string | null } | null> {
  const scopes = itemId ? [itemId, OPERATOR_SCOPE] : [OPERATOR_SCOPE];
  const rows = await ctx.db
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.customerId, tenantOf(ctx)), eq(messageTemplates.key, key), inArray(messageTemplates.scope, scopes)))
    .all();
  const own = rows.find((r) => r.scope !== OPERATOR_SCOPE) ?? rows[0];
  if (own) return { template: asTemplate(own), source: own.scope === OPERATOR_SCOPE ? 'operator' : 'item', templateId: own.id };
  const def = TEMPLATES[key as TemplateId];
  return def ? { template: def, source: 'default', templateId: null } : null;
}
