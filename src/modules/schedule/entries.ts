import { toDollars } from '../../lib/money';
import { bookings } from '../../db/schema/bookings';

export type BookingRow = typeof bookings.$inferSelect;
type RenterBits = { firstName: string | null; lastName: string | null; email: string | null; phone: string | null } | null;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
export const iso = (ms: number) => new Date(ms).toISOString();

/** Renter name and contact: the booking's own `customer_info` first, then the renters record. */
export function renterOf(b: Pick<BookingRow, 'renterId' | 'customerInfo'>, r: RenterBits) {
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

export function entryOut(b: BookingRow, itemName: string | null, r: RenterBits) {
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
export type ScheduleEntryOut = ReturnType<typeof entryOut>;
