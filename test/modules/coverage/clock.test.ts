/**
 * Time is an input (issue 27) for coverage: a `/bind` that fails is retried at its due time
 * (`nextBindAt`) by `coverage.sweep`, whose `nextDue` names the next retry; a bind still failing after
 * the bind window leaves the policy `not_issued` and flags the operator, all on the operator's clock.
 * The operator is on a sandbox test clock: the test steps its time as a clock's advance does (from one
 * `nextDue` to the next, running the sweep for that operator at each instant) through 30 minutes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { appHooks, createOperator, db, eventually, get, post, runCron } from '../../harness';
import { fixedClock } from '../../../src/lib/clock';
import { systemCtx } from '../../../src/lib/context';
import { ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { wallTimeToUtc } from '../../../src/lib/time';
import { modules } from '../../../src/modules';
import { runJobList } from '../../../src/jobs/cron';
import { settleLater } from '../../../src/jobs/later';
import { coverageFlags, coveragePolicies } from '../../../src/db/schema/coverage';
import { customers } from '../../../src/db/schema/accounts';
import { locations } from '../../../src/db/schema/locations';
import { messageOutbox } from '../../../src/db/schema/events';
import { rentalItem } from '../bookings/factories';
import { TZ, buyCoverage, installNetwork, offering, restoreNetwork, type World } from './helpers';

beforeEach(installNetwork);
afterEach(restoreNetwork);

const MIN = 60_000;
/** Thu 10 Dec 2026, 10:00 EST. */
const NOW = Date.parse('2026-12-10T15:00:00.000Z');
const local = (date: string, time: string) => new Date(wallTimeToUtc(date, time, TZ)).toISOString();
const policyOf = (id: string) => db().select().from(coveragePolicies).where(eq(coveragePolicies.id, id)).get();
const sweep = modules.flatMap((m) => m.jobs ?? []).find((j) => j.name === 'coverage.sweep')!;

/** An offering whose /bind answers 500, enabled at a US location of an operator pinned at NOW. */
async function pinnedWorld(): Promise<World> {
  const off = await offering({ behaviour: 'error-bind' });
  const op = await createOperator({ clockAt: NOW, timezone: TZ });
  await db().update(customers).set({ isSandbox: true }).where(eq(customers.id, op.customerId));
  await db()
    .update(locations)
    .set({ details: { country: 'US' } })
    .where(eq(locations.id, op.locationId));
  const item = await rentalItem(op, { assets: 3 });
  const e = await post('/coverage/enablements', { locationId: op.locationId, offeringId: off.offeringId }, { key: op.adminKey });
  expect(e.status, e.text).toBe(201);
  return { partner: off.partner, host: off.host, offeringId: off.offeringId, secret: off.secret, op, item };
}

describe('coverage retries on the operator clock', () => {
  it('a failing bind is retried at nextBindAt by the sweep (nextDue), then not issued and flagged within 30 minutes of clock time', async () => {
    const w = await pinnedWorld();
    const win = { startTime: local('2026-12-13', '10:00'), endTime: local('2026-12-13', '12:00') };
    const { policyId } = await buyCoverage(w, { win });
    // The first attempt runs from the queue, at the operator's time; its retry is due 15 seconds later.
    await eventually(async () => (await policyOf(policyId))?.bindAttempts === 1 && (await policyOf(policyId))?.nextBindAt);
    const first = (await policyOf(policyId))!;
    expect(first).toMatchObject({ status: 'pending', paidAt: new Date(NOW).toISOString(), nextBindAt: new Date(NOW + 15_000).toISOString() });

    // The wall clock's sweep leaves an operator on a test clock alone, however late it runs.
    await runCron('*/5 * * * *', new Date(NOW + 60 * MIN));
    expect((await policyOf(policyId))!.bindAttempts).toBe(1);

    const ctxAt = (t: number) => systemCtx(env, { customerId: w.op.customerId, clock: fixedClock(t, w.op.clockId!), hooks: appHooks });
    expect(await sweep.nextDue!(ctxAt(NOW))).toBe(NOW + 15_000);
    const steps: { at: number; attempts: number; nextBindAt: string | null }[] = [];
    let t = NOW;
    for (;;) {
      const next = await sweep.nextDue!(ctxAt(t));
      if (next == null || next > NOW + 30 * MIN) break;
      expect(next).toBeGreaterThan(t);
      const before = (await policyOf(policyId))!;
      t = next;
      await runJobList(ctxAt(t), [sweep], settleLater());
      const after = (await policyOf(policyId))!;
      // Each step is a retry due exactly then: one more attempt.
      if (before.status === 'pending') {
        expect(before.nextBindAt).toBe(new Date(t).toISOString());
        expect(after.bindAttempts).toBe(before.bindAttempts + 1);
      }
      steps.push({ at: t - NOW, attempts: after.bindAttempts, nextBindAt: after.nextBindAt });
    }
    const p = (await policyOf(policyId))!;
    expect(p.status).toBe('not_issued');
    expect(p.bindAttempts).toBeGreaterThanOrEqual(5);
    expect(w.host.calls('bind')).toHaveLength(p.bindAttempts);
    // Backoff 15 s doubling up to 5 minutes: retries at +15 s, +45 s, +1:45, +3:45, +7:45, ...
    expect(steps.slice(0, 4).map((s) => s.at)).toEqual([15_000, 45_000, 105_000, 225_000]);
    const last = steps[steps.length - 1];
    expect(last.nextBindAt).toBeNull();
    expect(last.at).toBeLessThanOrEqual(30 * MIN);

    const [flag] = await db()
      .select()
      .from(coverageFlags)
      .where(and(eq(coverageFlags.customerId, w.op.customerId), eq(coverageFlags.policyId, policyId)))
      .all();
    expect(flag).toMatchObject({ kind: 'bind_failed' });
    expect(Date.parse(flag.createdAt)).toBe(NOW + last.at);
    expect((await get('/coverage/flags?open=true', { key: w.op.adminKey })).body.data).toEqual([expect.objectContaining({ policyId, kind: 'bind_failed' })]);
    const mail = await db()
      .select()
      .from(messageOutbox)
      .where(and(eq(messageOutbox.customerId, w.op.customerId), eq(messageOutbox.template, 'coverage.bind_failed')))
      .all();
    expect(mail).toHaveLength(1);
    expect(mail[0].body).not.toMatch(ISO_TIMESTAMP);
    // Nothing is left due.
    expect(await sweep.nextDue!(ctxAt(t))).toBeNull();
  });
});
