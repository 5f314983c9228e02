import { z } from '@hono/zod-openapi';
import { createRouter, mount, route } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as s from './schemas';
import * as svc from './service';

const listMessages = route({
  method: 'get',
  path: '/outbox/messages',
  operationId: 'listOutboxMessages',
  tags: ['Messages'],
  summary: 'E-mail, SMS, chat and push messages sent for the account',
  description: `Every message of the account with its outcome: \`sent\` (with the provider delivery id and status), \`queued\`/\`sending\`, \`failed\` (provider reason) or \`skipped\` (reason). With no e-mail/SMS provider configured (the offline default) this outbox is where messages go; with a provider it is the send log. \`rentalId\` lists what was sent for a booking.`,
  query: s.ListMessagesQuery,
  ok: z.object({ data: z.array(s.Message), total: z.number(), limit: z.number(), offset: z.number() }),
});

const router = createRouter();

mount(router, listMessages, async (c, { query }) => c.json(await svc.listMessages(ctxOf(c), query)));

export default router;
