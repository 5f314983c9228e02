/**
 * The sandbox's edited messages: the operator's own booking confirmation (every new booking's
 * e-mail uses it, rendered at delivery) and a reminder automation 24 hours before each booking's
 * start, with the default reminder. Through the communications services; idempotent (a second run
 * finds them and writes nothing).
 */
import type { Ctx } from '../lib/context';
import type { DemoOperator, OperatorSeedStep } from './types';
import { createAutomation, createCustomTemplate, listAutomations, listCustomTemplates } from '../modules/communications/service';

export const DEMO_CONFIRMATION = {
  key: 'booking_confirmation' as const,
  name: 'Confirmation with the dock checklist',
  subject: "You're booked, {{renter.firstName}}: {{booking.itemName}} on {{booking.date}}",
  html: `<p>Hi {{renter.firstName}},</p>
<p>Your <strong>{{booking.itemName}}</strong> is booked for <strong>{{booking.when}}</strong> ({{location.zoneName}}).</p>
<p>Meet us at {{location.name}}, {{location.address}}{{#location.mapUrl}} (<a href="{{location.mapUrl}}">map</a>){{/location.mapUrl}}, 15 minutes early with a photo ID.</p>
<p>Total {{booking.total}}, paid {{booking.amountPaid}}, balance due {{booking.balanceDue}}.</p>
<p><a href="{{booking.manageUrl}}">Manage your booking</a> · reference {{booking.reference}}</p>`,
  text: `Hi {{renter.firstName}},

Your {{booking.itemName}} is booked for {{booking.when}} ({{location.zoneName}}).
Meet us at {{location.name}}, {{location.address}}, 15 minutes early with a photo ID.
Total {{booking.total}}, paid {{booking.amountPaid}}, balance due {{booking.balanceDue}}.
Manage your booking: {{booking.manageUrl}} (reference {{booking.reference}})`,
};

async function seedMessageAutomations(ctx: Ctx, _op: DemoOperator): Promise<boolean> {
  let wrote = false;
  const page = { limit: 50, offset: 0 };
  const own = await listCustomTemplates(ctx, { ...page, key: DEMO_CONFIRMATION.key });
  if (!own.rows.some((t) => t.scope === '*')) {
    await createCustomTemplate(ctx, DEMO_CONFIRMATION);
    wrote = true;
  }
  const autos = await listAutomations(ctx, page);
  if (!autos.rows.some((a) => a.trigger === 'hours_before_start' && a.hours === 24)) {
    await createAutomation(ctx, {
      name: 'Reminder 24 hours before',
      trigger: 'hours_before_start',
      hours: 24,
      recipient: 'renter',
      channel: 'email',
      templateId: 'booking_reminder',
    });
    wrote = true;
  }
  return wrote;
}

export const messageAutomationsSeed: OperatorSeedStep = { name: 'message-automations', run: seedMessageAutomations };
