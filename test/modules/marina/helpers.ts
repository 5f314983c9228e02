import { expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, post, type Operator } from '../../harness';
import { addDays, localDate } from '../../../src/lib/time';

/** A marina operator; `clockAt` (ms) is its pinned "now" when it is on a test clock. */
export type MarinaOperator = Operator & { clockAt?: number };

/**
 * A fresh operator with an active slip subscription (the offline simulator completes the checkout at
 * once). With `clockAt` its "now" is pinned (a sandbox operator on a test clock), in `timezone`.
 */
export async function marinaOperator(quota = 20, opts: { clockAt?: Date | string | number; timezone?: string } = {}): Promise<MarinaOperator> {
  const op: MarinaOperator = await createOperator({ clockAt: opts.clockAt, timezone: opts.timezone });
  if (opts.clockAt !== undefined) op.clockAt = new Date(opts.clockAt).getTime();
  const r = await post('/slip-subscription/create-checkout', { quota }, { key: op.adminKey });
  expect(r.status, r.text).toBe(201);
  expect(r.body.subscription.active).toBe(true);
  return op;
}

/** The operator's "now" (ms): its pinned clock, else real time. */
export const nowOf = (op: MarinaOperator) => op.clockAt ?? Date.now();

/**
 * Moves a pinned operator's clock to `at` at once, without running the scheduled work in between
 * (for tests whose subject is not scheduled work; `advanceClock` of the harness runs it).
 */
export async function setClock(op: MarinaOperator, at: Date | string | number) {
  if (!op.clockId) throw new Error('setClock: the operator has no test clock (createOperator({ clockAt }))');
  const iso = new Date(at).toISOString();
  await env.DB.prepare('UPDATE test_clocks SET frozen_time = ? WHERE id = ?').bind(iso, op.clockId).run();
  op.clockAt = Date.parse(iso);
}

/** Today at the operator's location, on its clock. */
export const today = (op: MarinaOperator) => localDate(nowOf(op), op.timezone);
export const day = (op: MarinaOperator, n: number) => addDays(today(op), n);
/** An instant `days` (and `hours`) before the operator's now, as ISO. */
export const ago = (op: MarinaOperator, days: number, hours = 0) => new Date(nowOf(op) - days * 86_400_000 - hours * 3_600_000).toISOString();

let n = 0;
export async function makeSlip(op: Operator, fields: Record<string, unknown> = {}) {
  const r = await post(
    '/slips',
    {
      locationId: op.locationId,
      unitNumber: `T-${++n}-${Math.random().toString(36).slice(2, 6)}`,
      lengthFt: 40,
      widthFt: 14,
      depthFt: 8,
      section: 'A',
      ...fields,
    },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; unitNumber: string; [k: string]: any };
}

export const boat = (o: Record<string, unknown> = {}) => ({ vesselName: 'Sea Breeze', loaFt: 30, beamFt: 10, draftFt: 4, ...o });
export const renter = (tag = 'r') => ({ firstName: 'Søren', lastName: 'Ødegård', email: `${tag}-${Math.random().toString(36).slice(2, 8)}@example.test` });

export async function reserve(op: MarinaOperator, slipId: string, o: Record<string, unknown> = {}) {
  return post(
    '/slip-reservations',
    { slipId, rateType: 'nightly', arrivalDate: day(op, 10), departureDate: day(op, 13), boat: boat(), renter: renter(), status: 'confirmed', ...o },
    { key: op.adminKey },
  );
}
