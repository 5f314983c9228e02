import { DurableObject } from 'cloudflare:workers';
import { and, eq, gt, lt, ne, or, inArray } from 'drizzle-orm';
import type { Env } from '../src/env';
import type { SlipLockReserve, SlipLockRpc } from './slip-lock-protocol';
import { getDb } from '../src/db/client';
import { newId } from '../src/lib/ids';
import { wallClock } from '../src/lib/clock';
import { slips } from '../src/db/schema/slips';
import { slipReservations } from '../src/db/schema/slip-reservations';
import { isBlocking, SLIP_LOCK_TTL_MS, type SlipConflict, type SlipReserveResult } from '../src/modules/slip-reservations/types';

interface Pending {
  id: string;
  reservationId: string;
  arrivalDate: string;
  departureDate: string;
  expiresAt: number;
}

const STORAGE_KEY = 'pending';

/** The object's pending entries (SLIP_LOCK_TTL_MS) are short technical leases: real time. */
const leaseNow = (): number => wallClock.now();

/**
 * One object per marina unit (`idFromName(slipId)`), following the protocol of InventoryLock
 * (durable-objects/inventory-lock.ts): every reservation, transfer, date change or re-activation of
 * a unit is checked and reserved here, one at a time (`exclusive()`), against the reservations in
 * D1 plus the ones still pending in this object; the caller then charges (if it must) and writes in
 * one D1 batch, and releases. A pending entry is counted by every later check until released or
 * expired (SLIP_LOCK_TTL_MS), so a racing reservation sees the nights as pending or as written,
 * never as free. The triggers of migration `slip_reservation_guards` are the backstop in D1.
 *
 * A separate class rather than InventoryLock keyed by the unit id: InventoryLock loads an inventory
 * item and its allocations and checks time windows with the rental engine, while a slip is a marina
 * unit booked by nights with its own statuses and bill holds; sharing the class would couple two
 * engines that change for different reasons (the inventory lock is being tuned for latency).
 */
export class SlipLock extends DurableObject<Env> implements SlipLockRpc {
  private chain: Promise<unknown> = Promise.resolve();
  private pending: Map<string, Pending> | undefined;

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private pendingMap(): Map<string, Pending> {
    if (!this.pending) {
      const stored = this.ctx.storage.kv.get<Pending[]>(STORAGE_KEY) ?? [];
      this.pending = new Map(stored.map((p) => [p.id, p]));
    }
    return this.pending;
  }

  private persist() {
    const list = [...this.pendingMap().values()];
    if (list.length) this.ctx.storage.kv.put(STORAGE_KEY, list);
    else this.ctx.storage.kv.delete(STORAGE_KEY);
  }

  private livePending(now: number): Pending[] {
    const map = this.pendingMap();
    let changed = false;
    for (const [id, p] of map) {
      if (p.expiresAt <= now) {
        map.delete(id);
        changed = true;
      }
    }
    if (changed) this.persist();
    return [...map.values()];
  }

  async reserve(req: SlipLockReserve): Promise<SlipReserveResult> {
    return this.exclusive(() => this.doReserve(req));
  }

  async release(lockId: string): Promise<boolean> {
    return this.exclusive(async () => {
      const existed = this.pendingMap().delete(lockId);
      if (existed) this.persist();
      return existed;
    });
  }

  async pendingCount(): Promise<number> {
    return this.exclusive(async () => this.livePending(leaseNow()).length);
  }

  private async doReserve(req: SlipLockReserve): Promise<SlipReserveResult> {
    const now = leaseNow();
    // Bill holds' expiry is the seller's business: its "now" when it says.
    const sellerNow = req.now ?? now;
    // Snapshot the pending entries before reading D1: one released meanwhile was written first.
    const pending = this.livePending(now).filter((p) => p.reservationId !== req.reservationId);
    const db = getDb(this.env.DB);
    const slip = await db
      .select({ id: slips.id, status: slips.status, unitNumber: slips.unitNumber })
      .from(slips)
      .where(and(eq(slips.id, req.slipId), eq(slips.customerId, req.customerId)))
      .get();
    if (!slip) return { ok: false, status: 404, code: 'not_found', message: 'Slip not found' };
    if (slip.status === 'maintenance' || slip.status === 'out_of_service')
      return { ok: false, status: 409, code: 'slip_closed', message: `Unit ${slip.unitNumber} is ${slip.status.replace(/_/g, ' ')} and takes no reservations` };
    const rows = await db
      .select({
        id: slipReservations.id,
        number: slipReservations.reservationNumber,
        status: slipReservations.status,
        arrivalDate: slipReservations.arrivalDate,
        departureDate: slipReservations.departureDate,
        holdExpiresAt: slipReservations.holdExpiresAt,
      })
      .from(slipReservations)
      .where(
        and(
          eq(slipReservations.slipId, req.slipId),
          ne(slipReservations.id, req.reservationId),
          lt(slipReservations.arrivalDate, req.departureDate),
          gt(slipReservations.departureDate, req.arrivalDate),
          or(inArray(slipReservations.status, ['pending', 'confirmed', 'checked_in']), eq(slipReservations.status, 'awaiting_payment')),
        ),
      )
      .all();
    const conflicts: SlipConflict[] = rows
      .filter((r) => isBlocking(r, sellerNow))
      .map((r) => ({ reservationId: r.id, reservationNumber: r.number, status: r.status, arrivalDate: r.arrivalDate, departureDate: r.departureDate }));
    const written = new Set(rows.map((r) => r.id));
    for (const p of pending)
      if (!written.has(p.reservationId) && p.arrivalDate < req.departureDate && req.arrivalDate < p.departureDate)
        conflicts.push({
          reservationId: p.reservationId,
          reservationNumber: null,
          status: 'pending',
          arrivalDate: p.arrivalDate,
          departureDate: p.departureDate,
          pending: true,
        });
    if (conflicts.length)
      return {
        ok: false,
        status: 409,
        code: 'unavailable',
        message: `Unit ${slip.unitNumber} is already reserved for some of these nights; nothing was charged or written`,
        conflicts,
      };
    const entry: Pending = {
      id: newId('slk'),
      reservationId: req.reservationId,
      arrivalDate: req.arrivalDate,
      departureDate: req.departureDate,
      expiresAt: now + SLIP_LOCK_TTL_MS,
    };
    this.pendingMap().set(entry.id, entry);
    this.persist();
    return { ok: true, lockId: entry.id, slipId: req.slipId, expiresAt: entry.expiresAt };
  }
}
