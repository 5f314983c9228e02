import { and, eq } from 'drizzle-orm';
import type { Env } from '../env';
import { SEED, type SeedStep } from './types';
import { getDb } from '../db/client';
import { bookings } from '../db/schema/bookings';
import { scheduledCommunications } from '../db/schema/communications';
import { shortLinks } from '../db/schema/short-links';
import { cartRecoveryItems } from '../db/schema/cart-recovery';
import { PAST_TOLERANCE_MS, sendTimeOf } from '../modules/communications/service';
import { DEMO_INVENTORY } from './inventory';

const DEMO = SEED.demo;

/** Fixed ids of the communications sandbox, so the README examples stay valid. */
export const DEMO_COMMS = {
  reminderId: 'sch_demo_pontoon_reminder',
  shortCode: 'DemoBook',
  cartId: 'cart_demo_0000000000000001',
} as const;

/**
 * A reminder scheduled for the demo pontoon booking (24 hours before its start), a short link to
 * the demo booking page, and an abandoned cart at Miami for tomorrow's pontoon (its recovery e-mail
 * goes out an hour after seeding, to the outbox).
 */
async function seedCommunications(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  const now = Date.now();
  const iso = new Date(now).toISOString();
  let wrote = false;

  const pontoon = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.customerId, DEMO.customerId), eq(bookings.transactionId, 'txn_demo_pontoon')))
    .get();
  if (pontoon) {
    const at = sendTimeOf('before_start', 24 * 60, pontoon, now)!;
    const past = at < now - PAST_TOLERANCE_MS;
    const r = await db
      .insert(scheduledCommunications)
      .values({
        id: DEMO_COMMS.reminderId,
        customerId: DEMO.customerId,
        locationId: pontoon.locationId,
        templateId: 'booking_reminder',
        recipientEmail: String((pontoon.customerInfo as { email?: string } | null)?.email ?? 'alice.jones@renter.test'),
        rentalId: pontoon.id,
        delayMinutes: 24 * 60,
        trigger: 'before_start',
        conditions: { bookingStatus: ['confirmed'] },
        status: past ? 'skipped' : 'pending',
        sendAt: new Date(at).toISOString(),
        statusReason: past ? 'send_time_passed: seeded after the reminder time' : null,
        createdBy: DEMO.adminId,
        createdAt: iso,
        updatedAt: iso,
      })
      .onConflictDoNothing()
      .returning({ id: scheduledCommunications.id })
      .get();
    wrote ||= !!r;
  }

  const link = await db
    .insert(shortLinks)
    .values({
      code: DEMO_COMMS.shortCode,
      customerId: DEMO.customerId,
      originalUrl: 'https://demo-marina.example/book',
      metadata: { purpose: 'sandbox' },
      expiresAt: new Date(now + 30 * 86_400_000).toISOString(),
      createdAt: iso,
    })
    .onConflictDoNothing()
    .returning({ code: shortLinks.code })
    .get();
  wrote ||= !!link;

  const tomorrow10 = new Date(now + 86_400_000);
  tomorrow10.setUTCHours(14, 0, 0, 0);
  const cart = await db
    .insert(cartRecoveryItems)
    .values({
      id: DEMO_COMMS.cartId,
      customerId: DEMO.customerId,
      locationId: DEMO.miamiId,
      email: 'cart.visitor@renter.test',
      firstName: 'Casey',
      lastName: 'Visitor',
      bookingInfo: {
        inventoryId: DEMO_INVENTORY.pontoon,
        startTime: tomorrow10.toISOString(),
        endTime: new Date(tomorrow10.getTime() + 2 * 3_600_000).toISOString(),
        quantity: 1,
      },
      cartData: { step: 'customer-details' },
      status: 'active',
      contactOn: new Date(now + 3_600_000).toISOString(),
      createdAt: iso,
      updatedAt: iso,
    })
    .onConflictDoNothing()
    .returning({ id: cartRecoveryItems.id })
    .get();
  wrote ||= !!cart;
  return wrote;
}

export const communicationsSeed: SeedStep = { name: 'communications', run: seedCommunications };
