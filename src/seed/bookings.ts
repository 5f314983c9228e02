import { eq, inArray } from 'drizzle-orm';
import type { Env } from '../env';
import { SEED, type SeedStep } from './types';
import { getDb } from '../db/client';
import { systemCtx } from '../lib/context';
import { addDays, localDate, wallTimeToUtc } from '../lib/time';
import { customers } from '../db/schema/accounts';
import { bookings } from '../db/schema/bookings';
import { DEMO_INVENTORY } from './inventory';
import { BookBody } from '../modules/bookings/types';
import { cancelBooking, checkInBooking, createBooking } from '../modules/bookings/service';

const DEMO = SEED.demo;
const MIAMI_TZ = 'America/New_York';

export const DEMO_BUNDLE = {
  bundleCode: 'BOAT-TOUR',
  name: 'Boat + Tour',
  items: [
    { inventoryId: DEMO_INVENTORY.pontoon, quantity: 1 },
    { inventoryId: DEMO_INVENTORY.dolphinTour, quantity: 2 },
  ],
  discountPercentage: 10,
};

/** A Miami wall-clock time `days` from today, as an ISO instant. */
const miami = (days: number, time: string) => new Date(wallTimeToUtc(addDays(localDate(Date.now(), MIAMI_TZ), days), time, MIAMI_TZ)).toISOString();

interface DemoBooking {
  transactionId: string;
  body: Record<string, unknown>;
  then?: 'cancel' | 'check_in';
}

function demoBookings(): DemoBooking[] {
  const who = (firstName: string, lastName: string) => ({
    firstName,
    lastName,
    email: `${firstName}.${lastName}@renter.test`.toLowerCase(),
    phone: '+13055550142',
  });
  const card = { paymentMethodId: 'pm_card_visa' };
  return [
    {
      transactionId: 'txn_demo_checked_in',
      body: {
        ...card,
        rentalDetails: { inventoryId: DEMO_INVENTORY.centerConsole, startTime: miami(0, '14:00'), endTime: miami(0, '17:00') },
        customerInfo: who('Carlos', 'Mendez'),
        selectedBoatAddons: [{ addonId: 'cooler' }],
      },
      then: 'check_in',
    },
    {
      transactionId: 'txn_demo_pontoon',
      body: {
        ...card,
        rentalDetails: { inventoryId: DEMO_INVENTORY.pontoon, startTime: miami(3, '10:00'), endTime: miami(3, '14:00'), participants: 6 },
        customerInfo: who('Alice', 'Jones'),
        rentalPricing: { tip: 20 },
      },
    },
    {
      transactionId: 'txn_demo_tour',
      body: {
        ...card,
        rentalDetails: { inventoryId: DEMO_INVENTORY.dolphinTour, startTime: miami(4, '18:00'), tickets: { Adult: 2, Child: 1 } },
        customerInfo: who('Priya', 'Patel'),
        selectedBoatAddons: [{ addonId: 'photos' }],
      },
    },
    {
      transactionId: 'txn_demo_installments',
      body: {
        ...card,
        paymentPlan: { type: 'installments', installments: 2 },
        rentalDetails: { inventoryId: DEMO_INVENTORY.centerConsole, startTime: miami(10, '09:00'), endTime: miami(10, '17:00') },
        customerInfo: who('Ben', 'Okafor'),
      },
    },
    {
      transactionId: 'txn_demo_bundle',
      body: {
        ...card,
        rentalDetails: {
          bundleCode: DEMO_BUNDLE.bundleCode,
          items: [
            { inventoryId: DEMO_INVENTORY.pontoon, startTime: miami(7, '10:00'), endTime: miami(7, '14:00') },
            { inventoryId: DEMO_INVENTORY.dolphinTour, startTime: miami(7, '18:00'), tickets: { Adult: 2 } },
          ],
        },
        customerInfo: who('Mia', 'Schulz'),
      },
    },
    {
      transactionId: 'txn_demo_pay_later',
      body: {
        ...card,
        paymentPlan: { type: 'pay_later' },
        rentalDetails: { inventoryId: DEMO_INVENTORY.pontoon, startTime: miami(12, '13:00'), endTime: miami(12, '16:00') },
        customerInfo: who('Tom', 'Baker'),
      },
    },
    {
      transactionId: 'txn_demo_cancelled',
      body: {
        ...card,
        rentalDetails: { inventoryId: DEMO_INVENTORY.pontoon, startTime: miami(9, '10:00'), endTime: miami(9, '12:00') },
        customerInfo: who('Nora', 'Lind'),
      },
      then: 'cancel',
    },
  ];
}

/**
 * Demo Marina's bundle (in the operator's settings) and a handful of bookings over the coming
 * weeks, placed through the booking service (priced, paid with the simulator's test card, with
 * deposits, ledger entries and events), one of them cancelled and one checked in. Idempotent:
 * each booking has a fixed transaction id and is skipped when it exists.
 */
async function seedBookings(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  const ctx = systemCtx(env, { customerId: DEMO.customerId, requestId: 'seed_bookings' });
  let wrote = false;

  const cust = await db.select({ settings: customers.settings }).from(customers).where(eq(customers.id, DEMO.customerId)).get();
  if (!cust) return false;
  const settings = (cust.settings ?? {}) as Record<string, unknown>;
  const bundles = Array.isArray(settings.bundles) ? (settings.bundles as { bundleCode?: string }[]) : [];
  if (!bundles.some((b) => b.bundleCode === DEMO_BUNDLE.bundleCode)) {
    await db
      .update(customers)
      .set({ settings: { ...settings, bundles: [...bundles, DEMO_BUNDLE] } })
      .where(eq(customers.id, DEMO.customerId));
    wrote = true;
  }

  const plan = demoBookings();
  const done = new Set(
    (
      await db
        .select({ t: bookings.transactionId })
        .from(bookings)
        .where(
          inArray(
            bookings.transactionId,
            plan.map((p) => p.transactionId),
          ),
        )
        .all()
    ).map((r) => r.t),
  );
  for (const p of plan) {
    if (done.has(p.transactionId)) continue;
    const input = BookBody.parse({ rentalPricing: {}, extendedData: { seed: 'demo' }, ...p.body });
    try {
      const res = await createBooking(ctx, input, { source: 'operator', transactionId: p.transactionId });
      if (p.then === 'cancel') await cancelBooking(ctx, res.rentalId, { reason: 'Guest changed plans (demo)' });
      if (p.then === 'check_in') await checkInBooking(ctx, res.rentalId, { notes: 'Demo check-in' });
      wrote = true;
    } catch (err) {
      // A demo slot taken by hand in the sandbox is not an error of the seed.
      ctx.log.warn('demo booking skipped', { transactionId: p.transactionId, error: String(err) });
    }
  }
  return wrote;
}

export const bookingsSeed: SeedStep = { name: 'bookings', run: seedBookings };
