import { and, eq } from 'drizzle-orm';
import { DEMO_OPERATOR, MIAMI_TZ, demoId, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { nowMs, todayIn } from '../lib/clock';
import { addDays, wallTimeToUtc } from '../lib/time';
import { bookings } from '../db/schema/bookings';
import { scheduledCommunications } from '../db/schema/communications';
import { shortLinks } from '../db/schema/short-links';
import { cartRecoveryItems } from '../db/schema/cart-recovery';
import { PAST_TOLERANCE_MS, sendTimeOf } from '../modules/communications/service';
import { inventoryIds } from './inventory';
import { demoTransactionId } from './bookings';

/** The ids of an operator's communications demo (a short code is global: `<Tag>Book`, `DemoBook` for Demo Marina). */
export const commsIds = (op: { tag: string }) => ({
  reminderId: demoId(op, 'sch', 'pontoon_reminder'),
  shortCode: `${op.tag[0].toUpperCase()}${op.tag.slice(1)}Book`,
  cartId: demoId(op, 'cart', '0000000000000001'),
});

/** Fixed ids of the communications sandbox, so the README examples stay valid. */
export const DEMO_COMMS = commsIds(DEMO_OPERATOR);

/**
 * A reminder scheduled for the demo pontoon booking (24 hours before its start, three days ahead),
 * a short link to the demo booking page (valid 30 days from now), and an abandoned cart at Miami for
 * tomorrow's pontoon at 10:00 Miami time (its recovery e-mail goes out an hour after seeding, to the
 * outbox). Times from the clock.
 */
async function seedCommunications(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const ids = commsIds(op);
  const now = nowMs(ctx);
  const iso = new Date(now).toISOString();
  let wrote = false;

  const pontoon = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.customerId, op.customerId), eq(bookings.transactionId, demoTransactionId(op, 'pontoon'))))
    .get();
  if (pontoon) {
    const at = sendTimeOf('before_start', 24 * 60, pontoon, now)!;
    const past = at < now - PAST_TOLERANCE_MS;
    const r = await db
      .insert(scheduledCommunications)
      .values({
        id: ids.reminderId,
        customerId: op.customerId,
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
        createdBy: op.adminId,
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
      code: ids.shortCode,
      customerId: op.customerId,
      originalUrl: 'https://demo-marina.example/book',
      metadata: { purpose: 'sandbox' },
      expiresAt: new Date(now + 30 * 86_400_000).toISOString(),
      createdAt: iso,
    })
    .onConflictDoNothing()
    .returning({ code: shortLinks.code })
    .get();
  wrote ||= !!link;

  const tomorrow10 = wallTimeToUtc(addDays(todayIn(ctx, MIAMI_TZ), 1), '10:00', MIAMI_TZ);
  const cart = await db
    .insert(cartRecoveryItems)
    .values({
      id: ids.cartId,
      customerId: op.customerId,
      locationId: op.miamiId,
      email: 'cart.visitor@renter.test',
      firstName: 'Casey',
      lastName: 'Visitor',
      bookingInfo: {
        inventoryId: inventoryIds(op).pontoon,
        startTime: new Date(tomorrow10).toISOString(),
        endTime: new Date(tomorrow10 + 2 * 3_600_000).toISOString(),
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

export const communicationsSeed: OperatorSeedStep = { name: 'communications', run: seedCommunications };
