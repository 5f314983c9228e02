import type { z } from '@hono/zod-openapi';
import type { scheduledCommunications } from '../../db/schema/communications';
import type * as s from './schemas';
import { TEMPLATES, VARIABLES, variablesOf, type Template } from './templates';

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
