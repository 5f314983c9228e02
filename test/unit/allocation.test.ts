/**
 * The allocation step of the availability engine (src/modules/availability/allocate.ts) and its
 * interval helpers (intervals.ts), function level on hand-built item contexts: a rental pool with
 * a turnaround buffer and a seat-based tour, against random busy time and random request sequences.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { allocate, type Allocation } from '../../src/modules/availability/allocate';
import { DAY, HOUR, MIN, fromMinutes, overlaps, toMinutes } from '../../src/modules/availability/intervals';
import type { ItemContext } from '../../src/modules/availability/queries';
import type { Busy, BookingLine, NewAllocation } from '../../src/modules/availability/types';
import { InventoryData, WEEKDAY_NAMES, type InventoryDataInput } from '../../src/modules/inventory/model';

const RUNS = { numRuns: 200 };
const T0 = Date.UTC(2030, 0, 7); // a Monday, UTC
const NOW = T0 - DAY;
const allDay = Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, { open: '00:00', close: '00:00' }]));

/** An item context as the lock object builds it, without D1: 3 active assets and 1 inactive one for rentals. */
function context(data: Partial<InventoryDataInput>): ItemContext {
  const kind = data.type === 'tour' ? 'tour' : 'rental';
  const model = InventoryData.parse({ name: 'Unit', locationId: 'loc_unit', operatingHours: allDay, ...data });
  const assets = ['a1', 'a2', 'a3', 'a4'].map((id, i) => ({ id, name: id, status: i === 3 ? ('inactive' as const) : ('active' as const), displayOrder: i }));
  return {
    row: { customerId: 'cus_unit' } as ItemContext['row'],
    item: { id: 'inv_unit', kind, model, timezone: 'UTC', assets: kind === 'tour' ? [] : assets },
    location: {} as ItemContext['location'],
    currency: 'usd',
  };
}

const booking = (over: Partial<BookingLine>): BookingLine => ({ kind: 'booking', sourceId: 'bk_new', start: T0, end: T0 + HOUR, enforceRules: false, ...over });
/** Written rows as the busy time of the next check. */
const asBusy = (rows: NewAllocation[]): Busy[] =>
  rows.map(({ id, sourceId, kind, assetId, start, end, blockedStart, blockedEnd, seats, expiresAt }) => ({
    id,
    sourceId,
    kind,
    assetId,
    start,
    end,
    blockedStart,
    blockedEnd,
    seats,
    expiresAt,
  }));
const okOf = (a: Allocation) => (a.ok ? a : expect.unreachable(`refused: ${a.message}`));

describe('intervals', () => {
  it('overlaps is symmetric, half-open, and true exactly when the intervals share a point', () => {
    const iv = fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 20 })).map(([s, len]) => [s, s + len] as const);
    fc.assert(
      fc.property(iv, iv, ([as, ae], [bs, be]) => {
        expect(overlaps(as, ae, bs, be)).toBe(overlaps(bs, be, as, ae));
        expect(overlaps(as, ae, bs, be)).toBe(Math.max(as, bs) < Math.min(ae, be));
        expect(overlaps(as, ae, ae, ae + 5)).toBe(false);
      }),
      RUNS,
    );
  });

  it('toMinutes and fromMinutes convert HH:mm both ways', () => {
    for (let m = 0; m < 24 * 60; m++) expect(toMinutes(fromMinutes(m))).toBe(m);
    expect([toMinutes('09:30'), fromMinutes(5), fromMinutes(23 * 60 + 59)]).toEqual([570, '00:05', '23:59']);
  });
});

// ------------------------------------------------------------------------------------------------
// Rentals

const bufferArb = fc.constantFrom(0, 30, 60);
/** Busy time on the pool: bookings and holds (some expired) per asset, and now and then a whole-item drydock. */
const busyArb = (buffer: number) =>
  fc
    .array(
      fc.record({
        asset: fc.constantFrom('a1', 'a2', 'a3', null),
        h: fc.integer({ min: 0, max: 60 }),
        len: fc.integer({ min: 1, max: 12 }),
        kind: fc.constantFrom('booking', 'hold', 'expired'),
      }),
      { maxLength: 8 },
    )
    .map((rows) =>
      rows.map(({ asset, h, len, kind }, i): Busy => {
        const start = T0 + h * HOUR;
        const end = start + len * HOUR;
        if (asset == null)
          return { sourceId: `dd_${i}`, kind: 'drydock', assetId: null, start, end, blockedStart: start, blockedEnd: end, seats: 0, expiresAt: null };
        return {
          sourceId: `src_${i}`,
          kind: kind === 'booking' ? 'booking' : 'hold',
          assetId: asset,
          start,
          end,
          blockedStart: start,
          blockedEnd: end + buffer * MIN,
          seats: 1,
          expiresAt: kind === 'booking' ? null : kind === 'hold' ? NOW + DAY : NOW - 1,
        };
      }),
    );
