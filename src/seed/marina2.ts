import { and, eq } from 'drizzle-orm';
import { MIAMI_TZ, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { todayIn } from '../lib/clock';
import { addDays, wallTimeToUtc } from '../lib/time';
import { slipWaitlistEntries } from '../db/schema/slip-waitlist';
import { createEntry } from '../modules/slip-waitlist/service';
import { createPass } from '../modules/slip-guest-access/service';
import { confirmHaulService, createHaulService, scheduleHaulService } from '../modules/haul-services/service';
import { recordReading } from '../modules/meter-readings/service';
import { listReservations } from '../modules/slip-reservations/service';
import { slipRowsOfLocation } from '../modules/slips/service';

/**
 * Marina II in the sandbox (Miami, after the marina step): waitlist entries (arrivals 4 and 20 days
 * ahead), guest passes of the confirmed transient stay, haul services in several states (2 to 9
 * days ahead), and a month of weekly meter readings of five units, the last one yesterday at 09:00
 * Miami time, so every reading is in the past at any hour (one electricity meter rolling over, one
 * water spike flagged for review). Dates from the clock's Miami calendar.
 */
async function seedMarina2(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const exists = await db
    .select({ id: slipWaitlistEntries.id })
    .from(slipWaitlistEntries)
    .where(and(eq(slipWaitlistEntries.customerId, op.customerId), eq(slipWaitlistEntries.locationId, op.miamiId)))
    .get();
  if (exists) return false;
  const units = await slipRowsOfLocation(ctx, { locationId: op.miamiId });
  const unit = new Map(units.map((u) => [u.unitNumber, u]));
  if (!unit.size) return false;
  const today = todayIn(ctx, MIAMI_TZ);
  const reservations = (await listReservations(ctx, { locationId: op.miamiId, limit: 50, offset: 0 })).data;
  const byVessel = new Map(reservations.map((r) => [r.boat.vesselName, r]));

  // Four independent parts side by side: the waitlist, the guest passes, the haul services and the meters.
  const zoe = byVessel.get('Zoë');
  await Promise.all([
    seedWaitlist(ctx, op, today),
    zoe ? seedGuestPasses(ctx, zoe.id) : null,
    seedHauls(ctx, op, today, byVessel),
    ...meterChains(ctx, unit, today),
  ]);
  return true;
}

type Reservation = Awaited<ReturnType<typeof listReservations>>['data'][number];
type Unit = Awaited<ReturnType<typeof slipRowsOfLocation>>[number];

/** Waitlist: a seasonal boat too big for A and B docks, a monthly catamaran, a weekend boater (in this order). */
async function seedWaitlist(ctx: Ctx, op: DemoOperator, today: string) {
  await createEntry(ctx, {
    locationId: op.miamiId,
    renter: { firstName: 'Henrik', lastName: 'Larsen', email: 'henrik.larsen@renter.test', phone: '+4520123456' },
    boat: { vesselName: 'Nordlys', loaFt: 58, beamFt: 16, draftFt: 6 },
    unitType: 'slip',
    rateType: 'seasonal',
    season: 'Winter season',
    notes: 'Prefers C dock, needs 100 A shore power.',
  });
  await createEntry(ctx, {
    locationId: op.miamiId,
    renter: { firstName: 'Amara', lastName: 'Okafor', email: 'amara.okafor@renter.test' },
    boat: { vesselName: 'Twin Tides', loaFt: 42, beamFt: 22, draftFt: 4 },
    rateType: 'monthly',
    arrivalDate: addDays(today, 20),
    departureDate: addDays(today, 81),
  });
  await createEntry(ctx, {
    locationId: op.miamiId,
    renter: { firstName: 'Luis', lastName: 'Ortega', email: 'luis.ortega@renter.test', phone: '+13055550199' },
    boat: { vesselName: 'Pelican', loaFt: 26, beamFt: 8.5, draftFt: 2.5 },
    unitType: 'slip',
    section: 'A Dock',
    rateType: 'nightly',
    arrivalDate: addDays(today, 4),
    departureDate: addDays(today, 6),
  });
}

/** Guest passes of Zoë's confirmed transient stay (A-03). */
async function seedGuestPasses(ctx: Ctx, reservationId: string) {
  await createPass(ctx, {
    reservationId,
    guestName: 'Inès Martin',
    guestEmail: 'ines.martin@guest.test',
    permissions: ['gate', 'dock_access', 'showers'],
    notifyGuest: true,
    idRequired: false,
  });
  await createPass(ctx, {
    reservationId,
    guestName: 'Tom Becker',
    vehiclePlate: 'FL QRS 123',
    permissions: ['gate', 'dock_access', 'parking'],
    notifyGuest: false,
    idRequired: true,
  });
}

/** Haul services: Salty Dog's round trip scheduled and confirmed, Zoë's haul-out requested, a walk-in launch scheduled. */
async function seedHauls(ctx: Ctx, op: DemoOperator, today: string, byVessel: Map<string, Reservation>) {
  const zoe = byVessel.get('Zoë');
  const salty = byVessel.get('Salty Dog');
  if (salty) {
    const trip = await createHaulService(ctx, {
      reservationId: salty.id,
      serviceType: 'round_trip',
      requestedDate: addDays(today, 7),
      requestedReturnDate: addDays(today, 9),
      boat: { weightLbs: 18500 },
      notes: 'Bottom paint and zinc anodes.',
    });
    await scheduleHaulService(ctx, trip.id, { scheduledDate: addDays(today, 7), scheduledTime: '08:30', returnDate: addDays(today, 9) });
    await confirmHaulService(ctx, trip.id, { note: 'Confirmed by phone' });
  }
  if (zoe)
    await createHaulService(ctx, {
      reservationId: zoe.id,
      serviceType: 'haul_out',
      requestedDate: addDays(today, 5),
      notes: 'Check the prop before the trip home.',
    });
  const launch = await createHaulService(ctx, {
    locationId: op.miamiId,
    renter: { firstName: 'Grace', lastName: 'Kim', email: 'grace.kim@renter.test' },
    boat: { vesselName: 'Dry Spell', loaFt: 24, beamFt: 8.5, draftFt: 2, weightLbs: 5200 },
    serviceType: 'launch',
    requestedDate: addDays(today, 2),
    staffNotes: 'Trailer boat, arrives at 9.',
  });
  await scheduleHaulService(ctx, launch.id, { scheduledDate: addDays(today, 2), scheduledTime: '09:30' });
}

/** Each meter's readings in order (a reading is checked against the one before); the meters side by side. */
function meterChains(ctx: Ctx, unit: Map<string, Unit>, today: string): Promise<void>[] {
  // A month of weekly readings (5 readings per meter) of five units, the last one yesterday.
  const start = addDays(today, -29);
  const meters: { unitNumber: string; electricity: number[]; water: number[]; digits?: number }[] = [
    { unitNumber: 'A-03', electricity: [1520, 1598, 1671, 1755, 1830], water: [20410, 20700, 20960, 21250, 21510] },
    { unitNumber: 'B-07', electricity: [8840, 8991, 9132, 9290, 9441], water: [51200, 51620, 52010, 52400, 52830] },
    // A 5-digit meter rolling over between the third and fourth reading.
    { unitNumber: 'B-12', electricity: [99610, 99790, 99955, 120, 301], water: [7300, 7640, 7960, 8310, 8650], digits: 5 },
    // A water spike (hose left running) flagged for review on the last reading.
    { unitNumber: 'C-02', electricity: [40210, 40620, 41015, 41430, 41850], water: [11020, 11510, 11980, 12460, 16900] },
    { unitNumber: 'C-05', electricity: [2210, 2580, 2940, 3300, 3675], water: [600, 980, 1350, 1700, 2090] },
  ];
  const chains = meters.flatMap((m) => {
    const u = unit.get(m.unitNumber);
    if (!u) return [];
    const readAt = (i: number) => new Date(wallTimeToUtc(addDays(start, i * 7), '09:00', MIAMI_TZ)).toISOString();
    return [
      { slipId: u.id, utility: 'electricity' as const, readings: m.electricity, digits: m.digits ?? 6, meterId: `E-${m.unitNumber}` },
      { slipId: u.id, utility: 'water' as const, readings: m.water, digits: 6, meterId: `W-${m.unitNumber}` },
    ].map(async ({ readings, ...meter }) => {
      for (const [i, reading] of readings.entries()) await recordReading(ctx, { ...meter, reading, readAt: readAt(i) });
    });
  });
  return chains;
}

export const marina2Seed: OperatorSeedStep = { name: 'marina2', run: seedMarina2 };
