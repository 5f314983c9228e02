import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { tenant, createdAt } from './_columns';

/** Magic links of the tenant portal: single use (`usedAt` set by a conditional UPDATE), short-lived; only the token's SHA-256 is stored. */
export const slipPortalLinks = sqliteTable(
  'slip_portal_links',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    renterId: text('renter_id').notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: text('used_at'),
    sessionId: text('session_id'),
    requestedVia: text('requested_via').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('slip_portal_links_token_uq').on(t.tokenHash), index('slip_portal_links_renter_idx').on(t.customerId, t.renterId)],
);

/** Tenant sessions made from a magic link: the bearer token's SHA-256, its expiry, sign-out. */
export const slipPortalSessions = sqliteTable(
  'slip_portal_sessions',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    renterId: text('renter_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    revokedAt: text('revoked_at'),
    lastSeenAt: text('last_seen_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('slip_portal_sessions_token_uq').on(t.tokenHash), index('slip_portal_sessions_renter_idx').on(t.customerId, t.renterId)],
);
