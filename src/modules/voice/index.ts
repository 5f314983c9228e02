import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { dialNext, handleKey, incomingCall } from './calls';
import { handleRecording, recordingWebhook } from './voicemail';
import { listVoicemails } from './queries';
import { formParams } from './auth';

const router = createRouter();
router.openAPIRegistry.registerComponent('securitySchemes', 'TwilioSignature', {
  type: 'apiKey',
  in: 'header',
  name: 'X-Twilio-Signature',
  description: 'Base64 HMAC-SHA1 of the exact URL and the sorted POST parameters, keyed with the telephony account auth token.',
});

const twiml = { 'content-type': 'text/xml; charset=utf-8', 'cache-control': 'no-store' };

mount(router, r.incomingCall, async (c) => c.body(await incomingCall(ctxOf(c), await formParams(c)), 200, twiml));
mount(router, r.handleKey, async (c, { query }) => c.body(await handleKey(ctxOf(c), query, await formParams(c)), 200, twiml));
mount(router, r.dialNext, async (c, { query }) => c.body(await dialNext(ctxOf(c), query, await formParams(c)), 200, twiml));
mount(router, r.recordingWebhook, async (c) => c.json(await recordingWebhook(ctxOf(c), await formParams(c))));
mount(router, r.handleRecording, async (c, { query }) => c.body(await handleRecording(ctxOf(c), query, await formParams(c)), 200, twiml));
mount(router, r.listVoicemails, async (c, { query }) => c.json(await listVoicemails(ctxOf(c), query)));

export default router;
