import type { Env, QueueMessage } from '../env';
import { attemptDelivery, fanOut } from '../modules/webhooks/service';

/** Queue consumer: routes each message by kind. A thrown error retries the message with backoff. */
export async function handleQueue(batch: MessageBatch<QueueMessage>, env: Env, _ctx: ExecutionContext): Promise<void> {
  for (const msg of batch.messages) {
    try {
      const body = msg.body;
      if (body.kind === 'webhook.fanout') await fanOut(env, body.eventId);
      else if (body.kind === 'webhook.deliver') await attemptDelivery(env, body.deliveryId);
      msg.ack();
    } catch (err) {
      console.log(JSON.stringify({ level: 'error', msg: 'queue message failed', body: msg.body, error: String(err) }));
      msg.retry({ delaySeconds: Math.min(3600, 10 * 2 ** msg.attempts) });
    }
  }
}
