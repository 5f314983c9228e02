import { ApiError } from '../../lib/errors';
import type { Env } from '../../env';
import { waitlistEntries, waitlistOffers } from '../../db/schema/waitlist';

export type EntryRow = typeof waitlistEntries.$inferSelect;
export type Status = EntryRow['status'];
export type Trigger = (typeof waitlistOffers.$inferSelect)['trigger'];

/** D1 allows 100 bound parameters per statement. */
const CHUNK = 80;

export const bad = (field: string, message: string) => new ApiError('bad_request', message, { details: [{ field, message }] });
export const iso = (ms: number) => new Date(ms).toISOString();
export const changes = (r: unknown) => Number((r as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0);
export const errText = (err: unknown) => {
  const e = err as { message?: string; cause?: unknown };
  return `${e?.message ?? err} ${String(e?.cause ?? '')}`;
};
export const chunks = <T>(xs: T[], n = CHUNK) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

// ------------------------------------------------------------------------------------------------
// Views

export function entryOut(e: EntryRow) {
  return {
    entryId: e.id,
    customerId: e.customerId,
    locationId: e.locationId,
    inventoryId: e.inventoryId,
    firstName: e.firstName,
    lastName: e.lastName,
    email: e.email,
    date: e.date,
    time: e.time,
    duration: e.duration,
    quantity: e.quantity,
    addons: e.addons ?? null,
    boatAddons: e.boatAddons ?? null,
    giftCardCode: e.giftCardCode,
    refAffiliate: e.refAffiliate,
    status: e.status,
    offer:
      e.offerId && e.offerStart != null && e.offerEnd != null
        ? {
            offerId: e.offerId,
            startTime: iso(e.offerStart),
            endTime: iso(e.offerEnd),
            quantity: e.quantity,
            assetIds: e.offerAssetIds ?? [],
            offeredAt: e.offeredAt ?? e.updatedAt,
            expiresAt: e.offerExpiresAt ?? e.updatedAt,
            bookingUrl: e.offerBookingUrl ?? '',
          }
        : null,
    bookedRentalId: e.bookedRentalId,
    bookedAt: e.bookedAt,
    expiredAt: e.expiredAt,
    cancelledAt: e.cancelledAt,
    closedAt: e.closedAt,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

/** The link in the offer e-mail: the location's booking page (`details.bookingUrl`) or this API's public day view. */
export function bookingUrl(
  env: Env,
  loc: { details: Record<string, unknown> | null },
  q: { inventoryId: string; locationId: string; date: string; time: string; quantity: number; entryId: string },
) {
  const configured = loc.details?.bookingUrl;
  const base =
    typeof configured === 'string' && /^https?:\/\//i.test(configured)
      ? configured
      : `${(env.PUBLIC_BASE_URL ?? '').replace(/\/$/, '')}/public/day-availability`;
  const params = new URLSearchParams({
    inventoryId: q.inventoryId,
    locationId: q.locationId,
    date: q.date,
    time: q.time,
    quantity: String(q.quantity),
    waitlistEntryId: q.entryId,
  });
  return `${base}${base.includes('?') ? '&' : '?'}${params.toString()}`;
}

export const activeKey = (inventoryId: string, email: string, date: string, time: string | null | undefined) => `${inventoryId}|${email}|${date}|${time ?? ''}`;
