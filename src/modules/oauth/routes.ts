import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import { partnerAuth } from '../partners/service';
import * as s from './schemas';

const tags = ['OAuth'];
const itags = ['App installations'];
const page = { access: 'none' as const, security: [], produces: 'text/html' };

const AUTHORIZE_DOC = `The operator's consent (RFC 6749 4.1 with the rules of RFC 9700). Checked before anything is shown: \`client_id\` names an app and
\`redirect_uri\` (required) exactly matches one of its redirect URIs; otherwise an error page, never a redirect. Then, with errors redirected to
\`redirect_uri\` as \`error\`, \`error_description\`, \`state\` and \`iss\` (RFC 9207): \`response_type=code\`; PKCE with \`code_challenge\` (43 characters)
and \`code_challenge_method=S256\` (\`plain\` is refused; required for public clients); \`scope\` (space-separated, default all of the app's scopes)
within the app's scopes.

The page asks the operator to sign in: at the identity provider in staging and production, as a seeded user in development (the shared demo
operators, never a private sandbox); the app's own developer can sign in with the partner account to install it in the partner account's own
private sandbox operator (GET /partners/sandbox: created and seeded on first use, seen by no other partner). The consent lists the scopes; \`Allow\` (an admin of the operator) installs the
app and redirects with \`code\` (single use, 60 seconds), \`state\` and \`iss\`; \`Deny\` redirects with \`error=access_denied\`. Live operators can
install approved apps only, with the approved redirect URIs and scopes; sandbox operators install any app at once.`;

