import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/** Operator account ("customer" in the API). */
export const customers = sqliteTable('customers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email'),
  businessName: text('business_name'),
  affiliateCode: text('affiliate_code'),
  permissions: json<Record<string, unknown>>('permissions')
    .notNull()
    .$defaultFn(() => ({})),
  integrations: json<Record<string, unknown>>('integrations')
    .notNull()
    .$defaultFn(() => ({})),
  settings: json<Record<string, unknown>>('settings')
    .notNull()
    .$defaultFn(() => ({})),
  plan: text('plan', { enum: ['standard', 'enterprise'] })
    .notNull()
    .default('standard'),
  isSandbox: integer('is_sandbox', { mode: 'boolean' }).notNull().default(false),
  paymentCustomerId: text('payment_customer_id'),
  subscriptionId: text('subscription_id'),
  /**
   * The message keys the operator has its own template of (operator- or item-wide), kept by the
   * communications module in the batch of every template write. A booking e-mail reads it with the
   * account, so only a message with an own template is held for its delivery to render it.
   */
  messageTemplateKeys: json<string[]>('message_template_keys')
    .notNull()
    .$defaultFn(() => []),
  ...timestamps(),
});

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: ['admin', 'manager', 'staff'] })
      .notNull()
      .default('staff'),
    permissions: json<string[]>('permissions')
      .notNull()
      .$defaultFn(() => []),
    locations: json<string[]>('locations')
      .notNull()
      .$defaultFn(() => []),
    userSkills: json<string[]>('user_skills')
      .notNull()
      .$defaultFn(() => []),
    profileName: text('profile_name'),
    isSetup: integer('is_setup', { mode: 'boolean' }).notNull().default(false),
    settings: json<Record<string, unknown>>('settings')
      .notNull()
      .$defaultFn(() => ({})),
    /** Subject of the user at the identity provider (the `sub` of its tokens). */
    idpSubject: text('idp_subject'),
    phone: text('phone'),
    termsVersion: text('terms_version'),
    termsAcceptedAt: text('terms_accepted_at'),
    invitedAt: text('invited_at'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('users_email_uq').on(t.email), uniqueIndex('users_idp_subject_uq').on(t.idpSubject), index('users_customer_idx').on(t.customerId)],
);

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    userId: text('user_id').notNull(),
    name: text('name').notNull(),
    /** SHA-256 of the secret; the secret itself is shown once and never stored. */
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    lastUsedAt: text('last_used_at'),
    revokedAt: text('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash), index('api_keys_customer_idx').on(t.customerId)],
);

export const pushTokens = sqliteTable(
  'push_tokens',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    userId: text('user_id').notNull(),
    token: text('token').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('push_tokens_user_token_uq').on(t.userId, t.token)],
);

/** Append-only audit trail: every write appends a row in the same batch. */
export const auditLogs = sqliteTable(
  'audit_logs',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: json<Record<string, unknown>>('details'),
    requestId: text('request_id'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_customer_actor_idx').on(t.customerId, t.actorId, t.createdAt), index('audit_target_idx').on(t.customerId, t.targetId)],
);
