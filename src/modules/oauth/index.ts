import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import * as r from './routes';
import * as s from './schemas';
import { type Outcome, cookieName, decide, idpCallback, showConsent, signInForm, startAuthorization, startIdpLogin } from './authorize';
import { createDeviceCode, decideDeviceCode } from './device';
import { getInstallation, issueSessionToken, listAppInstallations, listEmbeds, listInstallations, uninstall } from './installations';
import { issuerOf, jwks } from './keys';
import { devicePage, html } from './pages';
import { APP_SDK, HOST_SDK } from './sdk';
import { scopeDescriptions, serverMetadata } from './service';
import { revoke, token } from './token';
import { readForm } from './form';
import { clientIp } from '../../lib/ip-limit';

const router = createRouter();

const issuer = (c: Context<AppEnv>) => issuerOf(c.env, c.req.url);

/** Renders a page flow's outcome: a redirect (never cached) or an HTML page with the request's browser cookie. */
function render(c: Context<AppEnv>, o: Outcome) {
  if (o.kind === 'redirect') {
    const res = c.redirect(o.location, o.status ?? 302);
    res.headers.set('Cache-Control', 'no-store');
    res.headers.set('Referrer-Policy', 'no-referrer');
    return res;
  }
  const headers: Record<string, string> = {};
  if (o.cookie) {
    const secure = new URL(c.req.url).protocol === 'https:' ? '; Secure' : '';
    headers['Set-Cookie'] = `${o.cookie.name}=${o.cookie.value}; Path=/oauth; Max-Age=600; HttpOnly; SameSite=Lax${secure}`;
  }
  return html(c, o.html, o.status, headers);
}

const cookieFor = (c: Context<AppEnv>, requestId: string | undefined) => (requestId ? getCookie(c, cookieName(requestId)) : undefined);

/** Token answers are never cached (RFC 6749 5.1). */
function noStore(res: Response) {
  res.headers.set('Cache-Control', 'no-store');
  res.headers.set('Pragma', 'no-cache');
  return res;
}

mount(router, r.authorize, async (c, { query }) => render(c, await startAuthorization(ctxOf(c), issuer(c), query)));
mount(router, r.signIn, async (c) => {
  const form = await readForm(c, s.LoginForm);
  return render(c, await signInForm(ctxOf(c), issuer(c), cookieFor(c, form.request), form, clientIp(c)));
});
mount(router, r.idpSignIn, async (c, { query }) => render(c, await startIdpLogin(ctxOf(c), issuer(c), cookieFor(c, query.request), query.request)));
mount(router, r.idpCallback, async (c, { query }) => render(c, await idpCallback(ctxOf(c), issuer(c), (id) => cookieFor(c, id), query)));
mount(router, r.consent, async (c, { query }) => render(c, await showConsent(ctxOf(c), issuer(c), cookieFor(c, query.request), query.request)));
mount(router, r.decision, async (c) => {
  const form = await readForm(c, s.DecisionForm);
  return render(c, await decide(ctxOf(c), issuer(c), cookieFor(c, form.request), form));
});

mount(router, r.token, async (c) => {
  const form = await readForm(c, s.TokenForm);
  return noStore(c.json(await token(ctxOf(c), issuer(c), c.req.header('authorization'), form)));
});
mount(router, r.revoke, async (c) => {
  const form = await readForm(c, s.RevokeForm);
  return noStore(c.json(await revoke(ctxOf(c), c.req.header('authorization'), form)));
});
mount(router, r.deviceCode, async (c) => {
  const form = await readForm(c, s.DeviceCodeForm);
  return noStore(c.json(await createDeviceCode(ctxOf(c), issuer(c), form.client_id ?? '')));
});
mount(router, r.devicePage, async (c, { query }) => render(c, { kind: 'page', status: 200, html: devicePage({ userCode: query.user_code ?? '' }) }));
mount(router, r.deviceDecision, async (c) => {
  const form = await readForm(c, s.DeviceForm);
  return render(c, await decideDeviceCode(ctxOf(c), form, clientIp(c)));
});
mount(router, r.jwks, async (c) => {
  const res = c.json(await jwks(ctxOf(c)));
  res.headers.set('Cache-Control', 'public, max-age=300');
  return res;
});
mount(router, r.metadata, async (c) => c.json(serverMetadata(issuer(c))));

mount(router, r.listInstallations, async (c, { query }) => c.json(await listInstallations(ctxOf(c), query)));
mount(router, r.getInstallation, async (c, { params }) => c.json(await getInstallation(ctxOf(c), params.installationId)));
mount(router, r.uninstall, async (c, { params }) => c.json(await uninstall(ctxOf(c), params.installationId)));
mount(router, r.sessionToken, async (c, { params, body }) => c.json(await issueSessionToken(ctxOf(c), issuer(c), params.installationId, body)));
mount(router, r.embeds, async (c, { query }) => c.json(await listEmbeds(ctxOf(c), query)));
mount(router, r.partnerInstallations, async (c, { params, query }) => c.json(await listAppInstallations(ctxOf(c), params.appId, query)));

const script = (c: Context<AppEnv>, body: string) =>
  c.body(body, 200, { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' });
mount(router, r.hostSdk, (c) => script(c, HOST_SDK));
mount(router, r.appSdk, (c) => script(c, APP_SDK));

router.openAPIRegistry.registerComponent('securitySchemes', 'OAuthAccessToken', {
  type: 'oauth2',
  description: 'Access token of an installed app (`Authorization: Bearer bat_...`), for the partner gateway under /api/v1.',
  flows: {
    authorizationCode: {
      authorizationUrl: '/oauth/authorize',
      tokenUrl: '/oauth/token',
      refreshUrl: '/oauth/token',
      scopes: scopeDescriptions(),
    },
  },
});

export default router;
