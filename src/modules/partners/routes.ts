import { z } from '@hono/zod-openapi';
import { Ok, route } from '../../lib/openapi';
import { platformAuth } from '../../middleware/auth';
import { partnerAuth } from './middleware';
import * as s from './schemas';
import { PASSWORD_ITERATIONS } from './password';

const tags = ['Partner accounts'];
const atags = ['Partner apps'];
const rtags = ['App review'];
const partner = { access: 'none' as const, auth: partnerAuth };
const platform = { access: 'none' as const, auth: platformAuth };

export const register = route({
  method: 'post',
  path: '/partners/register',
  operationId: 'registerPartner',
  tags,
  access: 'none',
  security: [],
  summary: 'Register a partner account (active at once) and get a partner token',
  body: s.RegisterBody,
  ok: s.PartnerSession,
  status: 201,
  errors: [409, 429],
  description: `One account per e-mail (409 \`already_exists\`). The password (10 to 200 characters) is stored as a PBKDF2-HMAC-SHA256 hash
(WebCrypto, 16-byte random salt, ${PASSWORD_ITERATIONS.toLocaleString('en-US')} iterations, the most the Workers runtime allows) and never returned.
The answer carries a partner token (\`bpt_...\`, 30 days) for \`Authorization: Bearer\`.`,
});
export const login = route({
  method: 'post',
  path: '/partners/login',
  operationId: 'loginPartner',
  tags,
  access: 'none',
  security: [],
  summary: 'Sign in with e-mail and password: a new partner token',
  body: s.LoginBody,
  ok: s.PartnerSession,
  errors: [401, 403, 429],
  description: `401 \`invalid_credentials\` for an unknown e-mail or a wrong password (the same answer and the same work either way). At most 10 attempts per minute per e-mail address (429 with \`Retry-After\`).`,
});
export const logout = route({
  method: 'post',
  path: '/partners/logout',
  operationId: 'logoutPartner',
  tags,
  ...partner,
  summary: 'Revoke the partner token of this request',
  ok: Ok,
  errors: [401],
  description: `Only the token sent with the request stops (other sign-ins and command-line logins stay; DELETE /partners/tokens/{tokenId} revokes one of them). Answers \`success\` and the \`tokenId\` revoked.`,
});
export const me = route({
  method: 'get',
  path: '/partners/me',
  operationId: 'getPartnerMe',
  tags,
  ...partner,
  summary: 'The signed-in partner account (command line: whoami)',
  ok: s.Partner,
  errors: [401],
  description: `The account of the partner token: name, company, \`status\` and whether a password is set (\`hasPassword\`; accounts created for an existing reseller channel have none until one is set). Never the password hash.`,
});
export const updateMe = route({
  method: 'patch',
  path: '/partners/me',
  operationId: 'updatePartnerMe',
  tags,
  ...partner,
  summary: 'Change the name or company of the partner account',
  body: s.UpdateMeBody,
  ok: s.Partner,
  errors: [401],
  description: `Give \`name\`, \`company\` or both (\`company: null\` clears it); 400 \`no_changes\` when neither is given. The e-mail address does not change here. Answers the account.`,
});
export const changePassword = route({
  method: 'put',
  path: '/partners/me/password',
  operationId: 'changePartnerPassword',
  tags,
  ...partner,
  summary: 'Change the password (signs out every other partner token)',
  body: s.PasswordBody,
  ok: Ok,
  errors: [401, 429],
  description: '`currentPassword` is required when the account has a password (accounts created for an existing reseller channel have none until one is set).',
});
export const forgotPassword = route({
  method: 'post',
  path: '/partners/password/forgot',
  operationId: 'forgotPartnerPassword',
  tags,
  access: 'none',
  security: [],
  summary: 'E-mail a one-time password-reset token (1 hour)',
  body: s.ForgotBody,
  errors: [429],
  description: 'Answers 200 whether or not the address has an account (it reveals nothing).',
});
export const resetPassword = route({
  method: 'post',
  path: '/partners/password/reset',
  operationId: 'resetPartnerPassword',
  tags,
  access: 'none',
  security: [],
  summary: 'Set a new password with the e-mailed token (signs out every partner token)',
  body: s.ResetBody,
  ok: Ok,
  errors: [410],
  description: '410 `expired` for an unknown, used or expired token.',
});
export const listTokens = route({
  method: 'get',
  path: '/partners/tokens',
  operationId: 'listPartnerTokens',
  tags,
  ...partner,
  summary: 'Active partner tokens (sign-ins and command-line logins)',
  ok: z.object({ data: z.array(s.PartnerToken) }),
  errors: [401],
  description: `Tokens of the account that are neither revoked nor expired, newest first: \`kind\` \`session\` (POST /partners/login or /partners/register) or \`cli\` (the device authorization grant), \`current\` for the token of this request, \`lastUsedAt\`. Password-reset tokens are not listed; no token value is ever shown again.`,
});
export const revokeToken = route({
  method: 'delete',
  path: '/partners/tokens/{tokenId}',
  operationId: 'revokePartnerToken',
  tags,
  ...partner,
  summary: 'Revoke one partner token (it stops at once)',
  params: s.TokenIdParam,
  ok: Ok,
  errors: [401, 404],
  description: `One of the partner's own tokens (GET /partners/tokens); 404 for an unknown, already revoked or another partner's token. Answers \`success\` and the \`tokenId\`.`,
});

