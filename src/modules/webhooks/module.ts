import { defineModule } from '../../lib/module';
import router from './index';
import { attemptDelivery, fanOut, nextDueWebhooks, sweepWebhooks } from './delivery';

export default defineModule({
  name: 'webhooks',
  router,
  jobs: [{ name: 'webhooks.sweep', cron: '*/5 * * * *', run: (ctx) => sweepWebhooks(ctx), nextDue: (ctx) => nextDueWebhooks(ctx) }],
  queue: {
    // One message per commit (`eventIds`); a message of one `eventId` is still understood.
    'webhook.fanout': (ctx, m) => fanOut(ctx, Array.isArray(m.eventIds) ? m.eventIds.map(String) : [String(m.eventId)]),
    'webhook.deliver': async (ctx, m) => void (await attemptDelivery(ctx, String(m.deliveryId))),
  },
  tags: [{ name: 'Webhooks', description: 'Webhook endpoints of the operator, signed deliveries with retries, delivery log and replay.' }],
});
