/**
 * A sale whose write's answer is lost on the way back (the D1 call or the lock's answer: "Network
 * connection lost") is in doubt: it may have committed. The booking reads whether its rows are
 * there (availability's `landedInDoubt`): when they are, the sale is answered as written, its charge
 * kept; when they are not, it is undone as any failed sale (the charge refunded, the units free).
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import type { Env } from '../../../src/env';
import { createOperator, get } from '../../harness';
import { at, bookBody, book, rentalItem } from './factories';
import { systemCtx } from '../../../src/lib/context';
import { createBooking, rescheduleBooking } from '../../../src/modules/bookings/service';
import type { BookInput } from '../../../src/modules/bookings/schemas';

type LockStub = { write(req: unknown): Promise<unknown> };

/** The env with an inventory lock whose write answers "connection lost": after running the write (it committed) or instead of it. */
function losingLock(committed: boolean): Env {
  const ns = env.INVENTORY_LOCK;
  const lossy = {
    idFromName: (name: string) => ns.idFromName(name),
    get: (id: DurableObjectId, opts?: DurableObjectNamespaceGetDurableObjectOptions) => {
      const stub = ns.get(id, opts) as unknown as LockStub & Record<string | symbol, unknown>;
      return new Proxy(stub, {
        get(target, prop) {
          if (prop === 'write')
            return async (req: unknown) => {
              if (committed) await target.write(req);
              throw new Error('Network connection lost.');
            };
          // An RPC stub answers every property as a remote method: call it on the stub.
          return (...args: unknown[]) => (target[prop] as (...a: unknown[]) => unknown)(...args);
        },
      });
    },
  };
  return { ...env, INVENTORY_LOCK: lossy } as unknown as Env;
}

/** The payment provider's (offline simulator's) intents of an operator's sales. */
async function intentsOf(customerId: string) {
  const rows = await env.DB.prepare(
    'SELECT id, status, amount_received, amount_refunded, metadata FROM sim_payment_intents WHERE metadata LIKE ? ORDER BY created_at',
  )
    .bind(`%${customerId}%`)
    .all<{ id: string; status: string; amount_received: number; amount_refunded: number; metadata: string }>();
  return rows.results.map(({ metadata: _, ...r }) => r);
}

describe('a sale whose write is in doubt', () => {
  it('committed: answered as written, the card payment kept, the boat taken', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const body = bookBody({ inventoryId: item.id, startTime: at(op.timezone, 4, '10:00'), endTime: at(op.timezone, 4, '12:00') });
    const ctx = systemCtx(losingLock(true), { customerId: op.customerId });
    const res = await createBooking(ctx, body as BookInput, { source: 'operator' });
    const rentalId = res.rentals?.[0]?.rentalId ?? (res as { rentalId?: string }).rentalId;
    expect(rentalId).toBeTruthy();
    const read = await get(`/coreBooking/${rentalId}`, { key: op.adminKey });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ status: 'confirmed', pricing: { total: 200, amountPaid: 200, balanceDue: 0 } });
    // The card payment stands: not refunded (the undo of a failed sale never ran).
    expect(await intentsOf(op.customerId)).toEqual([{ id: read.body.paymentIntentId, status: 'succeeded', amount_received: 20000, amount_refunded: 0 }]);
    // The one boat is taken: the next sale of the slot is refused.
    expect((await book(op, body)).status).toBe(409);
  });

  it('not committed: undone as a failed sale, the charge refunded and the boat free again', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const body = bookBody({ inventoryId: item.id, startTime: at(op.timezone, 4, '10:00'), endTime: at(op.timezone, 4, '12:00') });
    const ctx = systemCtx(losingLock(false), { customerId: op.customerId });
    await expect(createBooking(ctx, body as BookInput, { source: 'operator' })).rejects.toThrow('Network connection lost.');
    // The charge was refunded in full, and nothing of the sale was written.
    const [intent] = await intentsOf(op.customerId);
    expect(intent).toMatchObject({ amount_received: 20000, amount_refunded: 20000 });
    const written = await env.DB.prepare('SELECT count(*) AS n FROM bookings WHERE customer_id = ?').bind(op.customerId).first<{ n: number }>();
    expect(written?.n).toBe(0);
    const again = await book(op, body);
    expect(again.status, again.text).toBe(201);
  });

  it('a reschedule charging the difference, committed: answered as made, the difference charge kept', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 4, '10:00'), endTime: at(op.timezone, 4, '12:00') }));
    expect(b.status, b.text).toBe(201);
    const ctx = systemCtx(losingLock(true), { customerId: op.customerId });
    const moved = await rescheduleBooking(ctx, b.body.rentalId, {
      startTime: at(op.timezone, 5, '10:00'),
      endTime: at(op.timezone, 5, '13:00'),
      chargeDifference: true,
    });
    expect(moved).toMatchObject({ startTime: new Date(at(op.timezone, 5, '10:00')).toISOString() });
    const read = await get(`/coreBooking/${b.body.rentalId}`, { key: op.adminKey });
    expect(read.body).toMatchObject({ pricing: { total: 300, amountPaid: 300, balanceDue: 0 } });
    // The sale's charge and the difference's charge both stand.
    const intents = await intentsOf(op.customerId);
    expect(intents.map((i) => [i.amount_received, i.amount_refunded])).toEqual([
      [20000, 0],
      [10000, 0],
    ]);
  });
});
