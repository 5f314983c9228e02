import { sqliteTable, text, real, index, uniqueIndex, integer } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

export const locations = sqliteTable(
  'locations',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    phoneNumber: text('phone_number').notNull(),
    connectId: text('connect_id'),
    timezone: text('timezone').notNull().default('UTC'),
    currency: text('currency').notNull().default('usd'),
    details: json<Record<string, unknown>>('details')
      .notNull()
      .$defaultFn(() => ({})),
    ivrConfig: json<Record<string, unknown>>('ivr_config'),
    latitude: real('latitude'),
    longitude: real('longitude'),
    status: text('status', { enum: ['active', 'pending_deletion'] })
      .notNull()
      .default('active'),
    deletionScheduledAt: text('deletion_scheduled_at'),
    purgeAfter: text('purge_after'),
    ...timestamps(),
  },
  (t) => [index('locations_customer_idx').on(t.customerId), index('locations_purge_idx').on(t.status, t.purgeAfter)],
);

/** Telephone numbers bought for a location (telephony adapter). */
export const phoneNumbers = sqliteTable(
  'phone_numbers',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    phoneNumber: text('phone_number').notNull(),
    providerId: text('provider_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('phone_numbers_number_uq').on(t.phoneNumber)],
);

export const staffSchedules = sqliteTable(
  'staff_schedules',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    staffId: text('staff_id').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    recurring: integer('recurring', { mode: 'boolean' }).notNull().default(false),
    recurrencePattern: json<Record<string, unknown>>('recurrence_pattern'),
    /** RFC 5545 RRULE derived from the pattern (rrule library). */
    rrule: text('rrule'),
    templateId: text('template_id'),
    createdBy: text('created_by'),
    ...timestamps(),
  },
  (t) => [index('staff_schedules_location_idx').on(t.customerId, t.locationId), index('staff_schedules_staff_idx').on(t.staffId)],
);
