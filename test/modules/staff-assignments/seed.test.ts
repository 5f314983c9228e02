/** The staff seed step: the Miami captain on two demo bookings and a day of time off for the Hamburg coach, once. */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { db } from '../../harness';
import { SEED, SEED_STEPS } from '../../../src/seed/index';
import { staffAssignments, staffTimeOff } from '../../../src/db/schema/staff';

describe('staff seed', () => {
  it('assigns the captain to two demo bookings and records the coach’s time off, idempotently', async () => {
    const steps = SEED_STEPS.filter((s) => ['accounts', 'inventory', 'bookings', 'widget', 'staff'].includes(s.name));
    expect(steps.map((s) => s.name)).toEqual(['accounts', 'inventory', 'bookings', 'widget', 'staff']);
    for (const s of steps) await s.run(env);
    expect(await steps[4].run(env)).toBe(false);
    const D = SEED.demo;
    const assigned = await db()
      .select()
      .from(staffAssignments)
      .where(and(eq(staffAssignments.customerId, D.customerId), eq(staffAssignments.staffId, D.captainId)))
      .all();
    expect(assigned).toHaveLength(2);
    expect(assigned.every((a) => a.role === 'captain' && !a.forced)).toBe(true);
    const off = await db()
      .select()
      .from(staffTimeOff)
      .where(and(eq(staffTimeOff.customerId, D.customerId), eq(staffTimeOff.staffId, D.coachId)))
      .all();
    expect(off).toHaveLength(1);
    expect(off[0].end - off[0].start).toBeGreaterThanOrEqual(23 * 3_600_000);
  });
});
