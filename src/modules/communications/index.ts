import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import * as r from './routes';
import { receiveInboundSms, receiveSmsStatus } from './inbound';
import { cancelSchedule, listSchedulesForRental, scheduleCommunication } from './schedule';
import { sendSms, sendTemplated, sendWaiverLink, validatePhone } from './send';
import { getTemplate, listTemplates } from './service';
import * as tpl from './custom-templates';
import * as aut from './automations';
import { automationOut, customTemplateOut } from './views';

const router = createRouter();
const apiBase = (c: Context<AppEnv>) => (c.env.PUBLIC_BASE_URL || new URL(c.req.url).origin).replace(/\/$/, '');
const formOf = async (c: Context<AppEnv>) => {
  const form = await c.req.parseBody();
  return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'));
};

mount(router, r.listTemplates, async (c) => c.json(listTemplates()));
mount(router, r.getTemplate, async (c, { params }) => c.json(await getTemplate(params.templateId)));
mount(router, r.listCustomTemplates, async (c, { query }) => {
  const page = await tpl.listCustomTemplates(ctxOf(c), query);
  return c.json({ data: page.rows.map(customTemplateOut), total: page.total, limit: page.limit, offset: page.offset });
});
mount(router, r.createCustomTemplate, async (c, { body }) => c.json(customTemplateOut(await tpl.createCustomTemplate(ctxOf(c), body)), 201));
mount(router, r.getCustomTemplate, async (c, { params }) => c.json(customTemplateOut(await tpl.getCustomTemplate(ctxOf(c), params.id))));
mount(router, r.updateCustomTemplate, async (c, { params, body }) => c.json(customTemplateOut(await tpl.updateCustomTemplate(ctxOf(c), params.id, body))));
mount(router, r.deleteCustomTemplate, async (c, { params }) => c.json(await tpl.deleteCustomTemplate(ctxOf(c), params.id)));
mount(router, r.previewCustomTemplate, async (c, { params, body }) => c.json(await tpl.previewCustomTemplate(ctxOf(c), params.id, body)));
mount(router, r.testCustomTemplate, async (c, { params, body }) => c.json(await tpl.testSendCustomTemplate(ctxOf(c), params.id, body)));
mount(router, r.listAutomations, async (c, { query }) => {
  const page = await aut.listAutomations(ctxOf(c), query);
  return c.json({ data: page.rows.map(automationOut), total: page.total, limit: page.limit, offset: page.offset });
});
mount(router, r.createAutomation, async (c, { body }) => c.json(automationOut(await aut.createAutomation(ctxOf(c), body)), 201));
mount(router, r.getAutomation, async (c, { params }) => c.json(automationOut(await aut.getAutomation(ctxOf(c), params.id))));
mount(router, r.updateAutomation, async (c, { params, body }) => c.json(automationOut(await aut.updateAutomation(ctxOf(c), params.id, body))));
mount(router, r.deleteAutomation, async (c, { params }) => c.json(await aut.deleteAutomation(ctxOf(c), params.id)));
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
