/**
 * The daily manifest of a location: the bookings starting on one of its local dates (cancelled ones
 * left out) in start order, each with its item, local times, renter, people and waivers (signed or
 * missing), check-in state, assigned staff and the balance due from the money view of the ledger.
 * The same rows answer as JSON, CSV or a printable PDF (print.ts).
 */
import type { z } from '@hono/zod-openapi';
import { requirePermission, tenantOf, type Ctx } from '../../lib/context';
import { nowIso, todayIn } from '../../lib/clock';
import { formatLocalClock } from '../../lib/local-time';
import { formatMoney } from '../../lib/money';
import { dueOf } from '../../lib/money-view';
import { moneyOfRentals } from '../bookings/service';
import { getLocationInTenant } from '../locations/service';
import { waiversOfRentals } from '../renter-self-service/service';
import { staffOfRentals } from '../staff-assignments/service';
import { bookingsOfDay } from './queries';
import type { Manifest, ManifestBooking } from './schemas';

type Row = Awaited<ReturnType<typeof bookingsOfDay>>[number];

function checkInOf(b: Row): z.output<typeof ManifestBooking>['checkIn'] {
  const state =
    b.status === 'no_show'
      ? 'no_show'
      : b.checkedOutAt || b.status === 'completed'
        ? 'checked_out'
        : b.checkedInAt || b.status === 'checked_in'
          ? 'checked_in'
          : 'not_checked_in';
  return { state, checkedInAt: b.checkedInAt, checkedOutAt: b.checkedOutAt };
}

function renterOf(b: Row) {
  const info = (b.customerInfo ?? {}) as { firstName?: unknown; lastName?: unknown; email?: unknown; phone?: unknown };
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const name = [str(info.firstName) ?? b.renter?.firstName, str(info.lastName) ?? b.renter?.lastName].filter(Boolean).join(' ');
  return { name: name || 'Walk-in', email: str(info.email) ?? b.renter?.email ?? null, phone: str(info.phone) ?? b.renter?.phone ?? null };
}

/** GET /manifests/{locationId}: the manifest's rows. Needs the `bookings` permission; another operator's location answers 404. */
export async function buildManifest(ctx: Ctx, locationId: string, q: { date?: string }): Promise<z.output<typeof Manifest>> {
  requirePermission(ctx, 'bookings');
  const customerId = tenantOf(ctx);
  const loc = await getLocationInTenant(ctx, locationId);
  const tz = loc.timezone;
  const date = q.date ?? todayIn(ctx, tz);
  const rows = await bookingsOfDay(ctx, { customerId, locationId: loc.id, date });
  const ids = rows.map((r) => r.id);
  const [money, waivers, staff] = await Promise.all([
    moneyOfRentals(ctx, customerId, ids),
    waiversOfRentals(ctx, customerId, rows),
    staffOfRentals(ctx, customerId, ids),
  ]);
  const out = rows.map((b): z.output<typeof ManifestBooking> => {
    const w = waivers.get(b.id)!;
    const m = money.get(b.id);
    const due = m ? dueOf(m) : 0;
    return {
      rentalId: b.id,
      transactionId: b.transactionId,
      status: b.status,
      startTime: new Date(b.start).toISOString(),
      endTime: new Date(b.end).toISOString(),
      localStart: formatLocalClock(b.start, tz),
      localEnd: formatLocalClock(b.end, tz),
      item: { id: b.itemId, name: b.itemName },
      renter: renterOf(b),
      people: w.people,
      participants: w.participants,
      waivers: { signed: w.signed, missing: w.missing },
      checkIn: checkInOf(b),
      staff: (staff.get(b.id) ?? []).map((s) => ({ staffId: s.staffId, displayName: s.displayName, role: s.role })),
      currency: b.currency,
      balanceDueCents: due,
      balanceDue: formatMoney(due, b.currency),
    };
  });
  return {
    locationId: loc.id,
    locationName: loc.name,
    timezone: tz,
    date,
    generatedAt: nowIso(ctx),
    totals: {
      bookings: out.length,
      people: out.reduce((n, b) => n + b.people, 0),
      waiversMissing: out.reduce((n, b) => n + b.waivers.missing, 0),
      balanceDueCents: out.reduce((n, b) => n + b.balanceDueCents, 0),
    },
    bookings: out,
  };
}
