/**
 * `sell(ctx, order, policy)`: the one way Berth takes time out of inventory for someone, whether it
 * is a sale (operator, widget, channel, OCTO, marketplace, waitlist offer, marina stay) or a hold
 * (holds, drydock, a reseller's reservation). A policy names what its path does in each phase;
 * `sell` runs them in this order and undoes the same way for every path:
 *
 *   read     one batch of what the sale needs (and, where it can, the reservation alongside it)
 *   plan     the lines to sell, checked (the past, the currency, the location)
 *   price    the server's price, discounts and payment sources
 *   reserve  the lock of each item (all-or-nothing); records the reservations
 *   charge   the card, the deposit hold; records each undo (refund, void)
 *   write    ONE commit (run by the first item's lock: `journal.writer`); after it nothing is undone
 *   after    events and messages (a failure here is logged: the sale is written)
 *
 * When a phase fails, the recorded undos run newest first (each logged if it fails itself), the
 * reservations are released before the answer (so a retry finds the units free at once), and the
 * error is answered as the policy says (a declined card, a used-up code) or as the database's
 * last line of defence says (a lost race: 409 `unavailable`, nothing charged). When the write
 * succeeded, the locks are not called again: the lock that ran the write settled its reservations
 * as it committed, and any other finds the written rows in D1 on its next read. A write that failed
 * in doubt (its answer lost on the way back) may have committed: a path that can tell reads whether
 * its rows are there (`landedInDoubt`) and, when they are, answers the sale as written instead of
 * undoing it.
 *
 * It lives in availability, beside the lock and the allocation writes every phase leans on, so a
 * sales path depends on availability and nothing else to sell.
 */
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { afterResponse } from '../../lib/round-trips';
import type { BatchRunner } from '../../db/client';
import { isStatementError } from '../../db/coalesce';
import { backstopConflict, isAllocationConflict, releaseAll, writeThrough, type Reservation } from './lock';

/** The phases, in the order `sell` runs them. */
export const SALE_PHASES = ['read', 'plan', 'price', 'reserve', 'charge', 'write', 'after'] as const;
export type SalePhase = (typeof SALE_PHASES)[number];

/** What a phase records of what it took, so `sell` can give it back. */
export interface SaleJournal {
  /** Reservations taken in the items' locks (released before answering on failure; on success the locks find the rows in D1). */
  held(reservations: Reservation | Reservation[]): void;
  /** A lock reservation given back early (replaced or refused): no longer released by `sell`. */
  dropped(reservations: Reservation | Reservation[]): void;
  /**
   * A lease of another lock (a slip's): released like the reservations, before answering on failure
   * and after the response on success.
   */
  leased(what: string, release: () => Promise<unknown>): void;
  /** An undo step (a refund, a void, a lock of another kind released), run newest first when a later phase fails. */
  onUndo(what: string, undo: () => Promise<unknown>): void;
  /** The write committed: nothing is undone from here on. */
  written(): void;
  /**
   * What runs the sale's write batch (`commit`'s `via`): the lock of the first item it holds, whose
   * group commit lets a busy item's sales share D1 calls and settles their reservations as it
   * commits; undefined when nothing is held (the caller's own database).
   */
  writer(ctx: Ctx): BatchRunner | undefined;
}

export type SalePhaseFn<S> = (ctx: Ctx, s: S, journal: SaleJournal) => Promise<void> | void;

/** A sales path: its state, its phases and its answers. `reserve` and `write` are what every path has. */
export type SalePolicy<O, S, R> = { [P in SalePhase]?: SalePhaseFn<S> } & {
  /** For logs: `booking`, `hold`, `drydock`, `octo.hold`, ... */
  name: string;
  /** The sale's state, from the order (no I/O). */
  begin(ctx: Ctx, order: O): S;
  reserve: SalePhaseFn<S>;
  write: SalePhaseFn<S>;
  /** What the sale answers once written. */
  answer(s: S): R;
  /** The API error for a failure (undefined: the error itself). */
  failure?(err: unknown, s: S, phase: SalePhase): unknown;
};

class Journal implements SaleJournal {
  private reservations: Reservation[] = [];
  private undos: { what: string; undo: () => Promise<unknown> }[] = [];
  private leases: { what: string; release: () => Promise<unknown> }[] = [];
  committed = false;

