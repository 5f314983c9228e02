import { defineModule } from '../../lib/module';
import { deliverDueMessages, deliverQueuedMessage, nextMessageDue } from '../../adapters/messages';
import { commsErrors } from './errors';
import router from './index';
import { nextScheduledDue, processScheduledMessages } from './process';
import { nextAutomationDue, runAutomations } from './automation-runner';
import { renderAtDelivery } from './delivery';
import { onBookingCancelled, onBookingRescheduled } from './schedule';

export default defineModule({
  name: 'communications',
  router,
  jobs: [
    // Scheduled messages and reminders, at their send time (nextDue: the next pending send time).
    { name: 'communications.scheduled', cron: '*/5 * * * *', run: (ctx) => processScheduledMessages(ctx), nextDue: nextScheduledDue },
    // Message automations (booked, N hours before the start / after the end, cancelled, waitlist offered), each once per booking.
    { name: 'communications.automations', cron: '*/5 * * * *', run: (ctx) => runAutomations(ctx), nextDue: nextAutomationDue },
    // Retries of temporary provider failures and deliveries whose queue message was lost (nextDue: the next retry);
    // a booking e-mail held for the operator's template is rendered here (delivery.ts).
    { name: 'communications.deliver', cron: '*/5 * * * *', run: (ctx) => deliverDueMessages(ctx, { prepare: renderAtDelivery }), nextDue: nextMessageDue },
  ],
  queue: { 'message.deliver': (ctx, msg) => deliverQueuedMessage(ctx, msg, { prepare: renderAtDelivery }) },
  // Pending messages of a booking follow its lifecycle, whichever path cancelled or moved it.
  hooks: { 'booking.cancelled': onBookingCancelled, 'booking.rescheduled': onBookingRescheduled },
  errors: commsErrors.table,
  tags: [
    {
      name: 'Communications',
      description: `Templated e-mail and SMS through real providers (Postmark, Twilio; the outbox offline), phone numbers in E.164, opt-out keywords, scheduled communications processed every 5 minutes.`,
    },
  ],
});
