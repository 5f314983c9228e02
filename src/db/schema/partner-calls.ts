import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { tenant, timestamps } from './_columns';

/** A voice call placed through the telephony adapter by an installed app (or the operator). */
export const partnerCalls = sqliteTable(
  'partner_calls',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    /** The app installation that placed it (null when the operator placed it). */
    installationId: text('installation_id'),
    appId: text('app_id'),
    placedBy: text('placed_by'),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    message: text('message'),
    providerId: text('provider_id').notNull(),
    status: text('status', { enum: ['queued', 'ringing', 'in-progress', 'completed', 'busy', 'failed', 'no-answer', 'canceled'] }).notNull(),
    durationSeconds: integer('duration_seconds'),
    endedAt: text('ended_at'),
    ...timestamps(),
  },
  (t) => [index('partner_calls_customer_idx').on(t.customerId, t.createdAt), index('partner_calls_installation_idx').on(t.installationId, t.createdAt)],
);
