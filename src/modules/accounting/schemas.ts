import { z } from '@hono/zod-openapi';
import { zId, zLimit, zOffset } from '../../lib/openapi';

const businessId = () => zId('cus_01J0000000000000000000000').openapi({ description: "The operator's business: its customerId" });

export const BusinessQuery = z.object({ businessId: businessId() });
export const BusinessBody = z.object({ businessId: businessId() }).openapi('AccountingBusinessRef');
export const CallbackQuery = z.object({
  code: z.string().max(4096).optional().openapi({ description: 'Authorization code (absent when the user declined)' }),
  state: z.string().max(4096).optional().openapi({ description: 'The signed state handed out by connect (required)' }),
  error: z.string().max(200).optional(),
});
export const SelectBusinessBody = z
  .object({ businessId: businessId(), acctBusinessId: z.string().trim().min(1).max(200), acctBusinessName: z.string().trim().min(1).max(200) })
  .openapi('AccountingSelectBusiness');
export const BankAccountBody = z.object({ businessId: businessId(), bankAccountId: z.string().trim().min(1).max(200) }).openapi('AccountingBankAccount');
export const GlMappingsBody = z
  .object({
    businessId: businessId(),
    glMappings: z.record(z.string().max(64), z.string().trim().min(1).max(200)).openapi({
      description: 'GL key (see GET /acct/gl-mappings) to the account id in the accounting system',
      example: { sales: 'acct_123', sales_tax: 'acct_456' },
    }),
  })
  .openapi('AccountingGlMappings');

export const ConnectResult = z
  .object({ authorizationUrl: z.string(), state: z.string(), expiresAt: z.string(), provider: z.enum(['wave', 'simulator']) })
  .openapi('AccountingConnect');

export const Link = z
  .object({
    businessId: z.string(),
    connected: z.boolean(),
    status: z.enum(['connected', 'disconnected', 'error']),
    provider: z.string().nullable(),
    acctBusinessId: z.string().nullable(),
    acctBusinessName: z.string().nullable(),
    bankAccountId: z.string().nullable(),
    glMappings: z.record(z.string(), z.string()),
    connectedAt: z.string().nullable(),
    lastError: z.string().nullable(),
    readyToExport: z.boolean(),
  })
  .openapi('AccountingLink');

export const Disconnected = z
  .object({ success: z.boolean(), businessId: z.string(), revoked: z.boolean(), glMappingsKept: z.number().int() })
  .openapi('AccountingDisconnected');

export const BusinessList = z
  .object({ data: z.array(z.object({ id: z.string(), name: z.string(), currency: z.string(), selected: z.boolean() })) })
  .openapi('AccountingBusinessList');

export const Chart = z
  .object({
    acctBusinessId: z.string(),
    data: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        type: z.string(),
        subtype: z.string().nullable(),
        normalBalance: z.enum(['DEBIT', 'CREDIT']),
        isBank: z.boolean(),
      }),
    ),
  })
  .openapi('AccountingChart');

export const Mappings = z
  .object({
    businessId: z.string(),
    glMappings: z.record(z.string(), z.string()),
    accounts: z.array(z.object({ key: z.string(), description: z.string(), accountId: z.string().nullable() })),
    missing: z.array(z.string()),
  })
  .openapi('AccountingGlMappingList');

export const ExportBody = z
  .object({
    businessId: businessId(),
    locationId: zId('loc_01J0000000000000000000000'),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
      .openapi({ description: 'A finished local day at the location' }),
  })
  .openapi('AccountingExportRequest');
export const ExportQuery = z.object({
  businessId: businessId(),
  locationId: z.string().max(128).optional(),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  limit: zLimit(),
  offset: zOffset(),
});

export const Export = z
  .object({
    exportId: z.string(),
    businessId: z.string(),
    locationId: z.string(),
    date: z.string(),
    currency: z.string(),
    status: z.enum(['queued', 'sent', 'failed', 'empty']),
    lines: z.array(z.object({ account: z.string(), accountId: z.string().nullable(), debit: z.number(), credit: z.number(), description: z.string() })),
    totalDebit: z.number(),
    totalCredit: z.number(),
    balanced: z.boolean(),
    entryCount: z.number().int(),
    externalId: z.string().nullable(),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    sentAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('AccountingExport');
export const ExportCreated = z.object({ created: z.boolean(), export: Export }).openapi('AccountingExportCreated');
export const QueueStatus = z
  .object({
    pending: z.array(z.object({ exportId: z.string(), attempts: z.number().int(), notBefore: z.string().nullable() })),
    sentInWindow: z.number().int(),
    windowStartedAt: z.string().nullable(),
    limit: z.object({ requests: z.number().int(), windowMs: z.number().int() }),
    nextAttemptAt: z.string().nullable(),
  })
  .openapi('AccountingQueueStatus');
export const ExportList = z
  .object({ data: z.array(Export), total: z.number().int(), limit: z.number().int(), offset: z.number().int(), queue: QueueStatus })
  .openapi('AccountingExportList');
