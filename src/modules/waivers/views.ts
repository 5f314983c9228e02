import type { z } from '@hono/zod-openapi';
import type { waiverSignatures, waiverTemplates } from '../../db/schema/waivers';
import type { SignatureInfo, Template } from './schemas';

export type TemplateRow = typeof waiverTemplates.$inferSelect;
export type SignatureRow = typeof waiverSignatures.$inferSelect;

/** The renter-facing page of a location's waivers, and of one signed waiver. */
export const templatesLink = (baseUrl: string, locationId: string) => `${baseUrl}/inHouseWaiver/waiver/templates/location/${encodeURIComponent(locationId)}`;
export const signatureLink = (baseUrl: string, signatureId: string) => `${baseUrl}/inHouseWaiver/waiver/sign/${signatureId}`;

/** A template as the API answers it (`WaiverTemplate`). */
export function templateOut(t: TemplateRow): z.output<typeof Template> {
  return {
    templateId: t.id,
    customerId: t.customerId,
    locationId: t.locationId,
    title: t.title,
    description: t.description,
    sections: t.sections ?? [],
    assignTo: t.assignTo ?? [],
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** What was signed, by whom and when (`SignedWaiverInfo`); images as their type, size and hash. */
export function signatureInfoOut(s: SignatureRow, baseUrl: string): z.output<typeof SignatureInfo> {
  return {
    signatureId: s.id,
    templateId: s.templateId,
    templateTitle: String((s.template as { title?: string }).title ?? ''),
    customerId: s.customerId,
    locationId: s.locationId,
    firstName: s.firstName,
    lastName: s.lastName,
    dob: s.dob,
    email: s.email,
    phone: s.phone,
    addressLine: s.addressLine,
    assignTo: s.assignTo,
    waiverNumber: s.waiverNumber,
    transactionId: s.transactionId,
    tid: s.tid,
    renterId: s.renterId,
    formData: { ...s.formData, ...Object.fromEntries((s.images ?? []).map((i) => [String(i.field), { image: i.type, bytes: i.bytes, sha256: i.sha256 }])) },
    bookingData: s.bookingData ?? null,
    signedAt: s.signedAt,
    ipAddress: s.ipAddress,
    userAgent: s.userAgent,
    contentHash: s.contentHash,
    pdfSha256: s.pdfSha256,
    pdfSize: s.pdfSize,
    waiverUrl: signatureLink(baseUrl, s.id),
    waiverNumberCompleted: s.waiverNumberCompleted,
    bookingsUpdated: s.bookingsUpdated,
  };
}
