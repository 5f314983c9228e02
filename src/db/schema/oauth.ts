import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/** An app installed by an operator: one row per (operator, app); uninstalling keeps the row with status `uninstalled`. */
export const appInstallations = sqliteTable(
  'app_installations',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    appId: text('app_id').notNull(),
    status: text('status', { enum: ['active', 'uninstalled'] })
      .notNull()
      .default('active'),
    /** Installed on a sandbox operator (works without approval; uses the app's current fields). */
    sandbox: integer('sandbox', { mode: 'boolean' }).notNull().default(false),
    /** Union of the scopes granted by every authorization of this installation. */
    scopes: json<string[]>('scopes').notNull(),
    installedBy: text('installed_by').notNull(),
    installedAt: text('installed_at').notNull(),
    uninstalledAt: text('uninstalled_at'),
    uninstalledBy: text('uninstalled_by'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('app_installations_customer_app_uq').on(t.customerId, t.appId), index('app_installations_app_idx').on(t.appId)],
);

/**
 * One authorization (a refresh-token family) or one token-exchange grant. The tokens themselves
 * live, as hashes, in the grant's `OAuthGrant` Durable Object, which rotates them atomically;
 * this row lists the grant for operators and for revocation.
 */
export const oauthGrants = sqliteTable(
  'oauth_grants',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    installationId: text('installation_id').notNull(),
    appId: text('app_id').notNull(),
    userId: text('user_id').notNull(),
    kind: text('kind', { enum: ['authorization_code', 'token_exchange'] }).notNull(),
    scopes: json<string[]>('scopes').notNull(),
    status: text('status', { enum: ['active', 'revoked'] })
      .notNull()
      .default('active'),
    revokedAt: text('revoked_at'),
    revokedReason: text('revoked_reason'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_grants_installation_idx').on(t.installationId, t.status), index('oauth_grants_user_idx').on(t.installationId, t.userId, t.kind)],
);

/**
 * A pending `/oauth/authorize` request between the consent page and the redirect (10 minutes).
 * It is bound to the browser that opened it by a cookie whose hash is `browserHash`.
 */
export const oauthAuthorizations = sqliteTable(
  'oauth_authorizations',
  {
    id: text('id').primaryKey(),
    appId: text('app_id').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    scopes: json<string[]>('scopes').notNull(),
    state: text('state'),
    codeChallenge: text('code_challenge'),
    browserHash: text('browser_hash').notNull(),
    /** The operator user who signed in (null until then). */
    userId: text('user_id'),
    customerId: text('customer_id'),
    /** How the user signed in: `idp`, `development` or `partner` (the app's own developer, sandbox only). */
    signInMethod: text('sign_in_method'),
    /** PKCE verifier of the sign-in at the identity provider (staging and production). */
    idpVerifier: text('idp_verifier'),
    status: text('status', { enum: ['pending', 'completed', 'denied'] })
      .notNull()
      .default('pending'),
    expiresAt: integer('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_authorizations_expiry_idx').on(t.expiresAt)],
);

/** RFC 8628 device authorization requests of the command-line tool (15 minutes). */
export const deviceCodes = sqliteTable(
  'device_codes',
  {
    id: text('id').primaryKey(),
    deviceCodeHash: text('device_code_hash').notNull(),
    /** Normalised user code (8 letters, no separator). */
    userCode: text('user_code').notNull(),
    clientId: text('client_id').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'denied', 'used'] })
      .notNull()
      .default('pending'),
    partnerId: text('partner_id'),
    intervalSeconds: integer('interval_seconds').notNull().default(5),
    lastPolledAt: integer('last_polled_at'),
    expiresAt: integer('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('device_codes_hash_uq').on(t.deviceCodeHash),
    uniqueIndex('device_codes_user_code_uq').on(t.userCode),
    index('device_codes_expiry_idx').on(t.expiresAt),
  ],
);

/**
 * Development and test only: the ES256 key that signs embedded session tokens when no
 * `OAUTH_SIGNING_KEYS` secret is set, generated once and kept here so every isolate signs with
 * the same key. Staging and production read their keys from the secret and never use this table.
 */
export const devSigningKeys = sqliteTable('dev_signing_keys', {
  id: text('id').primaryKey(),
  privateJwk: json<Record<string, unknown>>('private_jwk').notNull(),
  ...timestamps(),
});