// ---- apps ----

const MANIFEST_DOC = `The manifest is exactly the content of the app file \`berth.app.json\`:
\`{appId, name, scopes, urls: {embed, redirect}, embedLocations, webhooks: {url, events}}\`, keys in that order and lists sorted,
so \`pull\` writes it as is and \`push\` diffs it field by field. Scopes come from the catalogue (GET /oauth/scopes); embed locations:
\`asset-tracking\` (the live map), \`dashboard\`, \`booking-detail\`, \`renter-profile\`, \`inventory-item\`, \`settings\`; events: \`booking.*\` or any of
\`booking.created\`, \`booking.updated\`, \`booking.cancelled\`, \`booking.checked_in\`, \`booking.checked_out\`, \`booking.status_changed\`, \`booking.rescheduled\`
(they need \`read:bookings\`). Redirect URIs are matched exactly: https, http only on loopback, or a reverse-domain scheme for public clients.
The embed URL is https (http only on localhost, for \`berth dev\`).`;

export const listApps = route({
  method: 'get',
  path: '/partners/apps',
  operationId: 'listPartnerApps',
  tags: atags,
  ...partner,
  summary: "The partner's apps",
  query: s.ListQuery,
  ok: s.AppList,
  errors: [401],
  description: `Apps of the partner that are not deleted, newest first, with their status (\`draft\`, \`in_review\`, \`approved\`), review reason, current and approved manifests; \`limit\`/\`offset\`, \`total\`. Secrets are never listed.`,
});
export const createApp = route({
  method: 'post',
  path: '/partners/apps',
  operationId: 'createPartnerApp',
  tags: atags,
  ...partner,
  summary: 'Create an app (draft; installs in the sandbox at once)',
  body: s.CreateAppBody,
  ok: s.CreatedApp,
  status: 201,
  errors: [401],
  description: `The app is its own OAuth client (\`clientId\` = \`appId\`). A \`confidential\` client gets a client secret, a \`public\` one must use PKCE S256.
Both secrets in the answer (client secret, webhook signing secret) are shown once. ${MANIFEST_DOC}`,
});
export const getApp = route({
  method: 'get',
  path: '/partners/apps/{appId}',
  operationId: 'getPartnerApp',
  tags: atags,
  ...partner,
  summary: 'An app: status, review reason, current and approved manifests',
  params: s.AppIdParam,
  ok: s.App,
  errors: [401, 404],
  description: "Another partner's app answers 404. `live` is the approved manifest that live installs run; `manifest` the current one (sandbox).",
});
export const patchApp = route({
  method: 'patch',
  path: '/partners/apps/{appId}',
  operationId: 'updatePartnerApp',
  tags: atags,
  ...partner,
  summary: 'Change some manifest fields (for example urls.embed while developing)',
  params: s.AppIdParam,
  body: s.PatchAppBody,
  ok: s.App,
  errors: [401, 404, 409],
  description: `Only the keys given change (\`urls\` and \`webhooks\` key by key). A change of an approved app sends it back to review: live installs keep the approved
manifest until platform staff approve again; sandbox installs use the change at once. ${MANIFEST_DOC}`,
});
export const deleteApp = route({
  method: 'delete',
  path: '/partners/apps/{appId}',
  operationId: 'deletePartnerApp',
  tags: atags,
  ...partner,
  summary: 'Delete an app: every installation is uninstalled and its tokens stop at once',
  params: s.AppIdParam,
  ok: Ok,
  errors: [401, 404],
  description: `The app stops being an OAuth client: every installation (sandbox and live) is uninstalled, its access and refresh tokens stop at once and no event is delivered any more. Another partner's app answers 404. Answers \`success\` and the \`appId\`.`,
});
export const getManifest = route({
  method: 'get',
  path: '/partners/apps/{appId}/manifest',
  operationId: 'getPartnerAppManifest',
  tags: atags,
  ...partner,
  summary: 'The app file content (berth.app.json) of an app (command line: pull)',
  params: s.AppIdParam,
  ok: s.Manifest,
  errors: [401, 404],
  description: `Answers \`ETag: "<version>"\`; send it back as \`If-Match\` on PUT. ${MANIFEST_DOC}`,
});
export const putManifest = route({
  method: 'put',
  path: '/partners/apps/{appId}/manifest',
  operationId: 'replacePartnerAppManifest',
  tags: atags,
  ...partner,
  summary: 'Replace the manifest with the app file content (command line: push)',
  params: s.AppIdParam,
  body: s.ManifestBody,
  ok: s.App,
  errors: [401, 404, 409],
  description: `Keys left out of the file are emptied (the file is the whole truth). An \`appId\` in the file must name this app. With \`If-Match: "<version>"\`, 409
\`version_conflict\` when the app changed since it was pulled. Unknown keys answer 400. ${MANIFEST_DOC}`,
});
export const submitApp = route({
  method: 'post',
  path: '/partners/apps/{appId}/submit',
  operationId: 'submitPartnerApp',
  tags: atags,
  ...partner,
  summary: 'Send the app to review by platform staff (draft -> in_review)',
  params: s.AppIdParam,
  ok: s.App,
  errors: [401, 404, 409],
  description: `409 \`not_ready\` with \`details\` naming what is missing: at least one scope, at least one redirect URI, https redirect URIs and embed URL (loopback http is for development). The partner reads the outcome in \`status\` and \`reviewReason\`. Submitting an app already in review answers it unchanged.`,
});
export const rotateClientSecret = route({
  method: 'post',
  path: '/partners/apps/{appId}/client-secret',
  operationId: 'rotatePartnerAppClientSecret',
  tags: atags,
  ...partner,
  summary: 'New client secret (confidential clients); the old one stops at once',
  params: s.AppIdParam,
  ok: z.object({ appId: z.string(), clientSecret: z.string(), clientSecretPrefix: z.string() }),
  errors: [401, 404, 409],
  description: `The new secret is shown once in the answer (with its prefix, what GET shows afterwards); token requests with the old one fail at once. 409 \`invalid_state\` for a \`public\` client (it has no secret and uses PKCE S256). Another partner's app answers 404.`,
});
export const rotateWebhookSecret = route({
  method: 'post',
  path: '/partners/apps/{appId}/webhook-secret',
  operationId: 'rotatePartnerAppWebhookSecret',
  tags: atags,
  ...partner,
  summary: 'New signing secret of event deliveries (used for every installation at once)',
  params: s.AppIdParam,
  ok: z.object({ appId: z.string(), webhookSecret: z.string() }),
  errors: [401, 404],
  description: `The new secret (\`whsec_...\`) is shown once; every delivery from now on, to every installation, is signed with it (\`X-Service-Signature\`), so update the receiver first. Another partner's app answers 404.`,
});
export const testWebhook = route({
  method: 'post',
  path: '/partners/apps/{appId}/webhooks/test',
  operationId: 'testPartnerAppWebhook',
  tags: atags,
  ...partner,
  summary: "Send one signed sample event to the app's webhook URL now (command line: webhook trigger)",
  params: s.AppIdParam,
  body: s.WebhookTestBody,
  ok: s.WebhookTestResult,
  errors: [401, 404, 409],
  description: `Signed exactly like real deliveries: \`X-Service-Signature\` = hex HMAC-SHA256 of \`{timestamp}.{body}\` with the app's webhook secret,
\`X-Service-Timestamp\`, \`X-Service-Event-Id\`, \`X-Service-Event-Type\`; the body is \`{id, type, createdAt, customerId, test: true, data}\`.
Answers what the receiver said (\`delivered\`, \`statusCode\`, \`error\`, \`durationMs\`); nothing is retried.`,
});

