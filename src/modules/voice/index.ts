import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';
import { formParams } from './auth';

const router = createRouter();
router.openAPIRegistry.registerComponent('securitySchemes', 'TwilioSignature', {
  type: 'apiKey',
  in: 'header',
  name: 'X-Twilio-Signature',
  description: 'Base64 HMAC-SHA1 of the exact URL and the sorted POST parameters, keyed with the telephony account auth token.',
});

const twiml = { 'content-type': 'text/xml; charset=utf-8', 'cache-control': 'no-store' };

mount(router, r.incomingCall, async (c) => c.body(await svc.incomingCall(ctxOf(c), await formParams(c)), 200, twiml));
mount(router, r.handleKey, async (c, { query }) => c.body(await svc.handleKey(ctxOf(c), query, await formParams(c)), 200, twiml));
mount(router, r.dialNext, async (c, { query }) => c.body(await svc.dialNext(ctxOf(c), query, await formParams(c)), 200, twiml));
mount(router, r.recordingWebhook, async (c) => c.json(await svc.recordingWebhook(ctxOf(c), await formParams(c))));
mount(router, r.handleRecording, async (c, { query }) => c.body(await svc.handleRecording(ctxOf(c), query, await formParams(c)), 200, twiml));
mount(router, r.listVoicemails, async (c, { query }) => c.json(await svc.listVoicemails(ctxOf(c), query)));

export default router;
