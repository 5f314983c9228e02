import { expect } from 'vitest';
import { createOperator, post, type Operator } from '../../harness';
import { addDays, localDate } from '../../../src/lib/time';

/** A fresh operator with an active slip subscription (the offline simulator completes the checkout at once). */
export async function marinaOperator(quota = 20): Promise<Operator> {
  const op = await createOperator();
  const r = await post('/slip-subscription/create-checkout', { quota }, { key: op.adminKey });
  expect(r.status, r.text).toBe(201);
  expect(r.body.subscription.active).toBe(true);
  return op;
}

export const today = (op: Operator) => localDate(Date.now(), op.timezone);
export const day = (op: Operator, n: number) => addDays(today(op), n);

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

export async function reserve(op: Operator, slipId: string, o: Record<string, unknown> = {}) {
  return post(
    '/slip-reservations',
    { slipId, rateType: 'nightly', arrivalDate: day(op, 10), departureDate: day(op, 13), boat: boat(), renter: renter(), status: 'confirmed', ...o },
    { key: op.adminKey },
  );
}