// ---- review by platform staff ----

export const listReview = route({
  method: 'get',
  path: '/platform/apps',
  operationId: 'listAppsForReview',
  tags: rtags,
  ...platform,
  summary: 'Apps by status (in review first come first)',
  query: s.ReviewListQuery,
  ok: s.ReviewList,
  errors: [401, 403],
  description: `Apps of every partner in one \`status\` (default \`in_review\`), the longest waiting first (by submission time), each with its partner (id, name, e-mail, company); deleted apps are left out. \`limit\`/\`offset\`, \`total\`. Platform staff only: 401 without credentials, 403 for anyone else.`,
});
export const getReview = route({
  method: 'get',
  path: '/platform/apps/{appId}',
  operationId: 'getAppForReview',
  tags: rtags,
  ...platform,
  summary: 'An app with its partner, for review',
  params: s.AppIdParam,
  ok: s.ReviewedApp,
  errors: [401, 403, 404],
  description: `The app (status, review reason, current \`manifest\` and approved \`live\` manifest) with its partner (id, name, e-mail, company). 404 for an unknown or deleted app. Platform staff only: 401 without credentials, 403 for anyone else.`,
});
export const approve = route({
  method: 'post',
  path: '/platform/apps/{appId}/approve',
  operationId: 'approveApp',
  tags: rtags,
  ...platform,
  summary: 'Approve an app in review: its manifest becomes what live installs run',
  params: s.AppIdParam,
  body: s.ApproveBody,
  ok: s.ReviewedApp,
  errors: [401, 403, 404, 409],
  description: '409 `invalid_state` unless the app is in review; 409 `version_conflict` when the partner changed it during the review.',
});
export const reject = route({
  method: 'post',
  path: '/platform/apps/{appId}/reject',
  operationId: 'rejectApp',
  tags: rtags,
  ...platform,
  summary: 'Send an app in review back to draft with a reason the partner reads',
  params: s.AppIdParam,
  body: s.RejectBody,
  ok: s.ReviewedApp,
  errors: [401, 403, 404, 409],
  description: 'An app that was approved before keeps its approved manifest for live installs.',
});

