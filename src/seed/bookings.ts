import { and, eq, inArray } from 'drizzle-orm';
import { DEMO_OPERATOR, MIAMI_TZ, demoId, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { todayIn } from '../lib/clock';
import { addDays, wallTimeToUtc } from '../lib/time';
import { customers } from '../db/schema/accounts';
import { bookings } from '../db/schema/bookings';
import { inventoryIds } from './inventory';
import { BookBody } from '../modules/bookings/types';
import { cancelBooking, checkInBooking, createBooking } from '../modules/bookings/service';

/** The operator's bundle (in its settings): a pontoon and two dolphin tour tickets, 10% off. */
export const bundleOf = (op: { tag: string }) => {
  const inv = inventoryIds(op);
  return {
    bundleCode: 'BOAT-TOUR',
    name: 'Boat + Tour',
    items: [
      { inventoryId: inv.pontoon, quantity: 1 },
      { inventoryId: inv.dolphinTour, quantity: 2 },
    ],
    discountPercentage: 10,
  };
};

export const DEMO_BUNDLE = bundleOf(DEMO_OPERATOR);

/** The transaction id of one of the operator's demo bookings (`txn_<tag>_pontoon`). */
export const demoTransactionId = (op: { tag: string }, name: string) => demoId(op, 'txn', name);

interface DemoBooking {
  transactionId: string;
  body: Record<string, unknown>;
  then?: 'cancel' | 'check_in';
}

/**
 * The demo bookings, all from tomorrow on (Miami's calendar, from the clock), so the minimum notice
 * holds at any hour: the checked-in one starts tomorrow afternoon (an early check-in).
 *
 * The center console (the second product of the OCTO list, after the showcase cruise) is what OCTO's
 * validator books whole: its "Change Product" asks for all four consoles on a departure it picks
 * among the available ones of the next 30 days, and its "SOLD_OUT" scenario needs a sold-out one. So
 * the seed books the console only as the whole fleet on one day (sold out then, four free on every
 * other departure), and the checked-in booking is a pontoon's.
 */
function demoBookings(ctx: Ctx, op: DemoOperator): DemoBooking[] {
  const today = todayIn(ctx, MIAMI_TZ);
  /** A Miami wall-clock time `days` from today, as an ISO instant. */
  const miami = (days: number, time: string) => new Date(wallTimeToUtc(addDays(today, days), time, MIAMI_TZ)).toISOString();
  const DEMO_INVENTORY = inventoryIds(op);
  const txn = (name: string) => demoTransactionId(op, name);
  const who = (firstName: string, lastName: string) => ({
    firstName,
    lastName,
    email: `${firstName}.${lastName}@renter.test`.toLowerCase(),
    phone: '+13055550142',
  });
  const card = { paymentMethodId: 'pm_card_visa' };
  return [
    {
      transactionId: txn('checked_in'),
      body: {
        ...card,
        rentalDetails: { inventoryId: DEMO_INVENTORY.pontoon, startTime: miami(1, '14:00'), endTime: miami(1, '18:00') },
        customerInfo: who('Carlos', 'Mendez'),
        selectedBoatAddons: [{ addonId: 'cooler' }],
      },
      then: 'check_in',
    },
    {
      transactionId: txn('pontoon'),
      body: {
        ...card,
        rentalDetails: { inventoryId: DEMO_INVENTORY.pontoon, startTime: miami(3, '10:00'), endTime: miami(3, '14:00'), participants: 6 },
        customerInfo: who('Alice', 'Jones'),
        rentalPricing: { tip: 20 },
      },
    },
    {
      transactionId: txn('tour'),
      body: {
        ...card,
        rentalDetails: { inventoryId: DEMO_INVENTORY.dolphinTour, startTime: miami(4, '18:00'), tickets: { Adult: 2, Child: 1 } },
        customerInfo: who('Priya', 'Patel'),
        selectedBoatAddons: [{ addonId: 'photos' }],
      },
    },
    {
      transactionId: txn('installments'),
      body: {
        ...card,
        paymentPlan: { type: 'installments', installments: 2 },
        // The whole fleet (a club's outing): that day's console departures are sold out, every other one has all four.
        rentalDetails: { inventoryId: DEMO_INVENTORY.centerConsole, startTime: miami(10, '09:00'), endTime: miami(10, '17:00'), quantity: 4 },
        customerInfo: who('Ben', 'Okafor'),
      },
    },
    {
      transactionId: txn('bundle'),
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
      transactionId: txn('pay_later'),
      body: {
        ...card,
        paymentPlan: { type: 'pay_later' },
        rentalDetails: { inventoryId: DEMO_INVENTORY.pontoon, startTime: miami(12, '13:00'), endTime: miami(12, '16:00') },
        customerInfo: who('Tom', 'Baker'),
      },
    },
    {
      transactionId: txn('cancelled'),
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
 * The operator's bundle (in its settings) and a handful of bookings over the coming
 * weeks (from tomorrow on), placed through the booking service (priced, paid with the simulator's test card, with
 * deposits, ledger entries and events), one of them cancelled and one checked in. Idempotent:
 * each booking has a fixed transaction id and is skipped when it exists.
 */
async function seedBookings(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  let wrote = false;
  const bundle = bundleOf(op);

  const cust = await db.select({ settings: customers.settings }).from(customers).where(eq(customers.id, op.customerId)).get();
  if (!cust) return false;
  const settings = (cust.settings ?? {}) as Record<string, unknown>;
  const bundles = Array.isArray(settings.bundles) ? (settings.bundles as { bundleCode?: string }[]) : [];
  if (!bundles.some((b) => b.bundleCode === bundle.bundleCode)) {
    await db
      .update(customers)
      .set({ settings: { ...settings, bundles: [...bundles, bundle] } })
      .where(eq(customers.id, op.customerId));
    wrote = true;
  }

  const plan = demoBookings(ctx, op);
  const done = new Set(
    (
      await db
        .select({ t: bookings.transactionId })
        .from(bookings)
        .where(
          and(
            eq(bookings.customerId, op.customerId),
            inArray(
              bookings.transactionId,
              plan.map((p) => p.transactionId),
            ),
          ),
        )
        .all()
    ).map((r) => r.t),
  );
  // Side by side: each is its own renter and slot (the per-item lock orders those on one item).
  const placed = await Promise.all(
    plan
      .filter((p) => !done.has(p.transactionId))
      .map(async (p) => {
        const input = BookBody.parse({ rentalPricing: {}, extendedData: { seed: 'demo' }, ...p.body });
        try {
          const res = await createBooking(ctx, input, { source: 'operator', transactionId: p.transactionId });
          if (p.then === 'cancel') await cancelBooking(ctx, res.rentalId, { reason: 'Guest changed plans (demo)' });
          if (p.then === 'check_in') await checkInBooking(ctx, res.rentalId, { notes: 'Demo check-in' });
          return true;
        } catch (err) {
          // A demo slot taken by hand in the sandbox is not an error of the seed.
          ctx.log.warn('demo booking skipped', { transactionId: p.transactionId, error: String(err) });
          return false;
        }
      }),
  );
  if (placed.some(Boolean)) wrote = true;
  return wrote;
}

export const bookingsSeed: OperatorSeedStep = { name: 'bookings', run: seedBookings };
