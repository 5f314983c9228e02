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

const previewMessage = route({
  method: 'get',
  path: '/outbox/messages/{id}/preview',
  operationId: 'previewOutboxMessage',
  tags: ['Messages'],
  summary: 'A sent message as its recipient sees it (the HTML part)',
  description: `The e-mail's HTML part as \`text/html\`, to look at a message in the browser (the sandbox's offline outbox, or the send
log with a provider); a message without an HTML part (an SMS, a plain e-mail) is shown as its text. Any operator may preview
its own messages (the list already answers their HTML; this is not limited to sandbox operators); another operator's message
id answers 404. The page is served under a \`Content-Security-Policy\` with \`sandbox\` and no script source, so nothing in a
message can run or reach the API with the operator's session.`,
  params: s.MessageParams,
  produces: 'text/html',
  errors: [404],
});

const router = createRouter();

mount(router, listMessages, async (c, { query }) => c.json(await svc.listMessages(ctxOf(c), query)));
mount(router, previewMessage, async (c, { params }) => c.html(await svc.previewMessage(ctxOf(c), params.id), 200, svc.PREVIEW_HEADERS));

export default router;