export const authorize = route({
  method: 'get',
  path: '/oauth/authorize',
  operationId: 'authorizeApp',
  tags,
  ...page,
  summary: 'Authorization endpoint: consent page (HTML), then a redirect with a code',
  query: s.AuthorizeQuery,
  errors: [403],
  description: AUTHORIZE_DOC,
});
export const signIn = route({
  method: 'post',
  path: '/oauth/authorize/login',
  operationId: 'signInForAuthorization',
  tags,
  ...page,
  status: 303,
  summary: 'Consent page form: development sign-in or the developer sandbox sign-in',
  form: s.LoginForm,
  errors: [401, 403],
  description: `Form of the consent page, bound to the browser that opened the request (cookie). \`method=development\` with \`userId\` (development and tests only); \`method=partner\` with \`email\` and \`password\` of the partner that owns the app (installs in that partner account's private sandbox, seeded on first use). Answers 303 to the consent page.`,
});
export const idpSignIn = route({
  method: 'get',
  path: '/oauth/authorize/login/idp',
  operationId: 'startIdpSignInForAuthorization',
  tags,
  ...page,
  status: 302,
  summary: "Consent page: to the identity provider's sign-in (staging and production)",
  query: s.RequestQuery,
  errors: [403],
  description: `The sign-in button of the consent page (\`request\` = the authorization request, bound to the browser that opened it by a cookie). Redirects (302) to the identity provider's hosted login with PKCE, back to GET /oauth/authorize/callback. An HTML error page instead: 400 for an unknown, expired or finished request, 403 when the request was started in another browser, 503 when no identity provider is configured (IDP_DOMAIN, IDP_CLIENT_ID).`,
});
export const idpCallback = route({
  method: 'get',
  path: '/oauth/authorize/callback',
  operationId: 'idpSignInCallback',
  tags,
  ...page,
  status: 303,
  summary: "Consent page: the identity provider's answer",
  query: s.CallbackQuery,
  errors: [401, 403],
  description: `Where the identity provider sends the browser back (\`code\` and \`state\` = the authorization request, or \`error\`). The code is exchanged (PKCE) and the identity must be a user of a Berth operator; then a redirect (302) to the consent page. The sign-in page again with the reason when sign-in did not complete (400) or the identity is no operator user (403); the error page for an unknown, expired or finished request (400) or another browser (403).`,
});
export const consent = route({
  method: 'get',
  path: '/oauth/authorize/consent',
  operationId: 'showAuthorizationConsent',
  tags,
  ...page,
  summary: 'Consent page after sign-in (HTML)',
  query: s.RequestQuery,
  errors: [403],
  description: `After sign-in: the app's name and partner, the operator and the signed-in user, the scopes asked for, where the app shows in the dashboard and the host it redirects to, with Allow and Deny (POST /oauth/authorize/decision). Without a signed-in user it shows the sign-in page. The error page for an unknown, expired or finished request (400) or a request started in another browser (403).`,
});
export const decision = route({
  method: 'post',
  path: '/oauth/authorize/decision',
  operationId: 'decideAuthorization',
  tags,
  ...page,
  status: 302,
  summary: 'Consent page form: allow or deny; redirects to the app',
  form: s.DecisionForm,
  errors: [403],
  description: `\`decision=deny\` redirects to the app's redirect URI with \`error=access_denied\`, \`state\` and \`iss\`. \`allow\` needs an admin of the operator (403 page otherwise); live operators install approved apps only (403 page), with a redirect URI of the approved manifest (400 page) and approved scopes (a redirect with \`error=invalid_scope\`). Then the installation and grant are recorded and the browser is redirected with \`code\` (single use, 60 seconds), \`state\` and \`iss\`. A request decides once: a second decision shows the error page.`,
});
export const token = route({
  method: 'post',
  path: '/oauth/token',
  operationId: 'requestOAuthToken',
  tags,
  access: 'none',
  security: [],
  summary: 'Token endpoint: authorization code, refresh (rotating), token exchange, device code',
  form: s.TokenForm,
  ok: s.TokenResponse,
  errors: [401],
  description: `Form-encoded (RFC 6749; JSON is accepted too). Confidential clients authenticate with HTTP Basic (\`client_id:client_secret\`) or
\`client_secret\` in the body; public clients send \`client_id\` only. Answers carry \`Cache-Control: no-store\`.

- \`authorization_code\`: \`code\`, \`redirect_uri\` (identical to the authorization request), \`code_verifier\` (PKCE). A code works once and for
60 seconds; presenting it again revokes every token it issued. Answers an access token (\`bat_...\`, 1 hour), a refresh token (\`brt_...\`, 90 days),
\`scope\`, \`installation_id\` and \`customer_id\`.
- \`refresh_token\`: \`refresh_token\`, optional narrower \`scope\`. Every use rotates it. The previous refresh token still works for 60 seconds
(at most 3 times) for a client that lost the answer; any older one, or the previous one later, is reuse: the whole grant is revoked. A refresh token
of another client answers \`invalid_grant\`.
- \`urn:ietf:params:oauth:grant-type:token-exchange\` (RFC 8693): \`subject_token\` = an embedded session token whose audience is this client,
\`subject_token_type=urn:ietf:params:oauth:token-type:jwt\`; answers an access token of the installation acting as the session's user (no refresh token).
- \`urn:ietf:params:oauth:grant-type:device_code\` (RFC 8628, client \`berth-cli\`): \`device_code\`; \`authorization_pending\`, \`slow_down\`,
\`access_denied\`, \`expired_token\`, then a partner token (\`bpt_...\`, 30 days).

Errors: 400 \`invalid_request\`, \`invalid_grant\`, \`invalid_scope\`, \`unauthorized_client\`, \`unsupported_grant_type\`; 401 \`invalid_client\`.
Each carries the RFC's \`error_description\` beside \`message\`.`,
});
export const revoke = route({
  method: 'post',
  path: '/oauth/revoke',
  operationId: 'revokeOAuthToken',
  tags,
  access: 'none',
  security: [],
  summary: 'Revocation endpoint (RFC 7009)',
  form: s.RevokeForm,
  ok: z.object({ revoked: z.boolean() }),
  errors: [401],
  description: `Client authentication as on the token endpoint. A refresh token revokes its whole grant (every access token with it); an access token stops alone; the command line (\`client_id=berth-cli\`) revokes its partner token. An unknown token answers 200 (\`revoked: false\`); a token of another client 400 \`invalid_request\`.`,
});
export const deviceCode = route({
  method: 'post',
  path: '/oauth/device/code',
  operationId: 'requestDeviceCode',
  tags,
  access: 'none',
  security: [],
  summary: 'Device authorization endpoint (RFC 8628) for the command line',
  form: s.DeviceCodeForm,
  ok: s.DeviceCodeResponse,
  errors: [],
  description: `\`client_id=berth-cli\`. Answers \`device_code\`, \`user_code\` (eight consonants in two groups of four, e.g. BCDF-GHJK), \`verification_uri\` (the approval page, \`/device\`), \`verification_uri_complete\`, \`expires_in\` (900) and \`interval\` (5). The tool shows the code and URL, then polls POST /oauth/token with the device code grant.`,
});
export const devicePage = route({
  method: 'get',
  path: '/device',
  operationId: 'showDeviceApproval',
  tags,
  ...page,
  summary: 'Approval page of the device grant (HTML): the partner signs in and approves the code',
  query: s.DeviceQuery,
  description: `The page of \`verification_uri\` (POST /oauth/device/code): the partner enters the user code (prefilled from \`user_code\` of \`verification_uri_complete\`), their e-mail and password, then approves or denies (POST /device). The terminal polling POST /oauth/token gets its partner token once approved.`,
});
export const deviceDecision = route({
  method: 'post',
  path: '/device',
  operationId: 'decideDeviceApproval',
  tags,
  ...page,
  summary: 'Approval page form: partner e-mail, password, user code, approve or deny',
  form: s.DeviceForm,
  errors: [401, 429],
  description: 'Sign-in attempts are limited to 10 per minute per e-mail. A code can be decided once, while it has not expired.',
});
export const jwks = route({
  method: 'get',
  path: '/.well-known/jwks.json',
  operationId: 'getJwks',
  tags,
  access: 'none',
  security: [],
  summary: 'Public keys that sign embedded session tokens',
  ok: s.Jwks,
  description: `Verify session tokens with these keys (for example \`createRemoteJWKSet\` of \`jose\`): issuer = this API, audience = your client id, \`sub\` = the operator user, claims \`customerId\`, \`installationId\`, \`locationId\`, \`embedLocation\`.`,
});
export const metadata = route({
  method: 'get',
  path: '/.well-known/oauth-authorization-server',
  operationId: 'getAuthorizationServerMetadata',
  tags,
  access: 'none',
  security: [],
  summary: 'Authorization server metadata (RFC 8414)',
  ok: s.ServerMetadata,
  description: `The endpoints (authorization, token, revocation, device authorization, JWKS), the supported scopes, response types, grant types and client authentication methods, PKCE \`S256\` only, \`authorization_response_iss_parameter_supported\` (RFC 9207) and the authorization code lifetime. \`issuer\` is this API's public base URL.`,
});