const requestArb = fc.record({
  h: fc.integer({ min: 0, max: 60 }),
  len: fc.integer({ min: 1, max: 12 }),
  quantity: fc.integer({ min: 1, max: 4 }),
  held: fc.boolean(),
});

/** Assets free for [start, end + buffer): active, not blocked by a live row on it or on the whole item. */
function freeAssets(busy: Busy[], start: number, end: number, buffer: number): string[] {
  const live = busy.filter((b) => b.expiresAt == null || b.expiresAt > NOW).filter((b) => overlaps(b.blockedStart, b.blockedEnd, start, end + buffer * MIN));
  if (live.some((b) => b.assetId == null)) return [];
  return ['a1', 'a2', 'a3'].filter((a) => !live.some((b) => b.assetId === a));
}

describe('allocate: rentals', () => {
  it('grants exactly the quantity from the free assets, with the buffer blocked, or refuses when too few are free', () => {
    fc.assert(
      fc.property(
        bufferArb.chain((buffer) => fc.tuple(fc.constant(buffer), busyArb(buffer), requestArb)),
        ([buffer, busy, { h, len, quantity, held }]) => {
          const start = T0 + h * HOUR;
          const end = start + len * HOUR;
          const free = freeAssets(busy, start, end, buffer);
          const res = allocate(
            context({ turnaroundBufferMinutes: buffer }),
            busy,
            booking({ start, end, quantity, expiresAt: held ? NOW + HOUR : undefined }),
            NOW,
          );
          expect(res.ok).toBe(free.length >= quantity);
          if (!res.ok) {
            expect([res.status, res.code]).toEqual([409, 'unavailable']);
            return;
          }
          expect(new Set(res.assetIds).size).toBe(quantity);
          expect(res.assetIds.every((a) => free.includes(a))).toBe(true);
          expect(res.allocations.map((r) => r.assetId)).toEqual(res.assetIds);
          for (const r of res.allocations) {
            expect(r).toMatchObject({ start, end, blockedStart: start, blockedEnd: end + buffer * MIN, seats: 1, kind: held ? 'hold' : 'booking' });
            expect(r).toMatchObject({ customerId: 'cus_unit', itemId: 'inv_unit', sourceId: 'bk_new', active: true });
          }
        },
      ),
      RUNS,
    );
  });

  it('a sequence of sales never puts two bookings’ blocked time on one asset at once', () => {
    fc.assert(
      fc.property(bufferArb, fc.array(requestArb, { minLength: 1, maxLength: 12 }), (buffer, requests) => {
        const ctx = context({ turnaroundBufferMinutes: buffer });
        const written: NewAllocation[] = [];
        requests.forEach(({ h, len, quantity }, i) => {
          const res = allocate(ctx, asBusy(written), booking({ sourceId: `bk_${i}`, start: T0 + h * HOUR, end: T0 + (h + len) * HOUR, quantity }), NOW);
          if (res.ok) written.push(...res.allocations);
        });
        for (const a of written)
          for (const b of written)
            if (a !== b && a.assetId === b.assetId) expect(overlaps(a.blockedStart, a.blockedEnd, b.blockedStart, b.blockedEnd)).toBe(false);
        expect(written.every((r) => r.assetId !== 'a4')).toBe(true);
      }),
      RUNS,
    );
  });

  it('a renter’s own hold does not block them, and their booking consumes it', () => {
    const ctx = context({});
    const one = { ...ctx, item: { ...ctx.item, assets: ctx.item.assets.slice(0, 1) } };
    const hold: Busy = {
      sourceId: 'hold_1',
      kind: 'hold',
      assetId: 'a1',
      start: T0,
      end: T0 + DAY,
      blockedStart: T0,
      blockedEnd: T0 + DAY,
      seats: 1,
      expiresAt: NOW + DAY,
    };
    const line = booking({ start: T0 + 2 * HOUR, end: T0 + 4 * HOUR });
    expect(allocate(one, [hold], line, NOW, [{ id: 'hold_1', email: 'ann@example.com' }]).ok).toBe(false);
    const res = okOf(allocate(one, [hold], { ...line, holdEmail: ' Ann@Example.com ' }, NOW, [{ id: 'hold_1', email: 'ann@example.com' }]));
    expect([res.assetIds, res.consumedHoldIds]).toEqual([['a1'], ['hold_1']]);
  });

  it('drydock: refused over a booking on its assets; the whole item blocks every asset and assets added later', () => {
    const ctx = context({});
    const busy = asBusy(okOf(allocate(ctx, [], booking({ start: T0, end: T0 + 2 * HOUR }), NOW)).allocations);
    const dd = { kind: 'drydock' as const, sourceId: 'dd_1', start: T0 + HOUR, end: T0 + DAY };
    const refused = allocate(ctx, busy, { ...dd, assetIds: ['a1'] }, NOW);
    expect(refused.ok ? [] : refused.conflicts?.map((c) => c.assetId)).toEqual(['a1']);
    expect(okOf(allocate(ctx, busy, { ...dd, assetIds: ['a2'] }, NOW)).allocations.map((r) => r.assetId)).toEqual(['a2']);
    expect(okOf(allocate(ctx, [], { ...dd, assetIds: null }, NOW)).allocations.map((r) => r.assetId)).toEqual(['a1', 'a2', 'a3', 'a4', null]);
    expect(allocate(ctx, [], { ...dd, assetIds: ['zz'] }, NOW)).toMatchObject({ ok: false, status: 400 });
  });
});

