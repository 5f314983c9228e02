import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../src/env';
import { getDb } from '../src/db/client';
import { ApiError } from '../src/lib/errors';
import { newId } from '../src/lib/ids';
import { blockConflicts, bookingBlock, checkWindow, departuresBetween, pickAssets, type Busy } from '../src/modules/availability/engine';
import { loadActiveHolds, loadBusy, loadItemContext, type ItemContext } from '../src/modules/availability/state';
import {
  RESERVATION_TTL_MS,
  type NewAllocation,
  type ReserveRefusal,
  type ReserveRequest,
  type ReserveResult,
  type Reservation,
} from '../src/modules/availability/lock';

interface Pending {
  id: string;
  expiresAt: number;
  busy: Busy[];
}

const STORAGE_KEY = 'pending';

/**
 * One object per inventory item (`idFromName(itemId)`): the place where a sale of that item is
 * checked and reserved, so two racing sales can never both win. Two items never wait on each
 * other (different objects).
 *
 * Why a queue inside the object: storage calls of a Durable Object are input-gated, but D1 reads
 * are not, so while one request awaits D1 another may start. Every operation therefore runs in
 * `exclusive()`, one after the other: the pending reservations are snapshotted, D1 is read, the
 * engine checks, and the new reservation is recorded before the next operation starts. Payment
 * and the D1 write happen outside the object (see src/modules/availability/lock.ts); until the
 * caller releases it, the pending reservation is counted by every later check, so it is seen
 * either as pending or as written, never as neither (and once only when it is both: pending rows
 * carry the ids of the allocation rows they become). Pending reservations are also kept in the
 * object's storage so an eviction does not forget them; they expire after RESERVATION_TTL_MS.
 */
export class InventoryLock extends DurableObject<Env> {
  private chain: Promise<unknown> = Promise.resolve();
  private pending: Map<string, Pending> | undefined;
  /** The item as last read from D1, reused while callers present the same version (one D1 read less inside the lock). */
  private itemCache: ItemContext | undefined;

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

  private pendingBusy(now: number): Busy[] {
    const map = this.pendingMap();
    let changed = false;
    for (const [id, p] of map) {
      if (p.expiresAt <= now) {
        map.delete(id);
        changed = true;
      }
    }
    if (changed) this.persist();
    return [...map.values()].flatMap((p) => p.busy);
  }

  /** Checks a sale, hold or drydock period and, when it fits, keeps it pending and returns the rows to write. */
  async reserve(req: ReserveRequest): Promise<ReserveResult> {
    return this.exclusive(async () => {
      try {
        return await this.doReserve(req);
      } catch (err) {
        if (err instanceof ApiError)
          return { ok: false, status: err.status, code: err.code, message: err.message, details: err.details } satisfies ReserveRefusal;
        throw err;
      }
    });
  }

  /** Drops a pending reservation (after its rows were written, or after a failure). */
  async release(reservationId: string): Promise<boolean> {
    return this.exclusive(async () => {
      const existed = this.pendingMap().delete(reservationId);
      if (existed) this.persist();
      return existed;
    });
  }

  /** Pending reservations (diagnostics and tests). */
  async pendingCount(): Promise<number> {
    return this.exclusive(async () => this.pendingBusy(Date.now()).length);
  }

