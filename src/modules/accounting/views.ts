/** Row → response mappers of accounting, typed against the response schemas (amounts in the currency's units). */
import type { z } from '@hono/zod-openapi';
import type { acctExports, acctLinks } from '../../db/schema/accounting';
import { missingMappings } from './journal';
import type * as s from './schemas';

export type LinkRow = typeof acctLinks.$inferSelect;
export type ExportRow = typeof acctExports.$inferSelect;

export function linkOut(customerId: string, l: LinkRow | undefined): z.output<typeof s.Link> {
  return {
    businessId: customerId,
    connected: l?.status === 'connected',
    status: l?.status ?? ('disconnected' as const),
    provider: l?.provider ?? null,
    acctBusinessId: l?.acctBusinessId ?? null,
    acctBusinessName: l?.acctBusinessName ?? null,
    bankAccountId: l?.bankAccountId ?? null,
    glMappings: l?.glMappings ?? {},
    connectedAt: l?.connectedAt ?? null,
    lastError: l?.lastError ?? null,
    readyToExport: !!(l?.status === 'connected' && l.acctBusinessId && l.bankAccountId && missingMappings(l).length === 0),
  };
}

export const exportOut = (e: ExportRow): z.output<typeof s.Export> => ({
  exportId: e.id,
  businessId: e.customerId,
  locationId: e.locationId,
  date: e.date,
  currency: e.currency,
  status: e.status,
  lines: e.lines.map((l) => ({ ...l, debit: l.debit / 100, credit: l.credit / 100 })),
  totalDebit: e.totalDebit / 100,
  totalCredit: e.totalCredit / 100,
  balanced: e.totalDebit === e.totalCredit,
  entryCount: e.entryCount,
  externalId: e.externalId,
  attempts: e.attempts,
  lastError: e.lastError,
  sentAt: e.sentAt,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});
