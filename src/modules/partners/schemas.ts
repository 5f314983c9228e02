import { z } from '@hono/zod-openapi';
import { zEmail, zId } from '../../lib/openapi';
import { APP_EVENTS, APP_EVENT_WILDCARD, EMBED_LOCATION_NAMES, SCOPE_NAMES } from './types';

const password = z.string().min(10, 'at least 10 characters').max(200);

export const RegisterBody = z
  .object({
    email: zEmail(),
    password,
    name: z.string().trim().min(1).max(120),
    company: z.string().trim().max(120).optional(),
  })
  .openapi('PartnerRegistration');

export const LoginBody = z.object({ email: zEmail(), password: z.string().min(1).max(200) }).openapi('PartnerLogin');

export const Partner = z
  .object({
    partnerId: z.string(),
    email: z.string(),
    name: z.string(),
    company: z.string().nullable(),
    status: z.enum(['active', 'suspended']),
    hasPassword: z.boolean(),
    createdAt: z.string(),
  })
  .openapi('Partner');

export const PartnerSession = z
  .object({
    partner: Partner,
    token: z.string().openapi({ description: 'Partner token (`bpt_...`): send it as `Authorization: Bearer <token>`. Shown once.' }),
    tokenType: z.literal('Bearer'),
    expiresAt: z.string(),
  })
  .openapi('PartnerSession');

export const UpdateMeBody = z.object({ name: z.string().trim().min(1).max(120).optional(), company: z.string().trim().max(120).nullable().optional() });
export const PasswordBody = z.object({ currentPassword: z.string().max(200).optional(), newPassword: password });
export const ForgotBody = z.object({ email: zEmail() });
export const ResetBody = z.object({ token: z.string().min(10).max(200), newPassword: password });

export const PartnerToken = z
  .object({
    tokenId: z.string(),
    kind: z.enum(['session', 'cli']),
    label: z.string().nullable(),
    current: z.boolean(),
    createdAt: z.string(),
    expiresAt: z.string(),
    lastUsedAt: z.string().nullable(),
  })
  .openapi('PartnerToken');
export const TokenIdParam = z.object({ tokenId: zId('ptk_01J0000000000000000000000') });

// ---- apps ----

const scope = z.enum(SCOPE_NAMES as [string, ...string[]]);
const embedLocation = z.enum(EMBED_LOCATION_NAMES as [string, ...string[]]);
const appEvent = z.enum([APP_EVENT_WILDCARD, ...APP_EVENTS]);
const url = z.string().trim().min(1).max(2000);

const Urls = z.strictObject({
  embed: url.nullable().optional().openapi({ description: 'The page the dashboard loads in an iframe (https; http only for localhost).' }),
  redirect: z
    .array(url)
    .max(10)
    .optional()
    .openapi({ description: 'OAuth redirect URIs, matched exactly (https, http on loopback, or a reverse-domain scheme for native apps).' }),
});
const Webhooks = z.strictObject({
  url: url.nullable().optional().openapi({ description: 'Where booking events are delivered (signed like operator webhooks).' }),
  events: z.array(appEvent).max(20).optional(),
});

/** The fields of an app file; every key is optional on PATCH. Unknown keys are refused (a typo in the file is an error, not a silent no-op). */
const manifestShape = {
  name: z.string().trim().min(1).max(80),
  scopes: z.array(scope).min(1).max(SCOPE_NAMES.length),
  urls: Urls.optional(),
  embedLocations: z.array(embedLocation).max(EMBED_LOCATION_NAMES.length).optional(),
  webhooks: Webhooks.optional(),
};

export const ManifestBody = z
  .strictObject({ $schema: z.string().max(500).optional(), appId: z.string().max(128).optional(), ...manifestShape })
  .openapi('AppManifestInput');

export const CreateAppBody = z
  .strictObject({
    ...manifestShape,
    clientType: z
      .enum(['confidential', 'public'])
      .default('confidential')
      .openapi({ description: '`confidential` (a server that keeps the client secret) or `public` (browser or native app: PKCE S256 required, no secret).' }),
  })
  .openapi('CreateApp');

export const PatchAppBody = z
  .strictObject({
    name: manifestShape.name.optional(),
    scopes: manifestShape.scopes.optional(),
    urls: Urls.optional(),
    embedLocations: manifestShape.embedLocations,
    webhooks: Webhooks.optional(),
  })
  .openapi('PatchApp');

export const Manifest = z
  .object({
    appId: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    urls: z.object({ embed: z.string().nullable(), redirect: z.array(z.string()) }),
    embedLocations: z.array(z.string()),
    webhooks: z.object({ url: z.string().nullable(), events: z.array(z.string()) }),
  })
  .openapi('AppManifest');

export const App = z
  .object({
    appId: z.string(),
    clientId: z.string(),
    clientType: z.enum(['confidential', 'public']),
    clientSecretPrefix: z.string().nullable(),
    partnerId: z.string(),
    status: z.enum(['draft', 'in_review', 'approved']),
    reviewReason: z.string().nullable(),
    submittedAt: z.string().nullable(),
    reviewedAt: z.string().nullable(),
    version: z.number().int(),
    manifest: Manifest,
    live: Manifest.nullable().openapi({ description: 'The manifest as approved: what live installs run. Null until approved.' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('App');

export const CreatedApp = App.extend({
  clientSecret: z.string().nullable().openapi({ description: 'Confidential clients only; shown once.' }),
  webhookSecret: z.string().openapi({ description: 'Signing secret of event deliveries; shown once.' }),
}).openapi('CreatedApp');

export const AppIdParam = z.object({ appId: zId('app_01J0000000000000000000000') });
export const AppList = z.object({ data: z.array(App), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi('AppList');
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const ReviewListQuery = ListQuery.extend({ status: z.enum(['draft', 'in_review', 'approved']).default('in_review') });
export const ApproveBody = z.object({ note: z.string().trim().max(2000).optional() });
export const RejectBody = z.object({ reason: z.string().trim().min(1).max(2000) });
export const WebhookTestBody = z.object({ event: appEvent.exclude([APP_EVENT_WILDCARD]).default('booking.created') });
export const WebhookTestResult = z
  .object({
    eventId: z.string(),
    event: z.string(),
    url: z.string(),
    delivered: z.boolean(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().int(),
  })
  .openapi('AppWebhookTest');
export const ReviewedApp = App.extend({
  partner: z.object({ partnerId: z.string(), name: z.string(), email: z.string(), company: z.string().nullable() }),
}).openapi('ReviewedApp');
export const ReviewList = z.object({ data: z.array(ReviewedApp), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

// ---- the partner's private sandbox ----

export const PartnerSandbox = z
  .object({
    customerId: z.string().openapi({ description: 'The private demo operator (`cus_sbx_...`): only this partner account sees it.' }),
    name: z.string(),
    status: z.enum(['seeding', 'ready']),
    adminUserId: z.string().openapi({ description: "The operator's admin: the partner's own sandbox installs are made as this user." }),
    locationIds: z.array(z.string()).openapi({ description: 'Its Miami and Hamburg locations.' }),
    createdAt: z.string(),
    seededAt: z.string().nullable().openapi({ description: 'When it was last seeded (created or reset).' }),
  })
  .openapi('PartnerSandbox');

export const PartnerSandboxKey = PartnerSandbox.extend({
  apiKey: z.string().openapi({ description: 'A new admin API key of the sandbox operator (`x-api-key`). Shown once.' }),
}).openapi('PartnerSandboxKey');
