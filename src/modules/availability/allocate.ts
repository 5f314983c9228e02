/**
 * What a sale, hold or drydock period takes out of an item: the engine's check of a reserve line
 * against the busy time, and the allocation rows to write when it fits (or the refusal). Pure: the
 * InventoryLock object reads the state, calls this, and keeps the result pending.
 */
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { blockConflicts, bookingBlock, checkWindow, departuresBetween, pickAssets } from './windows';
import type { ItemContext } from './queries';
import type { BookingLine, Busy, Departure, DrydockLine, HoldLine, NewAllocation, ReserveLine, ReserveRefusal } from './types';

export type Allocation = { ok: true; allocations: NewAllocation[]; assetIds: string[]; consumedHoldIds: string[]; departure?: Departure } | ReserveRefusal;

const unavailable = (message: string, extra: Partial<ReserveRefusal> = {}): ReserveRefusal => ({
  ok: false,
  status: 409,
  code: 'unavailable',
  message,
  ...extra,
});

/**
 * Checks `line` against `busy` (written allocations and reservations pending in the lock) and
 * answers the rows to write. `holds` are the item's active holds (id and e-mail): a booking by a
 * holder's e-mail may use the held unit, and consumes the hold.
 */
export function allocate(ctx: ItemContext, busy: Busy[], line: ReserveLine, now: number, holds: { id: string; email: string }[] = []): Allocation {
  try {
    return allocateOrThrow(ctx, busy, line, now, holds);
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, status: err.status, code: err.code, message: err.message, details: err.details };
    throw err;
  }
}

/** The columns every allocation row of a line shares (operator, item, owning source). */
type RowBase = Pick<NewAllocation, 'customerId' | 'itemId' | 'sourceId' | 'active'>;

/** `allocate` by the line's kind (a sale, a hold or a drydock period); an ApiError thrown by the engine becomes a refusal in `allocate`. */
function allocateOrThrow(ctx: ItemContext, busy: Busy[], line: ReserveLine, now: number, holds: { id: string; email: string }[]): Allocation {
  const base: RowBase = { customerId: ctx.row.customerId, itemId: ctx.item.id, sourceId: line.sourceId, active: true };
  if (line.kind === 'booking') return allocateBooking(ctx, busy, { line, base, now, holds });
  if (line.kind === 'hold') return allocateHold(ctx, busy, { line, base, now });
  return allocateDrydock(ctx, busy, { line, base, now });
}

/** A sale: the holder's own holds are consumed, the window checked, and a tour's departure seats or a rental's assets taken. */
function allocateBooking(
  ctx: ItemContext,
  busy: Busy[],
  { line, base, now, holds }: { line: BookingLine; base: RowBase; now: number; holds: { id: string; email: string }[] },
): Allocation {
  let consumedHoldIds: string[] = [];
  if (line.holdEmail && busy.some((b) => b.kind === 'hold')) {
    const email = line.holdEmail.trim().toLowerCase();
    consumedHoldIds = holds.filter((h) => h.email === email).map((h) => h.id);
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
    const seats = line.privateCharter ? dep.capacity : Math.max(0, line.seats ?? 1);
    const row: NewAllocation = {
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
    };
    return { ok: true, allocations: [row], assetIds: [], consumedHoldIds, departure: dep };
  }
  const assetIds = pickAssets(check, Math.max(1, line.quantity ?? 1), line.assetIds, line.preferAssetIds);
  const block = bookingBlock(ctx.item, line.start, line.end);
  const rows = assetIds.map((assetId) => ({
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
  return { ok: true, allocations: rows, assetIds, consumedHoldIds, departure: undefined };
}

/** A hold: a seat on every departure of the period that has one free (tours), or one unit free for the whole period. */
function allocateHold(ctx: ItemContext, busy: Busy[], { line, base, now }: { line: HoldLine; base: RowBase; now: number }): Allocation {
  if (ctx.item.kind === 'tour') {
    const deps = departuresBetween(ctx.item, line.start, line.end)
      .map((d) => ({ d, c: checkWindow(ctx.item, busy, { start: d.start, end: d.end, seats: 1, now, enforceRules: true }) }))
      .filter((x) => x.c.available);
    if (!deps.length) return unavailable('No departure in the next two days has a free seat to hold');
    const rows = deps.map(({ d }) => ({
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
    return { ok: true, allocations: rows, assetIds: [], consumedHoldIds: [], departure: undefined };
  }
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
  const assetIds = pickAssets(check, 1);
  const rows = assetIds.map((assetId) => ({
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
  return { ok: true, allocations: rows, assetIds, consumedHoldIds: [], departure: undefined };
}

/** A drydock period: the named assets (else the whole item) blocked, refused while it overlaps bookings, holds or another period. */
function allocateDrydock(ctx: ItemContext, busy: Busy[], { line, base, now }: { line: DrydockLine; base: RowBase; now: number }): Allocation {
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
  if (ctx.item.kind === 'tour') return { ok: true, allocations: [mk(null)], assetIds: [], consumedHoldIds: [], departure: undefined };
  const assetIds = line.assetIds ?? ctx.item.assets.map((a) => a.id);
  const rows = assetIds.map(mk);
  if (!line.assetIds) rows.push(mk(null));
  return { ok: true, allocations: rows, assetIds, consumedHoldIds: [], departure: undefined };
}
