import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import * as r from './routes';
import { locationLogo, waiverNumberValidation, waiverUrl } from './links';
import { listTemplates } from './queries';
import { signWaiver } from './sign';
import { signatureInfo, signedPdf, verifySignature } from './signatures';
import { createTemplate, deleteTemplate, getTemplate, publicTemplatesOfLocation, updateTemplate } from './templates';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();

/** Origin of the links we hand out (signed waiver PDFs, waiver pages). */
const baseUrl = (c: Context<AppEnv>) => (c.env.PUBLIC_BASE_URL || new URL(c.req.url).origin).replace(/\/$/, '');

mount(router, r.waiverUrl, async (c, { query }) => c.json(await waiverUrl(ctxOf(c), query.locationId, baseUrl(c))));
mount(router, r.waiverNumberValidation, async (c, { query }) => c.json(await waiverNumberValidation(ctxOf(c), query)));
mount(router, r.logo, async (c, { params }) => c.json(await locationLogo(ctxOf(c), params.locationId)));
mount(router, r.publicTemplates, async (c, { params, query }) =>
  c.json(await publicTemplatesOfLocation(ctxOf(c), params.locationId, query, { ip: clientIp(c), userAgent: c.req.header('user-agent') ?? null })),
);
mount(router, r.listTemplates, async (c, { query }) => c.json(await listTemplates(ctxOf(c), query.locationId)));
mount(router, r.createTemplate, async (c, { body }) => c.json(await createTemplate(ctxOf(c), body), 201));
mount(router, r.getTemplate, async (c, { params }) => c.json(await getTemplate(ctxOf(c), params.templateId)));
mount(router, r.updateTemplate, async (c, { params, body }) => c.json(await updateTemplate(ctxOf(c), params.templateId, body)));
mount(router, r.deleteTemplate, async (c, { params }) => c.json(await deleteTemplate(ctxOf(c), params.templateId)));
mount(router, r.sign, async (c, { body }) =>
  c.json(await signWaiver(ctxOf(c), body, { baseUrl: baseUrl(c), observedIp: clientIp(c), userAgent: c.req.header('user-agent') ?? null }), 201),
);
mount(router, r.signatureInfo, async (c, { params }) => c.json(await signatureInfo(ctxOf(c), params.signatureId, baseUrl(c))));
mount(router, r.verify, async (c, { params }) => c.json(await verifySignature(ctxOf(c), params.signatureId, baseUrl(c))));
mount(router, r.signedPdf, async (c, { params }) => {
  const pdf = await signedPdf(ctxOf(c), params.signatureId);
  return new Response(pdf.body, {
    headers: {
      'content-type': 'application/pdf',
      'content-length': String(pdf.size),
      'content-disposition': `inline; filename="${pdf.filename}"`,
      'cache-control': 'private, max-age=300',
    },
  });
});

export default router;
