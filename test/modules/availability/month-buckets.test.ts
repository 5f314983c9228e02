/**
 * The month view splits busy intervals per date (busyByDate) so each slot checks only its day's
 * intervals. It must give exactly the answers of checking every day against the whole month.
 */
import { describe, it, expect } from 'vitest';
import { InventoryData } from '../../../src/modules/inventory/model';
import { dayAvailability, liveBusy, monthAvailability, summarizeDay, type Busy, type EngineItem } from '../../../src/modules/availability/engine';
import { datesOfMonth } from '../../../src/lib/time';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-01-01T00:00:00Z');

function rental(tz: string, assets: number, extra: Record<string, unknown> = {}): EngineItem {
  const model = InventoryData.parse({ name: 'Pool', locationId: 'loc_x', type: 'rental', turnaroundBufferMinutes: 30, ...extra });
  return {
    id: 'inv_pool',
    kind: 'rental',
    model,
    timezone: tz,
    assets: Array.from({ length: assets }, (_, i) => ({ id: `a${i}`, name: `B${i}`, status: 'active' as const, displayOrder: i })),
  };
}

function tour(tz: string): EngineItem {
  const model = InventoryData.parse({
    name: 'Tour',
    locationId: 'loc_x',
    type: 'tour',
    capacity: 5,
    timeSlots: [
      { time: '09:00', durationMinutes: 120 },
      { time: '23:00', durationMinutes: 180 },
    ],
  });
  return { id: 'inv_tour', kind: 'tour', model, timezone: tz, assets: [] };
}

/** Deterministic pseudo-random busy intervals over ~5 weeks, including long drydock blocks and expired holds. */
function randomBusy(item: EngineItem, n: number, seed: number, from: number): Busy[] {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const out: Busy[] = [];
  for (let i = 0; i < n; i++) {
    const start = from + Math.floor(rnd() * 36 * 24) * HOUR - 3 * 24 * HOUR;
    const len = rnd() < 0.05 ? Math.floor(rnd() * 9 * 24) * HOUR : (1 + Math.floor(rnd() * 6)) * HOUR;
    const kind = rnd() < 0.05 ? 'drydock' : rnd() < 0.1 ? 'hold' : 'booking';
    const assetId = item.kind === 'tour' ? null : rnd() < 0.03 ? null : `a${Math.floor(rnd() * item.assets.length)}`;
    const tourStart = item.kind === 'tour' ? Date.parse(new Date(start).toISOString().slice(0, 10) + 'T14:00:00Z') : start;
    out.push({
      sourceId: `s${i}`,
      kind,
      assetId,
      start: tourStart,
      end: tourStart + len,
      blockedStart: tourStart,
      blockedEnd: tourStart + len + 30 * 60_000,
      seats: item.kind === 'tour' ? 1 + Math.floor(rnd() * 2) : 1,
      expiresAt: kind === 'hold' && rnd() < 0.5 ? NOW - 1 : null,
    });
  }
  return out;
}

function naiveMonth(item: EngineItem, busy: Busy[], month: string) {
  return datesOfMonth(month).map((date) => {
    const view = dayAvailability(item, busy, date, { now: NOW, enforceRules: false });
    return { ...summarizeDay(item, view), slots: view.slots };
  });
}

describe('month availability by per-date buckets', () => {
  for (const [label, item, month] of [
    ['rentals, New York, spring-forward month', rental('America/New_York', 10), '2026-03'],
    ['rentals, Sydney, fall-back month', rental('Australia/Sydney', 4), '2026-04'],
    ['rentals, Berlin, capacity override', rental('Europe/Berlin', 6, { capacityOverrides: [{ date: '2026-10-10', capacity: 2 }] }), '2026-10'],
    ['tour, New York, fall-back month', tour('America/New_York'), '2026-11'],
  ] as const) {
    it(`gives the same days and slots as the whole-month check: ${label}`, () => {
      const from = Date.parse(`${month}-01T00:00:00Z`);
      const busy = randomBusy(item, 1500, month.length * 7 + item.assets.length, from);
      const fast = monthAvailability(item, busy, month, { now: NOW, enforceRules: false, withSlots: true });
      expect(fast).toEqual(naiveMonth(item, liveBusy(busy, NOW), month));
      expect(fast.some((d) => d.slotsAvailable < d.slotsTotal)).toBe(true);
    });
  }
});
