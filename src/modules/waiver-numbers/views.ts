import type { z } from '@hono/zod-openapi';
import type { waiverNumbers } from '../../db/schema/waivers';
import type { PublicWaiverNumber, WaiverNumber } from './schemas';

export type WaiverNumberRow = typeof waiverNumbers.$inferSelect;
export type Status = 'PENDING' | 'COMPLETED' | 'CANCELLED';

/** The PIN has passed its expiry at `now` (ms, the operator's clock): 410 `expired` when used. */
export const isExpired = (r: Pick<WaiverNumberRow, 'pinExpiresAt'>, now: number) => Date.parse(r.pinExpiresAt) <= now;

/** A waiver number as the operator sees it (`WaiverNumber`); `version` is an opaque string. */
export function waiverNumberOut(r: WaiverNumberRow, now: number): z.output<typeof WaiverNumber> {
  return {
    waiverNumber: r.waiverNumber,
    pin: r.pin,
    customerId: r.customerId,
    locationId: r.locationId,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    dob: r.dob,
    address: r.address ?? null,
    assignTo: r.assignTo,
    assetId: r.assetId,
    transactionId: r.transactionId,
    renterId: r.renterId,
    templateId: r.templateId,
    rawData: r.rawData ?? null,
    status: r.status,
    expiresAt: r.pinExpiresAt,
    expired: r.status === 'PENDING' && isExpired(r, now),
    waiverUrl: r.waiverUrl,
    signatureId: r.signatureId,
    completionData: r.completionData ?? null,
    completedAt: r.completedAt,
    version: String(r.version),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** What a renter holding the PIN sees: no PIN, no operator notes (`rawData`), no completion data. */
export function publicWaiverNumberOut(r: WaiverNumberRow, now: number): z.output<typeof PublicWaiverNumber> {
  const { pin: _pin, rawData: _raw, completionData: _cd, renterId: _rid, ...rest } = waiverNumberOut(r, now);
  return rest;
}
