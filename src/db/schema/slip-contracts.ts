import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/** Contract templates: a title and a body with `{{variable}}` placeholders, plus default values. */
export const slipContractTemplates = sqliteTable(
  'slip_contract_templates',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    /** null: every location of the operator. */
    locationId: text('location_id'),
    name: text('name').notNull(),
    description: text('description'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    rateTypes: json<string[]>('rate_types')
      .notNull()
      .$defaultFn(() => []),
    defaults: json<Record<string, string>>('defaults')
      .notNull()
      .$defaultFn(() => ({})),
    isDefault: integer('is_default', { mode: 'boolean' }).notNull().default(false),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    ...timestamps(),
  },
  (t) => [index('slip_contract_templates_idx').on(t.customerId, t.locationId)],
);

/** A contract generated for a reservation, its PDF in R2, and its signature record. */
export const slipContracts = sqliteTable(
  'slip_contracts',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    locationId: text('location_id').notNull(),
    reservationId: text('reservation_id').notNull(),
    templateId: text('template_id'),
    status: text('status', { enum: ['generated', 'sent', 'signed', 'voided'] }).notNull(),
    title: text('title').notNull(),
    renderedBody: text('rendered_body').notNull(),
    variables: json<Record<string, string>>('variables').notNull(),
    pdfKey: text('pdf_key').notNull(),
    /** SHA-256 of the generated (unsigned) PDF: what the signer agreed to. */
    documentSha256: text('document_sha256').notNull(),
    signedPdfKey: text('signed_pdf_key'),
    signTokenHash: text('sign_token_hash'),
    signTokenExpiresAt: text('sign_token_expires_at'),
    sentAt: text('sent_at'),
    sentTo: text('sent_to'),
    sendCount: integer('send_count').notNull().default(0),
    signedAt: text('signed_at'),
    signerName: text('signer_name'),
    signerEmail: text('signer_email'),
    signatureType: text('signature_type'),
    signature: text('signature'),
    signerIp: text('signer_ip'),
    signerUserAgent: text('signer_user_agent'),
    signedVia: text('signed_via'),
    voidedAt: text('voided_at'),
    voidReason: text('void_reason'),
    pdfRegeneratedAt: text('pdf_regenerated_at'),
    ...timestamps(),
  },
  (t) => [
    index('slip_contracts_reservation_idx').on(t.customerId, t.reservationId),
    index('slip_contracts_status_idx').on(t.customerId, t.status, t.createdAt),
  ],
);
