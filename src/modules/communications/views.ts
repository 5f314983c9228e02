import type { z } from '@hono/zod-openapi';
import type { scheduledCommunications } from '../../db/schema/communications';
import type * as s from './schemas';
import { TEMPLATES, VARIABLES, variablesOf, type Template } from './templates';
import type { AutomationRow } from './automations';
import { OPERATOR_SCOPE, type TemplateRow } from './resolve';
import { keyVariables, type MessageKey } from './message-keys';

export type ScheduleRow = typeof scheduledCommunications.$inferSelect;

export function scheduleOut(r: ScheduleRow): z.output<typeof s.Schedule> {
  return {
    scheduleId: r.id,
    customerId: r.customerId,
    locationId: r.locationId,
    templateId: r.templateId,
    recipientEmail: r.recipientEmail,
    rentalId: r.rentalId,
    delayMinutes: r.delayMinutes,
    trigger: r.trigger as z.output<typeof s.Schedule>['trigger'],
    conditions: r.conditions ?? {},
    status: r.status,
    sendAt: r.sendAt,
    statusReason: r.statusReason,
    messageId: r.messageId,
    processedAt: r.processedAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function templateOut(t: Template): z.output<typeof s.Template> {
  const used = new Set(variablesOf(t));
  return {
    templateId: t.templateId,
    name: t.name,
    description: t.description,
    needsBooking: t.needsBooking,
    channels: ['email', 'sms'],
    subject: t.subject,
    text: t.text,
    html: t.html,
    sms: t.sms,
    variables: VARIABLES.filter((v) => used.has(v.name)).map((v) => ({ name: v.name, description: v.description, kind: v.kind, input: !!v.input })),
  };
}

export const allTemplates = () => Object.values(TEMPLATES).map(templateOut);

export function customTemplateOut(r: TemplateRow): z.output<typeof s.CustomTemplate> {
  return {
    templateId: r.id,
    key: r.key as MessageKey,
    itemId: r.scope === OPERATOR_SCOPE ? null : r.scope,
    name: r.name,
    subject: r.subject,
    html: r.html,
    text: r.text,
    sms: r.sms,
    variables: keyVariables(r.key as MessageKey).map((v) => ({ name: v.name, description: v.description })),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function automationOut(r: AutomationRow): z.output<typeof s.Automation> {
  return {
    automationId: r.id,
    name: r.name,
    trigger: r.trigger,
    hours: r.hours || null,
    recipient: r.recipient,
    staffUserId: r.staffUserId,
    channel: r.channel,
    templateId: r.templateId,
    itemIds: r.itemIds,
    active: r.active,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
