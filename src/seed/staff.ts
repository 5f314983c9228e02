import { and, eq, inArray } from 'drizzle-orm';
import { HAMBURG_TZ, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { todayIn } from '../lib/clock';
import { addDays, wallTimeToUtc } from '../lib/time';
import { bookings } from '../db/schema/bookings';
import { staffTimeOff } from '../db/schema/staff';
import { demoTransactionId } from './bookings';
import { assignStaff } from '../modules/staff-assignments/service';
import { createTimeOff } from '../modules/staff-schedule/service';

/**
 * Staff on the demo bookings: the Miami captain on the checked-in pontoon (tomorrow afternoon) and
 * on the pay-later pontoon (in twelve days), both inside the captain's 08:00–18:00 shifts
 * (the widget step), and a day of time off for the Hamburg coach in a week (a training course). The
 * time off is written last and marks the step as done; runs after the bookings and widget steps.
 */
async function seedStaff(ctx: Ctx, D: DemoOperator): Promise<boolean> {
  const done = await ctx.db
    .select({ id: staffTimeOff.id })
    .from(staffTimeOff)
    .where(and(eq(staffTimeOff.customerId, D.customerId), eq(staffTimeOff.staffId, D.coachId)))
    .get();
  if (done) return false;
  const rentals = await ctx.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.customerId, D.customerId), inArray(bookings.transactionId, [demoTransactionId(D, 'checked_in'), demoTransactionId(D, 'pay_later')])))
    .all();
  for (const r of rentals) await assignStaff(ctx, r.id, { staffId: D.captainId, role: 'captain' });
  const day = addDays(todayIn(ctx, HAMBURG_TZ), 7);
  await createTimeOff(ctx, {
    staffId: D.coachId,
    startTime: new Date(wallTimeToUtc(day, '00:00', HAMBURG_TZ)).toISOString(),
    endTime: new Date(wallTimeToUtc(addDays(day, 1), '00:00', HAMBURG_TZ)).toISOString(),
    reason: 'Training course (demo)',
  });
  return true;
}

export const staffSeed: OperatorSeedStep = { name: 'staff', run: seedStaff };
