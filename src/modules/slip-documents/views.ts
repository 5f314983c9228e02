import type { z } from '@hono/zod-openapi';
import type { slipDocuments } from '../../db/schema/slip-documents';
import type * as s from './schemas';

export type DocumentRow = typeof slipDocuments.$inferSelect;

export function documentOut(d: DocumentRow): z.output<typeof s.Document> {
  return {
    id: d.id,
    customerId: d.customerId,
    locationId: d.locationId,
    reservationId: d.reservationId,
    renterId: d.renterId,
    type: d.type,
    status: d.status,
    fileName: d.fileName,
    contentType: d.contentType,
    sizeBytes: d.sizeBytes,
    sha256: d.sha256,
    expiresOn: d.expiresOn,
    notes: d.notes,
    uploadedVia: d.uploadedVia,
    fileUrl: d.r2Key ? `/slip-documents/${d.id}/file` : null,
    reviewedAt: d.reviewedAt,
    reviewedBy: d.reviewedBy,
    reviewNote: d.reviewNote,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}
