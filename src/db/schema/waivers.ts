import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps, createdAt } from './_columns';

/**
 * Waiver numbers ("pending renters"): a waiver to be signed by one participant, reachable by an
 * unguessable PIN until it is completed or expires. `version` starts at 1 and every write sets it
 * to the version read plus one; the trigger of migration `waiver_number_version_guard` rolls back
 * a batch whose writer read a stale version, so concurrent completions cannot both win.
 * Deleted waiver numbers keep their row (status `DELETED`, `deleted_at` set, PIN removed).
 */
export const waiverNumbers = sqliteTable(
  'waiver_numbers',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    waiverNumber: text('waiver_number').notNull(),
    /** Removed (null) once the waiver number is completed or deleted. */
    pin: text('pin'),
    pinExpiresAt: text('pin_expires_at').notNull(),
    locationId: text('location_id'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    phone: text('phone'),
    dob: text('dob'),
    address: json<Record<string, unknown>>('address'),
    assignTo: text('assign_to'),
    assetId: text('asset_id'),
    transactionId: text('transaction_id'),
    renterId: text('renter_id'),
    templateId: text('template_id'),
    rawData: json<Record<string, unknown>>('raw_data'),
    status: text('status', { enum: ['PENDING', 'COMPLETED', 'CANCELLED', 'DELETED'] })
      .notNull()
      .default('PENDING'),
    waiverUrl: text('waiver_url'),
    signatureId: text('signature_id'),
    completionData: json<Record<string, unknown>>('completion_data'),
    completedAt: text('completed_at'),
    deletedAt: text('deleted_at'),
    version: integer('version').notNull().default(1),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('waiver_numbers_number_uq')
      .on(t.customerId, t.waiverNumber)
      .where(sql`deleted_at IS NULL`),
    uniqueIndex('waiver_numbers_pin_uq').on(t.pin),
    index('waiver_numbers_txn_idx').on(t.customerId, t.transactionId),
    index('waiver_numbers_location_idx').on(t.customerId, t.locationId, t.status),
  ],
);

/**
 * Waiver templates of an operator's location. `sections` is validated by
 * src/modules/waivers/schemas.ts (kinds text, checkbox, field, signature).
 */
export const waiverTemplates = sqliteTable(
  'waiver_templates',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    sections: json<Record<string, unknown>[]>('sections')
      .notNull()
      .$defaultFn(() => []),
    assignTo: json<string[]>('assign_to')
      .notNull()
      .$defaultFn(() => []),
    deletedAt: text('deleted_at'),
    ...timestamps(),
  },
  (t) => [index('waiver_templates_location_idx').on(t.customerId, t.locationId)],
);

/**
 * A signed waiver: the signer's details, the filled form (signature images replaced by their
 * size and SHA-256; the images are in the PDF), a snapshot of the template as signed, and the
 * generated PDF stored in R2 under `pdf_key`.
 */
export const waiverSignatures = sqliteTable(
  'waiver_signatures',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    templateId: text('template_id').notNull(),
    template: json<Record<string, unknown>>('template').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dob: text('dob'),
    email: text('email'),
    phone: text('phone'),
    addressLine: text('address_line'),
    ipAddress: text('ip_address'),
    observedIp: text('observed_ip'),
    userAgent: text('user_agent'),
    assignTo: text('assign_to'),
    waiverNumber: text('waiver_number'),
    waiverNumberId: text('waiver_number_id'),
    transactionId: text('transaction_id'),
    tid: text('tid'),
    bookingData: json<Record<string, unknown>>('booking_data'),
    formData: json<Record<string, unknown>>('form_data').notNull(),
    images: json<Record<string, unknown>[]>('images')
      .notNull()
      .$defaultFn(() => []),
    renterId: text('renter_id'),
    pdfKey: text('pdf_key').notNull(),
    pdfSize: integer('pdf_size').notNull(),
    pdfSha256: text('pdf_sha256').notNull(),
    contentHash: text('content_hash').notNull(),
    signedAt: text('signed_at').notNull(),
    bookingsUpdated: integer('bookings_updated').notNull().default(0),
    waiverNumberCompleted: integer('waiver_number_completed', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('waiver_signatures_txn_idx').on(t.customerId, t.transactionId),
    index('waiver_signatures_template_idx').on(t.customerId, t.templateId),
    index('waiver_signatures_wn_idx').on(t.customerId, t.waiverNumberId),
  ],
);

/** Visits of a location's waiver page with the tracking parameters `fn`, `ln`, `em`. */
export const waiverLinkVisits = sqliteTable(
  'waiver_link_visits',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('waiver_link_visits_location_idx').on(t.customerId, t.locationId, t.createdAt)],
);
