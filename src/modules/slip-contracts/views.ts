/** Contract rows -> API responses (typed against the response schema). */
import type { z } from '@hono/zod-openapi';
import type { slipContracts } from '../../db/schema/slip-contracts';
import type * as s from './schemas';

export type ContractRow = typeof slipContracts.$inferSelect;

export function contractOut(c: ContractRow): z.output<typeof s.Contract> {
  return {
    id: c.id,
    customerId: c.customerId,
    locationId: c.locationId,
    reservationId: c.reservationId,
    templateId: c.templateId,
    status: c.status,
    title: c.title,
    body: c.renderedBody,
    variables: c.variables,
    documentSha256: c.documentSha256,
    pdfUrl: `/slip-contracts/${c.id}/pdf`,
    sentAt: c.sentAt,
    sentTo: c.sentTo,
    sendCount: c.sendCount,
    signTokenExpiresAt: c.status === 'sent' ? c.signTokenExpiresAt : null,
    signature: c.signedAt
      ? {
          signedAt: c.signedAt,
          signerName: c.signerName,
          signerEmail: c.signerEmail,
          signatureType: c.signatureType,
          ip: c.signerIp,
          userAgent: c.signerUserAgent,
          signedVia: c.signedVia,
        }
      : null,
    voidedAt: c.voidedAt,
    voidReason: c.voidReason,
    pdfRegeneratedAt: c.pdfRegeneratedAt,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
