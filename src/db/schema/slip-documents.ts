import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { tenant, timestamps, createdAt } from './_columns';

/**
 * Documents of slip reservations (insurance, registration, ...): the file in R2 (type sniffed from
 * its bytes, size capped), its SHA-256, and the review. `pending_upload` while a public upload URL
 * is outstanding; `submitted` once the file is stored; `approved` or `rejected` by staff.
 */
export const slipDocuments = sqliteTable(
  'slip_documents',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    reservationId: text('reservation_id').notNull(),
    renterId: text('renter_id').notNull(),
    type: text('type').notNull(),
    status: text('status', { enum: ['pending_upload', 'submitted', 'approved', 'rejected'] }).notNull(),
    fileName: text('file_name'),
    contentType: text('content_type'),
    sizeBytes: integer('size_bytes'),
    sha256: text('sha256'),
    r2Key: text('r2_key'),
    expiresOn: text('expires_on'),
    notes: text('notes'),
    uploadedVia: text('uploaded_via').notNull(),
    /** SHA-256 of the one-time upload token of a public upload URL, and when that URL stops working (epoch ms). */
    uploadTokenHash: text('upload_token_hash'),
    uploadExpiresAt: integer('upload_expires_at'),
    declaredSizeBytes: integer('declared_size_bytes'),
    reviewedAt: text('reviewed_at'),
    reviewedBy: text('reviewed_by'),
    reviewNote: text('review_note'),
    ...timestamps(),
  },
  (t) => [index('slip_documents_reservation_idx').on(t.customerId, t.reservationId), index('slip_documents_status_idx').on(t.customerId, t.status)],
);

/** Files a tenant uploaded in the portal, before they are attached to a reservation as a document (unattached ones are purged after a day). */
export const slipUploads = sqliteTable(
  'slip_uploads',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    renterId: text('renter_id').notNull(),
    r2Key: text('r2_key').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    attachedDocumentId: text('attached_document_id'),
    createdAt: createdAt(),
  },
  (t) => [index('slip_uploads_renter_idx').on(t.customerId, t.renterId), index('slip_uploads_created_idx').on(t.createdAt)],
);
