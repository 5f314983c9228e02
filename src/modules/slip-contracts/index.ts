import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import * as r from './routes';
import { generateContract } from './contracts';
import { contractPdf, contractsByStatus, contractsOfReservation, contractStats, getContract } from './queries';
import { regenerateSignedPdf, resendContract, sendContract, signContract, voidContract } from './signing';
import { createTemplate, deleteTemplate, duplicateTemplate, getTemplate, listTemplates, templatesOfLocation, updateTemplate } from './templates';
import { TEMPLATE_VARIABLES } from './variables';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();
const origin = (c: Context<AppEnv>) => c.env.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? new URL(c.req.url).origin;

// Static paths before /slip-contracts/{id} and /slip-contracts/templates/{id}.
mount(router, r.listTemplates, async (c, { query }) => c.json(await listTemplates(ctxOf(c), query)));
mount(router, r.createTemplate, async (c, { body }) => c.json(await createTemplate(ctxOf(c), body), 201));
mount(router, r.variables, async (c) =>
  c.json({ data: TEMPLATE_VARIABLES, syntax: 'Write {{name}} in the title or body; names not listed here come from the template defaults.' }),
);
mount(router, r.getTemplate, async (c, { params }) => c.json(await getTemplate(ctxOf(c), params.id)));
mount(router, r.updateTemplate, async (c, { params, body }) => c.json(await updateTemplate(ctxOf(c), params.id, body)));
mount(router, r.deleteTemplate, async (c, { params }) => c.json(await deleteTemplate(ctxOf(c), params.id)));
mount(router, r.duplicateTemplate, async (c, { params, body }) => c.json(await duplicateTemplate(ctxOf(c), params.id, body), 201));
mount(router, r.locationTemplates, async (c, { params }) => c.json(await templatesOfLocation(ctxOf(c), params.locationId)));
mount(router, r.byReservation, async (c, { params }) => c.json(await contractsOfReservation(ctxOf(c), params.reservationId)));
mount(router, r.pending, async (c, { query }) => c.json(await contractsByStatus(ctxOf(c), ['generated', 'sent'], query)));
mount(router, r.signed, async (c, { query }) => c.json(await contractsByStatus(ctxOf(c), ['signed'], query)));
mount(router, r.stats, async (c, { query }) => c.json(await contractStats(ctxOf(c), query)));
mount(router, r.generate, async (c, { body }) => c.json(await generateContract(ctxOf(c), body), 201));
mount(router, r.send, async (c, { body }) => c.json(await sendContract(ctxOf(c), body, origin(c))));
mount(router, r.sign, async (c, { body }) =>
  c.json(await signContract(ctxOf(c), body, { ip: clientIp(c), userAgent: c.req.header('user-agent')?.slice(0, 500) ?? null })),
);
mount(router, r.resend, async (c, { body }) => c.json(await resendContract(ctxOf(c), body, origin(c))));
mount(router, r.voidContract, async (c, { body }) => c.json(await voidContract(ctxOf(c), body)));
mount(router, r.regeneratePdf, async (c, { body }) => c.json(await regenerateSignedPdf(ctxOf(c), body)));
mount(router, r.getContract, async (c, { params }) => c.json(await getContract(ctxOf(c), params.id)));
mount(router, r.getPdf, async (c, { params }) => {
  const pdf = await contractPdf(ctxOf(c), params.id);
  return c.body(pdf.bytes, 200, { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${pdf.filename}"` });
});

export default router;
