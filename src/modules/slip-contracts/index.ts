import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();
const origin = (c: Context<AppEnv>) => c.env.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? new URL(c.req.url).origin;

// Static paths before /slip-contracts/{id} and /slip-contracts/templates/{id}.
mount(router, r.listTemplates, async (c, { query }) => c.json(await svc.listTemplates(ctxOf(c), query)));
mount(router, r.createTemplate, async (c, { body }) => c.json(await svc.createTemplate(ctxOf(c), body), 201));
mount(router, r.variables, async (c) =>
  c.json({ data: svc.TEMPLATE_VARIABLES, syntax: 'Write {{name}} in the title or body; names not listed here come from the template defaults.' }),
);
mount(router, r.getTemplate, async (c, { params }) => c.json(await svc.getTemplate(ctxOf(c), params.id)));
mount(router, r.updateTemplate, async (c, { params, body }) => c.json(await svc.updateTemplate(ctxOf(c), params.id, body)));
mount(router, r.deleteTemplate, async (c, { params }) => c.json(await svc.deleteTemplate(ctxOf(c), params.id)));
mount(router, r.duplicateTemplate, async (c, { params, body }) => c.json(await svc.duplicateTemplate(ctxOf(c), params.id, body), 201));
mount(router, r.locationTemplates, async (c, { params }) => c.json(await svc.templatesOfLocation(ctxOf(c), params.locationId)));
mount(router, r.byReservation, async (c, { params }) => c.json(await svc.contractsOfReservation(ctxOf(c), params.reservationId)));
mount(router, r.pending, async (c, { query }) => c.json(await svc.contractsByStatus(ctxOf(c), ['generated', 'sent'], query)));
mount(router, r.signed, async (c, { query }) => c.json(await svc.contractsByStatus(ctxOf(c), ['signed'], query)));
mount(router, r.stats, async (c, { query }) => c.json(await svc.contractStats(ctxOf(c), query)));
mount(router, r.generate, async (c, { body }) => c.json(await svc.generateContract(ctxOf(c), body), 201));
mount(router, r.send, async (c, { body }) => c.json(await svc.sendContract(ctxOf(c), body, origin(c))));
mount(router, r.sign, async (c, { body }) =>
  c.json(await svc.signContract(ctxOf(c), body, { ip: clientIp(c), userAgent: c.req.header('user-agent')?.slice(0, 500) ?? null })),
);
mount(router, r.resend, async (c, { body }) => c.json(await svc.resendContract(ctxOf(c), body, origin(c))));
mount(router, r.voidContract, async (c, { body }) => c.json(await svc.voidContract(ctxOf(c), body)));
mount(router, r.regeneratePdf, async (c, { body }) => c.json(await svc.regenerateSignedPdf(ctxOf(c), body)));
mount(router, r.getContract, async (c, { params }) => c.json(await svc.getContract(ctxOf(c), params.id)));
mount(router, r.getPdf, async (c, { params }) => {
  const pdf = await svc.contractPdf(ctxOf(c), params.id);
  return c.body(pdf.bytes, 200, { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${pdf.filename}"` });
});

export default router;
