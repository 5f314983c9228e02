import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, timestamps, createdAt } from './_columns';

/**
 * A partner account: the developer of apps, the owner of a reseller channel, the underwriter of
 * coverage offerings. Active at registration. The password is stored as a PBKDF2-SHA256 hash
 * (`pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`); accounts created for an existing reseller
 * channel by the data migration have none until the partner sets one.
 */
export const partnerAccounts = sqliteTable(
  'partner_accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    company: text('company'),
    passwordHash: text('password_hash'),
    status: text('status', { enum: ['active', 'suspended'] })
      .notNull()
      .default('active'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('partner_accounts_email_uq').on(t.email)],
);

/**
 * Partner tokens (`bpt_...`): sign-in sessions and command-line logins, stored as SHA-256 hashes;
 * `password_reset` rows are the one-time links of a password reset (never bearer credentials).
 */
export const partnerTokens = sqliteTable(
  'partner_tokens',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** `session` (sign-in with e-mail and password), `cli` (device authorization grant) or `password_reset`. */
    kind: text('kind', { enum: ['session', 'cli', 'password_reset'] }).notNull(),
    label: text('label'),
    expiresAt: text('expires_at').notNull(),
    revokedAt: text('revoked_at'),
    lastUsedAt: text('last_used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('partner_tokens_hash_uq').on(t.tokenHash), index('partner_tokens_partner_idx').on(t.partnerId)],
);

/** What an app file (`berth.app.json`) holds; the API's manifest representation of an app. */
export interface AppManifestData {
  name: string;
  scopes: string[];
  urls: { embed: string | null; redirect: string[] };
  embedLocations: string[];
  webhooks: { url: string | null; events: string[] };
}

/**
 * A partner's app, which is also its OAuth client (`clientId` = the app id). `live` is the
 * manifest as platform staff approved it: live installs use it, sandbox installs use the
 * current fields, so editing an approved app never changes what live operators run before the
 * change is reviewed.
 */
export const partnerApps = sqliteTable(
  'partner_apps',
  {
    id: text('id').primaryKey(),
    partnerId: text('partner_id').notNull(),
    name: text('name').notNull(),
    clientType: text('client_type', { enum: ['confidential', 'public'] }).notNull(),
    /** SHA-256 of the client secret (confidential clients); the secret is shown once. */
    clientSecretHash: text('client_secret_hash'),
    clientSecretPrefix: text('client_secret_prefix'),
    scopes: json<string[]>('scopes').notNull(),
    redirectUris: json<string[]>('redirect_uris').notNull(),
    embedUrl: text('embed_url'),
    embedLocations: json<string[]>('embed_locations').notNull(),
    webhookUrl: text('webhook_url'),
    webhookEvents: json<string[]>('webhook_events').notNull(),
    /** Signing secret of the app's event deliveries (needed to sign; shown to the partner once). */
    webhookSecret: text('webhook_secret').notNull(),
    status: text('status', { enum: ['draft', 'in_review', 'approved'] })
      .notNull()
      .default('draft'),
    reviewReason: text('review_reason'),
    submittedAt: text('submitted_at'),
    reviewedAt: text('reviewed_at'),
    reviewedBy: text('reviewed_by'),
    live: json<AppManifestData>('live'),
    /** Bumped on every change (optimistic concurrency of the command-line `push`). */
    version: integer('version').notNull().default(1),
    deletedAt: text('deleted_at'),
    ...timestamps(),
  },
  (t) => [index('partner_apps_partner_idx').on(t.partnerId, t.createdAt), index('partner_apps_status_idx').on(t.status, t.submittedAt)],
);
