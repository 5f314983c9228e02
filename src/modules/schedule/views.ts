import type { z } from '@hono/zod-openapi';
import { toDollars } from '../../lib/money';
import type { bookings, drydocks } from '../../db/schema/bookings';
import type { Drydock, LightEntry, Renter, ScheduleEntry } from './schemas';

export type BookingRow = typeof bookings.$inferSelect;
type DrydockRow = typeof drydocks.$inferSelect;
type RenterBits = { firstName: string | null; lastName: string | null; email: string | null; phone: string | null } | null;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
export const iso = (ms: number) => new Date(ms).toISOString();

/** Renter name and contact: the booking's own `customer_info` first, then the renters record. */
export function renterOf(b: Pick<BookingRow, 'renterId' | 'customerInfo'>, r: RenterBits): z.output<typeof Renter> {
  const ci = (b.customerInfo ?? {}) as Record<string, unknown>;
  const firstName = str(ci.firstName) ?? str(ci.first_name) ?? r?.firstName ?? null;
  const lastName = str(ci.lastName) ?? str(ci.last_name) ?? r?.lastName ?? null;
  const name = str(ci.name) ?? str(ci.fullName) ?? ([firstName, lastName].filter(Boolean).join(' ') || null);
  return {
    renterId: b.renterId ?? null,
    firstName,
    lastName,
    name,
    email: str(ci.email) ?? r?.email ?? null,
    phone: str(ci.phone) ?? str(ci.phoneNumber) ?? r?.phone ?? null,
  };
}

/** A booking as a schedule entry (`ScheduleEntry`): money in dollars, times as UTC instants. */
export function entryOut(b: BookingRow, itemName: string | null, r: RenterBits): z.output<typeof ScheduleEntry> {
  return {
    rentalId: b.id,
    transactionId: b.transactionId,
    bundleGroupId: b.bundleGroupId ?? null,
    status: b.status,
    source: b.source,
    inventoryId: b.itemId,
    inventoryName: itemName,
    locationId: b.locationId,
    assetIds: b.assetIds ?? [],
    startTime: iso(b.start),
    endTime: iso(b.end),
    localDate: b.localDate,
    quantity: b.quantity,
    participants: b.participants ?? null,
    renter: renterOf(b, r),
    currency: b.currency,
    total: toDollars(b.total),
    amountPaid: toDollars(b.amountPaid),
    balanceDue: toDollars(Math.max(0, b.total - b.amountPaid)),
    depositInformation: b.depositInformation ?? null,
    testMode: b.testMode,
    checkedInAt: b.checkedInAt ?? null,
    checkedOutAt: b.checkedOutAt ?? null,
    cancelledAt: b.cancelledAt ?? null,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
  };
}
export type ScheduleEntryOut = z.output<typeof ScheduleEntry>;

/** The light form of an entry (`ScheduleEntryLight`), for `lightweight=true`. */
export const lightOut = (b: Pick<BookingRow, 'id' | 'status' | 'start' | 'end' | 'itemId' | 'assetIds'>): z.output<typeof LightEntry> => ({
  rentalId: b.id,
  status: b.status,
  startTime: iso(b.start),
  endTime: iso(b.end),
  inventoryId: b.itemId,
  assetIds: b.assetIds ?? [],
});

/** A drydock block shown beside an item's schedule (`include_drydock=true`). */
export const drydockOut = (d: DrydockRow): z.output<typeof Drydock> => ({
  rentalId: d.id,
  assetIds: d.assetIds ?? [],
  startTime: iso(d.start),
  endTime: iso(d.end),
  startDate: d.startDate,
  endDate: d.endDate,
  notes: d.notes ?? null,
});