  private async doReserve(req: ReserveRequest): Promise<ReserveResult> {
    const now = Date.now();
    // Snapshot what is pending before reading D1: a reservation released meanwhile was written first.
    const pendingBusy = this.pendingBusy(now);
    const db = getDb(this.env.DB);
    // The caller read the item (at `expectVersion`) a moment ago; when this object holds that same
    // version, the D1 read is skipped. Busy time is always read fresh below.
    const cached = this.itemCache;
    const ctx =
      cached &&
      req.expectVersion != null &&
      cached.row.id === req.itemId &&
      cached.row.customerId === req.customerId &&
      cached.row.version === req.expectVersion
        ? cached
        : await loadItemContext(db, req.itemId, req.customerId);
    this.itemCache = ctx;
    if (req.expectVersion != null && ctx.row.version !== req.expectVersion) {
      return { ok: false, status: 409, code: 'version_conflict', message: 'The item was changed while this request was being handled; retry' };
    }
    const line = req.line;
    const written = await loadBusy(db, ctx, line.start, line.end, now);
    // A reservation whose rows were written but not yet released is the same time: count it once.
    const writtenIds = new Set(written.map((b) => b.id));
    const busy = [...written, ...pendingBusy.filter((b) => !writtenIds.has(b.id))];
    const base = { customerId: ctx.row.customerId, itemId: ctx.item.id, sourceId: line.sourceId, active: true };
    let rows: NewAllocation[] = [];
    let assetIds: string[] = [];
    let consumedHoldIds: string[] = [];
    let departure: Reservation['departure'];

    if (line.kind === 'booking') {
      if (line.holdEmail && busy.some((b) => b.kind === 'hold')) {
        const email = line.holdEmail.trim().toLowerCase();
        consumedHoldIds = (await loadActiveHolds(db, ctx, now)).filter((h) => h.email === email).map((h) => h.id);
      }
      const check = checkWindow(ctx.item, busy, {
        start: line.start,
        end: line.end,
        quantity: line.quantity,
        assetIds: line.assetIds,
        seats: line.seats,
        privateCharter: line.privateCharter,
        excludeSourceIds: [...(line.excludeSourceIds ?? []), ...consumedHoldIds],
        enforceRules: line.enforceRules,
        now,
      });
      if (!check.available)
        return unavailable(check.reasons.map((r) => r.message).join('; '), { reasons: check.reasons, unitsFree: check.unitsFree, seatsFree: check.seatsFree });
      if (ctx.item.kind === 'tour') {
        const dep = check.departure!;
        departure = dep;
        const seats = line.privateCharter ? dep.capacity : Math.max(0, line.seats ?? 1);
        rows = [
          {
            ...base,
            id: newId('alc'),
            kind: line.expiresAt ? 'hold' : 'booking',
            assetId: null,
            start: dep.start,
            end: dep.end,
            blockedStart: dep.start,
            blockedEnd: dep.end,
            seats,
            capacity: dep.capacity,
            expiresAt: line.expiresAt ?? null,
          },
        ];
      } else {
        assetIds = pickAssets(check, Math.max(1, line.quantity ?? 1), line.assetIds, line.preferAssetIds);
        const block = bookingBlock(ctx.item, line.start, line.end);
        rows = assetIds.map((assetId) => ({
          ...base,
          id: newId('alc'),
          kind: line.expiresAt ? ('hold' as const) : ('booking' as const),
          assetId,
          start: line.start,
          end: line.end,
          ...block,
          seats: 1,
          capacity: null,
          expiresAt: line.expiresAt ?? null,
        }));
      }
    } else if (line.kind === 'hold') {
      if (ctx.item.kind === 'tour') {
        const deps = departuresBetween(ctx.item, line.start, line.end)
          .map((d) => ({ d, c: checkWindow(ctx.item, busy, { start: d.start, end: d.end, seats: 1, now, enforceRules: true }) }))
          .filter((x) => x.c.available);
        if (!deps.length) return unavailable('No departure in the next two days has a free seat to hold');
        rows = deps.map(({ d }) => ({
          ...base,
          id: newId('alc'),
          kind: 'hold' as const,
          assetId: null,
          start: d.start,
          end: d.end,
          blockedStart: d.start,
          blockedEnd: d.end,
          seats: 1,
          capacity: d.capacity,
          expiresAt: line.expiresAt,
        }));
      } else {
        const check = checkWindow(ctx.item, busy, {
          start: line.start,
          end: line.end,
          quantity: 1,
          ignoreHours: true,
          now,
          excludeSourceIds: line.excludeSourceIds,
        });
        if (!check.available)
          return unavailable(`No unit is free for the whole hold period: ${check.reasons.map((r) => r.message).join('; ')}`, {
            reasons: check.reasons,
            unitsFree: check.unitsFree,
          });
        assetIds = pickAssets(check, 1);
        rows = assetIds.map((assetId) => ({
          ...base,
          id: newId('alc'),
          kind: 'hold' as const,
          assetId,
          start: line.start,
          end: line.end,
          blockedStart: line.start,
          blockedEnd: line.end,
          seats: 1,
          capacity: null,
          expiresAt: line.expiresAt,
        }));
      }
    } else {
      const known = new Set(ctx.item.assets.map((a) => a.id));
      const unknown = (line.assetIds ?? []).filter((id) => !known.has(id));
      if (unknown.length)
        return {
          ok: false,
          status: 400,
          code: 'bad_request',
          message: `Not assets of this item: ${unknown.join(', ')}`,
          details: [{ field: 'assetIds', message: 'unknown asset' }],
        };
      const conflicts = blockConflicts(ctx.item, busy, {
        start: line.start,
        end: line.end,
        assetIds: line.assetIds,
        now,
        excludeSourceIds: line.excludeSourceIds,
      });
      if (conflicts.length) {
        return unavailable('The period overlaps bookings, holds or another drydock period; move or cancel them first', {
          conflicts: conflicts.map((c) => ({
            sourceId: c.sourceId,
            kind: c.kind,
            assetId: c.assetId,
            start: new Date(c.start).toISOString(),
            end: new Date(c.end).toISOString(),
          })),
        });
      }
      const mk = (assetId: string | null): NewAllocation => ({
        ...base,
        id: newId('alc'),
        kind: 'drydock',
        assetId,
        start: line.start,
        end: line.end,
        blockedStart: line.start,
        blockedEnd: line.end,
        seats: 0,
        capacity: null,
        expiresAt: null,
      });
      if (ctx.item.kind === 'tour') rows = [mk(null)];
      else {
        assetIds = line.assetIds ?? ctx.item.assets.map((a) => a.id);
        rows = assetIds.map(mk);
        if (!line.assetIds) rows.push(mk(null));
      }
    }

    const reservation: Pending = {
      id: newId('rsv'),
      expiresAt: now + RESERVATION_TTL_MS,
      busy: rows.map((r) => ({
        id: r.id,
        sourceId: r.sourceId,
        kind: r.kind,
        assetId: r.assetId,
        start: r.start,
        end: r.end,
        blockedStart: r.blockedStart,
        blockedEnd: r.blockedEnd,
        seats: r.seats,
        expiresAt: r.expiresAt,
      })),
    };
    this.pendingMap().set(reservation.id, reservation);
    this.persist();
    return {
      ok: true,
      reservationId: reservation.id,
      itemId: ctx.item.id,
      version: ctx.row.version,
      allocations: rows,
      assetIds,
      consumedHoldIds,
      departure,
      expiresAt: reservation.expiresAt,
    };
  }
}

function unavailable(message: string, extra: Partial<ReserveRefusal> = {}): ReserveRefusal {
  return { ok: false, status: 409, code: 'unavailable', message, ...extra };
}