  held(r: Reservation | Reservation[]) {
    this.reservations.push(...(Array.isArray(r) ? r : [r]));
  }
  dropped(r: Reservation | Reservation[]) {
    const ids = new Set((Array.isArray(r) ? r : [r]).map((x) => x.reservationId));
    this.reservations = this.reservations.filter((x) => !ids.has(x.reservationId));
  }
  leased(what: string, release: () => Promise<unknown>) {
    this.leases.push({ what, release });
  }
  onUndo(what: string, undo: () => Promise<unknown>) {
    this.undos.push({ what, undo });
  }
  written() {
    this.committed = true;
    this.undos = [];
  }
  writer(ctx: Ctx) {
    return writeThrough(ctx, this.reservations);
  }

  /** Gives back what was taken: the undo steps newest first, then the reservations. */
  async unwind(ctx: Ctx, policy: string) {
    for (const { what, undo } of this.undos.reverse()) {
      await undo().catch((e) => ctx.log.error(`compensating ${what} failed`, { sale: policy, error: String(e) }));
    }
    this.undos = [];
    await Promise.all([releaseAll(ctx, this.reservations), ...this.leases.map((l) => this.release(ctx, policy, l))]);
  }

  private release(ctx: Ctx, policy: string, l: { what: string; release: () => Promise<unknown> }) {
    return l.release().catch((e) => ctx.log.warn(`${l.what} release failed`, { sale: policy, error: String(e) }));
  }

  /**
   * After the write: other locks' leases (a slip's) are released after the response. The items'
   * reservations are not: each item's lock finds the written rows in D1 on its next read and counts
   * them from there (durable-objects/inventory-lock.ts), so a sale costs no third call to its lock.
   */
  settle(ctx: Ctx, policy: string) {
    for (const l of this.leases) afterResponse(ctx, () => this.release(ctx, policy, l));
  }
}

/** Runs a sale through its policy's phases (see the file comment). */
export async function sell<O, S, R>(ctx: Ctx, order: O, policy: SalePolicy<O, S, R>): Promise<R> {
  const journal = new Journal();
  const s = policy.begin(ctx, order);
  let phase: SalePhase = 'read';
  try {
    for (const p of SALE_PHASES) {
      phase = p;
      const run = policy[p];
      if (!run) continue;
      if (p === 'after' && journal.committed) await runAfter(ctx, policy.name, () => run(ctx, s, journal));
      else await run(ctx, s, journal);
    }
  } catch (err) {
    if (journal.committed) {
      // Written: settled as on success (the locks find the rows in D1, leases go after the response); the error is answered.
      journal.settle(ctx, policy.name);
      throw err;
    }
    await journal.unwind(ctx, policy.name);
    throw answerFailure(err, s, phase, policy);
  }
  journal.settle(ctx, policy.name);
  return policy.answer(s);
}

/**
 * Whether a sale's write that failed in doubt committed after all. Berth's own refusals and a
 * statement SQLite refused (the transaction rolled back) are not in doubt: false, nothing read. Any
 * other failure (the D1 call or the lock's answer lost on the way back) may have committed: `landed`
 * reads whether the write's rows are there. True: the sale is written, and is answered so (its charge
 * is not refunded, its units not released); a failed check counts as not landed.
 */
export async function landedInDoubt(ctx: Ctx, err: unknown, landed: () => Promise<boolean>): Promise<boolean> {
  if (err instanceof ApiError || isStatementError(err)) return false;
  const found = await landed().catch(() => false);
  if (found) ctx.log.warn('sale write failed in doubt, and its rows are there: answered as written', { error: String(err) });
  return found;
}

/** The after phase of a written sale: its failure is logged, never answered (the sale stands). */
async function runAfter(ctx: Ctx, policy: string, run: () => Promise<void> | void) {
  try {
    await run();
  } catch (err) {
    ctx.log.error('sale written, after phase failed', { sale: policy, error: String(err) });
  }
}

function answerFailure<S>(err: unknown, s: S, phase: SalePhase, policy: { failure?(err: unknown, s: S, phase: SalePhase): unknown }): unknown {
  const mapped = policy.failure?.(err, s, phase);
  if (mapped !== undefined) return mapped;
  if (isAllocationConflict(err)) return backstopConflict();
  return err;
}
