import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import * as r from './routes';
import { receiveInboundSms, receiveSmsStatus } from './inbound';
import { cancelSchedule, listSchedulesForRental, scheduleCommunication } from './schedule';
import { sendSms, sendTemplated, sendWaiverLink, validatePhone } from './send';
import { getTemplate, listTemplates } from './service';

const router = createRouter();
const apiBase = (c: Context<AppEnv>) => (c.env.PUBLIC_BASE_URL || new URL(c.req.url).origin).replace(/\/$/, '');
const formOf = async (c: Context<AppEnv>) => {
  const form = await c.req.parseBody();
  return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'));
};

mount(router, r.listTemplates, async (c) => c.json(listTemplates()));
mount(router, r.getTemplate, async (c, { params }) => c.json(await getTemplate(params.templateId)));
mount(router, r.sendTemplated, async (c, { body }) => c.json(await sendTemplated(ctxOf(c), body)));
mount(router, r.sendSms, async (c, { body }) => c.json(await sendSms(ctxOf(c), body)));
mount(router, r.sendWaiverLink, async (c, { body }) => c.json(await sendWaiverLink(ctxOf(c), body, apiBase(c))));
mount(router, r.validatePhone, async (c, { body }) => c.json(await validatePhone(ctxOf(c), body)));
mount(router, r.schedule, async (c, { body }) => c.json(await scheduleCommunication(ctxOf(c), body)));
mount(router, r.cancelSchedule, async (c, { params }) => c.json(await cancelSchedule(ctxOf(c), params.scheduleId)));
mount(router, r.listSchedules, async (c, { params }) => c.json(await listSchedulesForRental(ctxOf(c), params.rentalId)));
mount(router, r.inboundSms, async (c) => {
  await receiveInboundSms(ctxOf(c), await formOf(c));
  return c.body('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', 200, { 'content-type': 'text/xml; charset=utf-8' });
});
mount(router, r.smsStatus, async (c) => {
  const res = await receiveSmsStatus(ctxOf(c), await formOf(c));
  return c.json({ success: true, ...res });
});

export default router;