// ------------------------------------------------------------------------------------------------
// Tours

describe('allocate: tours', () => {
  const tour = (capacity: number) => context({ type: 'tour', timeSlots: [{ time: '09:00', durationMinutes: 120, capacity }] });
  const departure = (day: number) => T0 + day * DAY + 9 * HOUR;
  const seatRequest = fc.record({ day: fc.integer({ min: 0, max: 2 }), seats: fc.integer({ min: 1, max: 6 }), privateCharter: fc.boolean() });

  it('a sequence of sales never sells more seats than a departure holds; a charter needs it empty and takes it all', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(seatRequest, { minLength: 1, maxLength: 15 }), (capacity, requests) => {
        const ctx = tour(capacity);
        const written: NewAllocation[] = [];
        requests.forEach(({ day, seats, privateCharter }, i) => {
          const start = departure(day);
          const taken = written.filter((r) => r.start === start).reduce((s, r) => s + r.seats, 0);
          const line = booking({ sourceId: `bk_${i}`, start, end: start + 2 * HOUR, seats, privateCharter });
          const res = allocate(ctx, asBusy(written), line, NOW);
          expect(res.ok).toBe(privateCharter ? taken === 0 : taken + seats <= capacity);
          if (!res.ok) return;
          expect(res.allocations).toHaveLength(1);
          expect(res.allocations[0]).toMatchObject({ assetId: null, start, end: start + 2 * HOUR, seats: privateCharter ? capacity : seats, capacity });
          expect(res.departure).toMatchObject({ start, capacity, time: '09:00' });
          written.push(...res.allocations);
        });
        for (let day = 0; day < 3; day++)
          expect(written.filter((r) => r.start === departure(day)).reduce((s, r) => s + r.seats, 0)).toBeLessThanOrEqual(capacity);
      }),
      RUNS,
    );
  });

  it('refuses a start that is no departure, and a departure in drydock', () => {
    const ctx = tour(10);
    expect(allocate(ctx, [], booking({ start: departure(0) + 30 * MIN, end: departure(0) + 3 * HOUR }), NOW)).toMatchObject({ ok: false, status: 409 });
    const dd: Busy = {
      sourceId: 'dd',
      kind: 'drydock',
      assetId: null,
      start: T0,
      end: T0 + DAY,
      blockedStart: T0,
      blockedEnd: T0 + DAY,
      seats: 0,
      expiresAt: null,
    };
    const res = allocate(ctx, [dd], booking({ start: departure(0), end: departure(0) + 2 * HOUR }), NOW);
    expect(res.ok ? null : res.reasons?.map((r) => r.code)).toEqual(['blocked']);
    expect(allocate(ctx, [dd], booking({ start: departure(1), end: departure(1) + 2 * HOUR }), NOW).ok).toBe(true);
  });
});