// ---- the partner's private sandbox ----

const SANDBOX_DOC = `Every partner account has a private demo operator of its own, seeded with the demo data (Miami and Hamburg, rentals, tours,
bookings and renters, marina, point of sale, memberships, the OCTO showcase) the first time it is needed: here, or when the developer signs in
with the partner account on the consent page (its apps' sandbox installs land there). Only this partner sees it; Demo Marina stays the shared
local demo. The first call seeds it (a few seconds); a call while another one seeds it waits, or answers 503 \`service_unavailable\` with
\`Retry-After\`.`;

export const getSandbox = route({
  method: 'get',
  path: '/partners/sandbox',
  operationId: 'getPartnerSandbox',
  tags,
  ...partner,
  summary: "The partner's private sandbox operator (created on first use)",
  ok: s.PartnerSandbox,
  errors: [401, 503],
  description: `${SANDBOX_DOC} Answers its operator id, name, admin user and locations.`,
});
export const sandboxKey = route({
  method: 'post',
  path: '/partners/sandbox/keys',
  operationId: 'createPartnerSandboxKey',
  tags,
  ...partner,
  summary: "A new admin API key of the partner's private sandbox (shown once)",
  ok: s.PartnerSandboxKey,
  status: 201,
  errors: [401, 503],
  description: `${SANDBOX_DOC} The key (\`x-api-key\`) acts as the sandbox's admin on the operator API: bookings that fire your app's webhooks, session
tokens for your embedded app (POST /apps/installations/{installationId}/session-token), test clocks. Revoke it with DELETE /api-keys/{id}.`,
});
export const sandboxReset = route({
  method: 'post',
  path: '/partners/sandbox/reset',
  operationId: 'resetPartnerSandbox',
  tags,
  ...partner,
  summary: "Bring the partner's private sandbox back to its seeded state",
  ok: s.PartnerSandbox,
  errors: [401, 503],
  description: `Every record of the sandbox operator is deleted and the demo data seeded again as of now, under a new operator id (so new record ids:
read them again from the answer and GET /partners/sandbox): installations of your apps there, their tokens and the sandbox's API keys stop. A reset
while another one runs waits for it and answers that one.`,
});
