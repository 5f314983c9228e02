import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../src/env';
import { bindCarried, getDb } from '../src/db/client';
import { BatchCoalescer } from '../src/db/coalesce';
import { ApiError } from '../src/lib/errors';
import { newId } from '../src/lib/ids';
import { wallClock } from '../src/lib/clock';
import { allocate, loadItemState, type ItemContext } from '../src/modules/availability/service';
import {
  RESERVATION_TTL_MS,
  type Busy,
  type CarriedReads,
  type InventoryLockRpc,
  type LockItem,
  type LockWrite,
  type LockWriteResult,
  type ReserveRefusal,
  type ReserveRequest,
  type ReserveResult,
  type SqlValue,
} from '../src/modules/availability/types';

interface Pending {
  id: string;
  expiresAt: number;
  busy: Busy[];
  /**
   * Set once the reservation is known to be written or abandoned (released, or its rows seen in
   * D1): the value of the read sequence at that moment. Reads that start later trust D1 for it;
   * reads that started earlier may have missed its rows and keep counting it.
   */
  settledAt?: number;
  /** Its caller released it (abandoned), or its rows were deleted (`forget`). */
  released?: boolean;
  /** A read saw its rows in D1: it is written, and D1 is the truth for it from then on. */
  written?: boolean;
}

/** Each pending reservation is one storage row under this prefix. */
const KEY_PREFIX = 'p:';
/** Where an older version kept the whole list. */
const LEGACY_KEY = 'pending';

/**
 * The object's own reservation leases (RESERVATION_TTL_MS) run on real time: they bound how long a
 * sale in flight may take, whatever the seller's clock. What the check decides (the past, minimum
 * notice, holds' expiry) is measured against the caller's "now" (`ReserveRequest.now`).
 */
const leaseNow = (): number => wallClock.now();

/**
 * One object per inventory item (`idFromName(itemId)`): the place where a sale of that item is
 * checked and reserved, so two racing sales can never both win. Two items never wait on each
 * other (different objects).
 *
 * A reserve is ONE D1 round trip (a batch: the item, its allocations over the window, which pending
 * rows are already written, the renter's holds, and the caller's own read when it carries one:
 * a sale's first read rides here, so the sale spends one round trip on both; reserves that arrive
 * while one is reading share the next batch, src/db/coalesce.ts), then a synchronous section (no await) that adds
 * the reservations still pending, checks with the engine and records the new reservation. The
 * read is not serialized: reads of concurrent reserves overlap, and the synchronous section is what
 * makes them exclusive (JavaScript runs one of them at a time). That is safe because a pending
 * reservation is forgotten only when no read that could have missed its rows is still running:
 *
 * - a pending reservation counts for every read until it is settled; when its rows are seen in a
 *   read's snapshot, that read counts the rows instead (pending rows carry the ids of the
 *   allocation rows they become, so they are never counted twice);
 * - it is settled when its sale's write commits through the object (`write`), when a read sees its
 *   rows (a write made elsewhere: the caller does not call back after it), when its caller releases
 *   it (abandoned, before answering a failure), or when `forget` is told its rows were deleted; it
 *   is dropped once settled that way and every read that started before it was settled has
 *   finished, or after RESERVATION_TTL_MS.
 *
 * Payment happens outside the object. A sale's write batch is built by its caller and either run
 * here (`write`, the group commit: the writes and reads of a busy item's sales share D1 calls) or
 * by the caller itself (see src/modules/availability/lock.ts). Pending reservations are kept in the
 * object's storage so an eviction does not forget them. The SQLite triggers on `allocations` stay
 * the last line of defence.
 */
export class InventoryLock extends DurableObject<Env> implements InventoryLockRpc {
  private pending: Map<string, Pending> | undefined;
  /** The item as last read from D1: its assets are not read again while its version is unchanged. */
  private itemCache: ItemContext | undefined;
  /** Read sequence: each reserve's read takes the next number; `inflight` holds those still running. */
  private seq = 0;
  private readonly inflight = new Set<number>();
  /**
   * Concurrent reserves' reads and sales' writes share D1 calls (src/db/coalesce.ts): one call per
   * wave of sales of a busy item.
   */
  private readonly batches = new BatchCoalescer((statements) => this.env.DB.batch(statements));

