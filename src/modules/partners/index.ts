import { createRouter, mount } from '../../lib/openapi';
import type { Context } from 'hono';
import { ctxOf, type AppEnv } from '../../lib/context';
import * as r from './routes';
import { changePassword, forgotPassword, getMe, listTokens, login, register, resetPassword, revokeToken, updateMe } from './accounts';
import { createApp, deleteApp, getApp, listApps, patchApp, putManifest, rotateClientSecret, rotateWebhookSecret, sendTestWebhook, submitApp } from './apps';
import { approveApp, getForReview, listForReview, rejectApp } from './review';
import { getPartnerSandbox, issuePartnerSandboxKey, resetPartnerSandbox } from './sandbox';
import { limitAbuse } from '../../lib/abuse';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();

const baseUrl = (c: { env: { PUBLIC_BASE_URL?: string }; req: { url: string } }) => c.env.PUBLIC_BASE_URL ?? new URL(c.req.url).origin;
const clientOf = (c: Context<AppEnv>) => ({
  ip: clientIp(c),
  userAgent: c.req.header('user-agent'),
});

mount(router, r.register, async (c, { body }) => c.json(await register(ctxOf(c), body), 201));
mount(router, r.login, async (c, { body }) => c.json(await login(ctxOf(c), body, clientOf(c))));
mount(router, r.logout, async (c) => c.json(await revokeToken(ctxOf(c))));
mount(router, r.me, async (c) => c.json(await getMe(ctxOf(c))));
mount(router, r.updateMe, async (c, { body }) => c.json(await updateMe(ctxOf(c), body)));
mount(router, r.changePassword, async (c, { body }) => c.json(await changePassword(ctxOf(c), body)));
mount(router, r.forgotPassword, async (c, { body }) => {
  await limitAbuse(c, 'partner-password-reset', { target: body.email });
  return c.json(await forgotPassword(ctxOf(c), body.email, baseUrl(c), clientOf(c).ip));
});
mount(router, r.resetPassword, async (c, { body }) => c.json(await resetPassword(ctxOf(c), body)));
mount(router, r.listTokens, async (c) => c.json(await listTokens(ctxOf(c))));
mount(router, r.revokeToken, async (c, { params }) => c.json(await revokeToken(ctxOf(c), params.tokenId)));

mount(router, r.getSandbox, async (c) => c.json(await getPartnerSandbox(ctxOf(c))));
mount(router, r.sandboxKey, async (c) => c.json(await issuePartnerSandboxKey(ctxOf(c)), 201));
mount(router, r.sandboxReset, async (c) => c.json(await resetPartnerSandbox(ctxOf(c))));

mount(router, r.listApps, async (c, { query }) => c.json(await listApps(ctxOf(c), query)));
mount(router, r.createApp, async (c, { body }) => c.json(await createApp(ctxOf(c), body), 201));
mount(router, r.getApp, async (c, { params }) => c.json(await getApp(ctxOf(c), params.appId)));
mount(router, r.patchApp, async (c, { params, body }) => c.json(await patchApp(ctxOf(c), params.appId, body)));
mount(router, r.deleteApp, async (c, { params }) => c.json(await deleteApp(ctxOf(c), params.appId)));
mount(router, r.getManifest, async (c, { params }) => {
  const app = await getApp(ctxOf(c), params.appId);
  c.header('ETag', `"${app.version}"`);
  return c.json(app.manifest);
});
mount(router, r.putManifest, async (c, { params, body }) => {
  const app = await putManifest(ctxOf(c), params.appId, body, c.req.header('if-match'));
  c.header('ETag', `"${app.version}"`);
  return c.json(app);
});
mount(router, r.submitApp, async (c, { params }) => c.json(await submitApp(ctxOf(c), params.appId)));
mount(router, r.rotateClientSecret, async (c, { params }) => c.json(await rotateClientSecret(ctxOf(c), params.appId)));
mount(router, r.rotateWebhookSecret, async (c, { params }) => c.json(await rotateWebhookSecret(ctxOf(c), params.appId)));
mount(router, r.testWebhook, async (c, { params, body }) => c.json(await sendTestWebhook(ctxOf(c), params.appId, body.event)));

mount(router, r.listReview, async (c, { query }) => c.json(await listForReview(ctxOf(c), query)));
mount(router, r.getReview, async (c, { params }) => c.json(await getForReview(ctxOf(c), params.appId)));
mount(router, r.approve, async (c, { params, body }) => c.json(await approveApp(ctxOf(c), params.appId, body.note)));
mount(router, r.reject, async (c, { params, body }) => c.json(await rejectApp(ctxOf(c), params.appId, body.reason)));

router.openAPIRegistry.registerComponent('securitySchemes', 'PartnerToken', {
  type: 'http',
  scheme: 'bearer',
  description: 'Partner token (`bpt_...`) from POST /partners/login, POST /partners/register or the device authorization grant (command line).',
});

export default router;
