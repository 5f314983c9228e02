import { defineModule } from '../../lib/module';
import { deliverDueMessages, deliverQueuedMessage, nextMessageDue } from '../../adapters/messages';
import { commsErrors } from './errors';
import router from './index';
import { nextScheduledDue, processScheduledMessages } from './process';
import { onBookingCancelled, onBookingRescheduled } from './schedule';

export default defineModule({
  name: 'communications',
  router,
  jobs: [
    // Scheduled messages and reminders, at their send time (nextDue: the next pending send time).
    { name: 'communications.scheduled', cron: '*/5 * * * *', run: (ctx) => processScheduledMessages(ctx), nextDue: nextScheduledDue },
    // Retries of temporary provider failures and deliveries whose queue message was lost (nextDue: the next retry).
    { name: 'communications.deliver', cron: '*/5 * * * *', run: (ctx) => deliverDueMessages(ctx), nextDue: nextMessageDue },
  ],
  queue: { 'message.deliver': (ctx, msg) => deliverQueuedMessage(ctx, msg) },
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
