import { defineModule } from '../../lib/module';
import { deliverDueMessages, deliverQueuedMessage } from '../../adapters/messages';
import { commsErrors } from './errors';
import router from './index';
import { onBookingCancelled, onBookingRescheduled, processScheduledMessages } from './service';

export default defineModule({
  name: 'communications',
  router,
  jobs: [
    { name: 'communications.scheduled', cron: '*/5 * * * *', run: (ctx, now) => processScheduledMessages(ctx, now) },
    // Retries of temporary provider failures and deliveries whose queue message was lost.
    { name: 'communications.deliver', cron: '*/5 * * * *', run: (ctx, now) => deliverDueMessages(ctx, now) },
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