  private pendingMap(): Map<string, Pending> {
    if (!this.pending) {
      const kv = this.ctx.storage.kv;
      const stored = [...kv.list<Pending>({ prefix: KEY_PREFIX })].map(([, p]) => p);
      // Written by an older version of this object: the whole list under one key.
      const legacy = kv.get<Pending[]>(LEGACY_KEY);
      if (legacy) {
        for (const p of legacy) kv.put(KEY_PREFIX + p.id, p);
        kv.delete(LEGACY_KEY);
        stored.push(...legacy);
      }
      // A new instance has no read running: whatever was settled is settled before every read to come.
      this.pending = new Map(stored.map((p) => [p.id, p.settledAt === undefined ? p : { ...p, settledAt: 0 }]));
    }
    return this.pending;
  }

  /** Keeps one reservation in the object's storage (one small row per reservation, not the whole list). */
  private persist(p: Pending) {
    this.ctx.storage.kv.put(KEY_PREFIX + p.id, p);
  }

  /** Drops expired reservations and released, settled ones no running read can still need. */
  private prune(now: number) {
    const map = this.pendingMap();
    const oldestRead = this.inflight.size ? Math.min(...this.inflight) : Infinity;
    for (const [id, p] of map) {
      // Written or released, and settled before every read still running started: no read needs it.
      if (p.expiresAt <= now || ((p.released || p.written) && p.settledAt !== undefined && oldestRead > p.settledAt)) {
        map.delete(id);
        this.ctx.storage.kv.delete(KEY_PREFIX + id);
      }
    }
  }

  /** Checks a sale, hold or drydock period and, when it fits, keeps it pending and returns the rows to write. */
  async reserve(req: ReserveRequest): Promise<ReserveResult> {
    const readSeq = ++this.seq;
    this.inflight.add(readSeq);
    // The caller's carried read answers whatever the check decides (a refusal included).
    const reads: CarriedReads = {};
    try {
      return { ...(await this.doReserve(req, readSeq, reads)), ...reads };
    } catch (err) {
      if (err instanceof ApiError)
        return { ok: false, status: err.status, code: err.code, message: err.message, details: err.details, ...reads } satisfies ReserveRefusal & CarriedReads;
      throw err;
    } finally {
      this.inflight.delete(readSeq);
      this.prune(leaseNow());
    }
  }

  /**
   * Runs a sale's write batch in the object's group commit, so the sales of a busy item share their
   * D1 calls (writes and the next reserves' reads). When it commits, its reservations are settled as
   * written: reads that start later see the rows, reads already running keep counting them pending.
   * A refused batch wrote nothing and settles nothing (its caller retries or releases).
   */
  async write(req: LockWrite): Promise<LockWriteResult> {
    let raw: D1Result[];
    try {
      raw = await this.batches.batch(bindCarried(this.env.DB, req.statements));
    } catch (err) {
      const e = err as { message?: string; cause?: unknown };
      return { ok: false, error: `${e?.message ?? err}${e?.cause ? ` ${String(e.cause)}` : ''}` };
    }
    for (const id of req.reservationIds) {
      const p = this.pendingMap().get(id);
      if (!p || p.released || p.written) continue;
      p.written = true;
      p.settledAt ??= this.seq;
      if (this.inflight.size) this.persist(p);
    }
    this.prune(leaseNow());
    return {
      ok: true,
      results: raw.map((r) => ({
        results: (r.results ?? []) as Record<string, SqlValue>[],
        meta: { changes: r.meta?.changes ?? 0, last_row_id: r.meta?.last_row_id ?? 0 },
      })),
    };
  }

  /** The reservation was written, or abandoned: reads from now on trust D1 for it. */
  async release(reservationId: string): Promise<boolean> {
    const p = this.pendingMap().get(reservationId);
    if (!p || p.released) return false;
    p.released = true;
    p.settledAt ??= this.seq;
    // Stored released only while a running read may still need it; prune drops it otherwise.
    if (this.inflight.size) this.persist(p);
    this.prune(leaseNow());
    return true;
  }