export const listInstallations = route({
  method: 'get',
  path: '/apps/installations',
  operationId: 'listAppInstallations',
  tags: itags,
  access: 'admin',
  summary: "The operator's installed apps",
  query: s.ListQuery,
  ok: z.object({ data: z.array(s.Installation), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
  description: `Newest first, \`limit\`/\`offset\`, \`total\`; \`status\` keeps \`active\` or \`uninstalled\` ones. Each with its app and partner name, sandbox or live, the granted \`scopes\`, the embed URL and places of the manifest it runs (the approved one on a live operator), who installed it and when, and its \`activeGrants\`. Admins only.`,
});
export const getInstallation = route({
  method: 'get',
  path: '/apps/installations/{installationId}',
  operationId: 'getAppInstallation',
  tags: itags,
  access: 'admin',
  summary: 'One installed app',
  params: s.InstallationIdParam,
  ok: s.Installation,
  errors: [404],
  description: `The app and partner name, sandbox or live, granted \`scopes\`, embed URL and places (null and empty once uninstalled), who installed it and when, \`uninstalledAt\` and \`activeGrants\`. Another operator's installation answers 404. Admins only.`,
});
export const uninstall = route({
  method: 'delete',
  path: '/apps/installations/{installationId}',
  operationId: 'uninstallApp',
  tags: itags,
  access: 'admin',
  summary: 'Uninstall an app: every one of its tokens on this operator stops at once',
  params: s.InstallationIdParam,
  ok: s.Uninstalled,
  errors: [404],
  description: `The installation and all its grants are marked in one write (the gateway checks the installation on every call), then each grant drops its tokens; event deliveries stop. Uninstalling again answers \`alreadyUninstalled: true\`.`,
});
export const sessionToken = route({
  method: 'post',
  path: '/apps/installations/{installationId}/session-token',
  operationId: 'issueEmbeddedSessionToken',
  tags: itags,
  summary: 'A session token for an embedded app (the host SDK calls this)',
  params: s.InstallationIdParam,
  body: s.SessionTokenBody,
  ok: s.SessionToken,
  errors: [404, 409],
  description: `A JWT signed with the keys of /.well-known/jwks.json, valid 5 minutes: \`iss\` = this API, \`aud\` = the app's client id, \`sub\` = the calling
user, claims \`customerId\`, \`installationId\`, \`locationId\`, \`embedLocation\` (and \`rentalId\` when given). The host SDK (/sdk/host.js) hands it to the
iframe by \`postMessage\`; the app verifies it and may exchange it at POST /oauth/token (token exchange) for an access token.`,
});
export const embeds = route({
  method: 'get',
  path: '/apps/embeds',
  operationId: 'listAppEmbeds',
  tags: itags,
  summary: 'Installed apps that render in a place of the dashboard (for example asset-tracking)',
  query: s.EmbedsQuery,
  ok: s.Embeds,
  description: `The operator's active installations whose manifest (the approved one on a live operator) has an embed URL; \`embedLocation\` keeps the apps that render in that place. The dashboard loads each with the host SDK (GET /sdk/host.js).`,
});
export const partnerInstallations = route({
  method: 'get',
  path: '/partners/apps/{appId}/installations',
  operationId: 'listPartnerAppInstallations',
  tags: ['Partner apps'],
  access: 'none',
  auth: partnerAuth,
  summary: 'Where the app is installed (operators, sandbox or live, status)',
  params: s.AppIdParam,
  query: s.PageQuery,
  ok: s.AppInstallations,
  errors: [401, 404],
  description: `Every operator the app is installed on (or was: \`uninstalled\` ones stay listed), newest first: the operator's name, sandbox or live, status, granted scopes and times; \`limit\`/\`offset\`, \`total\`. Another partner's app answers 404.`,
});
export const hostSdk = route({
  method: 'get',
  path: '/sdk/host.js',
  operationId: 'getHostSdk',
  tags: itags,
  access: 'none',
  security: [],
  produces: 'application/javascript',
  summary: 'Host SDK: BerthHost.embed({container, installationId, getAuthorization, locationId, embedLocation})',
  description: `JavaScript for the dashboard (public, cached 5 minutes, any origin). \`BerthHost.embed\` creates the app's iframe in \`container\`, gets session tokens from POST /apps/installations/{installationId}/session-token with the \`Authorization\` header \`getAuthorization()\` returns, loads the installation's embed URL (with \`installationId\`, \`embedLocation\`, \`locationId\`) and answers the iframe's \`berth:session-token:request\` messages with a fresh token, only to the app's origin. Answers \`{iframe, ready, destroy}\`.`,
});
export const appSdk = route({
  method: 'get',
  path: '/sdk/app.js',
  operationId: 'getAppSdk',
  tags: itags,
  access: 'none',
  security: [],
  produces: 'application/javascript',
  summary: 'App SDK: BerthApp.getSessionToken() inside the iframe',
  description: `JavaScript for the embedded app (public, cached 5 minutes, any origin). \`BerthApp.getSessionToken(timeoutMs)\` asks the host page by \`postMessage\` and resolves \`{token, expiresAt, hostOrigin}\` (10 seconds by default, rejected outside the dashboard); \`BerthApp.init({hostOrigin})\` pins the host origin. Verify the token with /.well-known/jwks.json or exchange it at POST /oauth/token.`,
});