  /**
   * Allocation rows deleted outright (a sandbox reset of test sales, lapsed OCTO holds purged): the
   * reservations that became them stop counting at once, as if released, even when no read saw the
   * rows before they went. Answers how many reservations it settled.
   */
  async forget(allocationIds: string[]): Promise<number> {
    const ids = new Set(allocationIds);
    let n = 0;
    for (const p of this.pendingMap().values()) {
      if (p.released || !p.busy.some((b) => ids.has(b.id!))) continue;
      p.released = true;
      p.settledAt ??= this.seq;
      if (this.inflight.size) this.persist(p);
      n++;
    }
    this.prune(leaseNow());
    return n;
  }

  /** Pending reservations not yet settled (diagnostics and tests). */
  async pendingCount(): Promise<number> {
    this.prune(leaseNow());
    return [...this.pendingMap().values()].filter((p) => p.settledAt === undefined && !p.released).length;
  }

  private async doReserve(req: ReserveRequest, readSeq: number, reads: CarriedReads): Promise<ReserveResult> {
    const line = req.line;
    // The seller's "now" decides business state (expired holds, the past, minimum notice); real time
    // only for a caller that does not say.
    const sellerNow = req.now ?? leaseNow();
    const state = await loadItemState(getDb(this.env.DB), {
      itemId: req.itemId,
      customerId: req.customerId,
      from: line.start,
      to: line.end,
      fromExact: true,
      cached: this.itemCache,
      pendingIds: [...this.pendingMap().values()].filter((p) => p.settledAt === undefined).flatMap((p) => p.busy.map((b) => b.id!)),
      holds: line.kind === 'booking' && !!line.holdEmail,
      now: sellerNow,
      ...(req.carried?.length ? { carried: { statements: req.carried, onResults: (r) => (reads.carried = r) } } : {}),
      send: (statements) => this.batches.batch(statements),
    });
    // From here to the end nothing awaits: the check and the new reservation are one step.
    const now = leaseNow();
    const ctx = state.ctx;
    if (req.withItem) reads.item = { row: ctx.row, location: ctx.location, assets: ctx.item.assets } as LockItem;
    this.itemCache = ctx;
    if (req.expectVersion != null && ctx.row.version !== req.expectVersion) {
      return { ok: false, status: 409, code: 'version_conflict', message: 'The item was changed while this request was being handled; retry' };
    }
    const written = state.busy ?? [];
    const inSnapshot = new Set([...state.writtenIds, ...written.map((b) => b.id)]);
    const map = this.pendingMap();
    const pendingBusy: Busy[] = [];
    for (const p of map.values()) {
      if (p.expiresAt <= now) continue;
      // A reservation settled before this read started is in this read's snapshot (if written).
      if (p.settledAt !== undefined && p.settledAt < readSeq) continue;
      if (p.busy.some((b) => inSnapshot.has(b.id))) {
        // Its rows are in this snapshot: written, counted from D1 (or no longer active). Settled for later reads.
        p.settledAt ??= this.seq;
        p.written = true;
        continue;
      }
      pendingBusy.push(...p.busy);
    }
    const allocation = allocate(ctx, [...written, ...pendingBusy], line, sellerNow, state.holds);
    if (!allocation.ok) return allocation;
    const reservation: Pending = {
      id: newId('rsv'),
      expiresAt: now + RESERVATION_TTL_MS,
      busy: allocation.allocations.map((r) => ({
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
    map.set(reservation.id, reservation);
    this.persist(reservation);
    return {
      ok: true,
      reservationId: reservation.id,
      itemId: ctx.item.id,
      version: ctx.row.version,
      allocations: allocation.allocations,
      assetIds: allocation.assetIds,
      consumedHoldIds: allocation.consumedHoldIds,
      departure: allocation.departure,
      expiresAt: reservation.expiresAt,
    };
  }
}
