/**
 * The availability engine, service level (pure functions): DST days in three zones, buffers,
 * blocks, holds, capacity overrides, schedule exceptions, tours.
 */
import { describe, it, expect } from 'vitest';
import { InventoryData, type InventoryDataInput } from '../../../src/modules/inventory/model';
import {
  checkWindow,
  dayAvailability,
  departuresOn,
  monthAvailability,
  rentalSlotsOn,
  maintenanceBusy,
  type Busy,
  type EngineItem,
} from '../../../src/modules/availability/engine';
import { localDate, localTime, wallTimeToUtc } from '../../../src/lib/time';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-01-01T00:00:00Z');

function item(data: Partial<InventoryDataInput>, o: { tz?: string; assets?: number; kind?: 'rental' | 'tour' } = {}): EngineItem {
  const kind = o.kind ?? (data.type === 'tour' ? 'tour' : 'rental');
  const model = InventoryData.parse({ name: 'Test', locationId: 'loc_x', type: kind, ...data });
  return {
    id: 'inv_test',
    kind,
    model,
    timezone: o.tz ?? 'America/New_York',
    assets:
      kind === 'tour'
        ? []
        : Array.from({ length: o.assets ?? 1 }, (_, i) => ({ id: `a${i + 1}`, name: `Boat ${i + 1}`, status: 'active' as const, displayOrder: i })),
  };
}

const allDay = { open: '00:00', close: '00:00' };
const hoursEveryDay = (h: { open: string; close: string }) => ({ Monday: h, Tuesday: h, Wednesday: h, Thursday: h, Friday: h, Saturday: h, Sunday: h });

const booking = (assetId: string | null, start: number, end: number, extra: Partial<Busy> = {}): Busy => ({
  sourceId: `bk_${start}_${assetId}`,
  kind: 'booking',
  assetId,
  start,
  end,
  blockedStart: start,
  blockedEnd: end,
  seats: 1,
  expiresAt: null,
  ...extra,
});

const DST_DAYS: { tz: string; date: string; kind: 'spring' | 'fall'; skipped?: string; repeated?: string }[] = [
  { tz: 'America/New_York', date: '2026-03-08', kind: 'spring', skipped: '02:00' },
  { tz: 'America/New_York', date: '2026-11-01', kind: 'fall', repeated: '01:00' },
  { tz: 'Europe/Berlin', date: '2026-03-29', kind: 'spring', skipped: '02:00' },
  { tz: 'Europe/Berlin', date: '2026-10-25', kind: 'fall', repeated: '02:00' },
  { tz: 'Australia/Sydney', date: '2026-10-04', kind: 'spring', skipped: '02:00' },
  { tz: 'Australia/Sydney', date: '2026-04-05', kind: 'fall', repeated: '02:00' },
];

describe('rental slots on DST days', () => {
  for (const d of DST_DAYS) {
    it(`${d.tz} ${d.date} (${d.kind}): every hour once, at its local time, none lost or shifted`, () => {
      const it24 = item({ operatingHours: hoursEveryDay(allDay), slotIntervalMinutes: 60, durations: [1] }, { tz: d.tz });
      const slots = rentalSlotsOn(it24, d.date);
      const times = slots.map((s) => s.time);
      const expected = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`).filter((t) => t !== d.skipped);
      expect(times).toEqual(expected);
      expect(new Set(slots.map((s) => s.start)).size).toBe(slots.length);
      for (const s of slots) {
        expect(localTime(s.start, d.tz)).toBe(s.time);
        expect(localDate(s.start, d.tz)).toBe(d.date);
        expect(s.start).toBe(wallTimeToUtc(d.date, s.time, d.tz));
      }
      for (let i = 1; i < slots.length; i++) expect(slots[i].start).toBeGreaterThan(slots[i - 1].start);
      // The last one-hour slot ends at the next local midnight: the day is 23 or 25 hours long.
      const dayLength = wallTimeToUtc(d.date === '2026-03-08' ? '2026-03-09' : nextDay(d.date), '00:00', d.tz) - wallTimeToUtc(d.date, '00:00', d.tz);
      expect(dayLength).toBe(d.kind === 'spring' ? 23 * HOUR : 25 * HOUR);
    });

    it(`${d.tz} ${d.date}: business-hours slots keep 10:00 at 10:00 local`, () => {
      const biz = item({ slotIntervalMinutes: 60, durations: [2] }, { tz: d.tz });
      const slots = rentalSlotsOn(biz, d.date);
      expect(slots.map((s) => s.time)).toEqual(['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00']);
      const ten = slots.find((s) => s.time === '10:00')!;
      expect(ten.start).toBe(wallTimeToUtc(d.date, '10:00', d.tz));
      expect(localTime(ten.start, d.tz)).toBe('10:00');
      // Compared with the day before, the same local slot moved by exactly the DST change in UTC.
      const before = rentalSlotsOn(biz, prevDay(d.date)).find((s) => s.time === '10:00')!;
      const diff = ten.start - before.start;
      expect(diff).toBe(d.kind === 'spring' ? 23 * HOUR : 25 * HOUR);
    });

    it(`${d.tz} ${d.date}: tour departures in the night hours neither lost (when they exist) nor duplicated`, () => {
      const tour = item(
        {
          type: 'tour',
          capacity: 4,
          timeSlots: [
            { time: '01:30', durationMinutes: 60 },
            { time: '02:30', durationMinutes: 60 },
            { time: '10:00', durationMinutes: 90 },
          ],
        },
        { tz: d.tz, kind: 'tour' },
      );
      const deps = departuresOn(tour, d.date);
      const times = deps.map((x) => x.time);
      // Spring: 02:30 does not exist that night (left out, not moved onto 03:30). Fall: 01:30 / 02:30 repeat but run once.
      expect(times).toEqual(d.kind === 'spring' ? ['01:30', '10:00'] : ['01:30', '02:30', '10:00']);
      for (const x of deps) expect(localTime(x.start, d.tz)).toBe(x.time);
      expect(new Set(deps.map((x) => x.start)).size).toBe(deps.length);
    });
  }

  it('a month view across a DST change has every day with the same local slot times', () => {
    const biz = item({ slotIntervalMinutes: 60, durations: [1] }, { tz: 'Europe/Berlin', assets: 2 });
    const days = monthAvailability(biz, [], '2026-10', { now: NOW, withSlots: true });
    expect(days).toHaveLength(31);
    for (const day of days) {
      expect(day.slots!.map((s) => s.time)).toEqual(['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00']);
      for (const s of day.slots!) expect(localTime(s.start, 'Europe/Berlin')).toBe(s.time);
    }
  });
});

function nextDay(d: string) {
  const t = new Date(`${d}T12:00:00Z`);
  t.setUTCDate(t.getUTCDate() + 1);
  return t.toISOString().slice(0, 10);
}
function prevDay(d: string) {
  const t = new Date(`${d}T12:00:00Z`);
  t.setUTCDate(t.getUTCDate() - 1);
  return t.toISOString().slice(0, 10);
}

describe('checkWindow: rentals', () => {
  const tz = 'America/New_York';
  const t = (time: string, date = '2026-07-06') => wallTimeToUtc(date, time, tz);

  it('counts free assets and refuses when the pool is taken', () => {
    const it3 = item({}, { assets: 3 });
    const busy = [booking('a1', t('10:00'), t('12:00')), booking('a2', t('11:00'), t('13:00'))];
    const c = checkWindow(it3, busy, { start: t('10:00'), end: t('12:00'), quantity: 1, now: NOW });
    expect(c).toMatchObject({ available: true, unitsFree: 1, freeAssetIds: ['a3'] });
    const two = checkWindow(it3, busy, { start: t('10:00'), end: t('12:00'), quantity: 2, now: NOW });
    expect(two.available).toBe(false);
    expect(two.reasons[0].code).toBe('insufficient_units');
    expect(checkWindow(it3, busy, { start: t('13:00'), end: t('15:00'), quantity: 3, now: NOW }).available).toBe(true);
  });

  it('honours the turnaround buffer on both sides', () => {
    const one = item({ turnaroundBufferMinutes: 30 }, { assets: 1 });
    const busy = [booking('a1', t('10:00'), t('12:00'), { blockedEnd: t('12:30') })];
    expect(checkWindow(one, busy, { start: t('12:00'), end: t('13:00'), now: NOW }).available).toBe(false);
    expect(checkWindow(one, busy, { start: t('12:30'), end: t('13:30'), now: NOW }).available).toBe(true);
    // Before: the new booking's own buffer must end by 10:00.
    expect(checkWindow(one, busy, { start: t('08:00'), end: t('09:45'), now: NOW }).available).toBe(false);
    expect(checkWindow(one, busy, { start: t('08:00'), end: t('09:30'), now: NOW }).available).toBe(true);
  });

  it('ignores expired holds and excluded sources; counts live holds', () => {
    const one = item({}, { assets: 1 });
    const hold = (exp: number): Busy => ({
      sourceId: 'hold_1',
      kind: 'hold',
      assetId: 'a1',
      start: t('08:00'),
      end: t('18:00'),
      blockedStart: t('08:00'),
      blockedEnd: t('18:00'),
      seats: 1,
      expiresAt: exp,
    });
    expect(checkWindow(one, [hold(NOW - 1)], { start: t('10:00'), end: t('11:00'), now: NOW }).available).toBe(true);
    expect(checkWindow(one, [hold(NOW + HOUR)], { start: t('10:00'), end: t('11:00'), now: NOW }).available).toBe(false);
    expect(checkWindow(one, [hold(NOW + HOUR)], { start: t('10:00'), end: t('11:00'), now: NOW, excludeSourceIds: ['hold_1'] }).available).toBe(true);
  });

  it('drydock and maintenance: whole item or one asset', () => {
    const two = item(
      { maintenanceBlocks: [{ assetIds: ['a2'], start: new Date(t('09:00')).toISOString(), end: new Date(t('11:00')).toISOString() }] },
      { assets: 2 },
    );
    // Maintenance blocks come from the model (the loader adds them to the busy rows).
    const c = checkWindow(two, maintenanceBusy(two), { start: t('10:00'), end: t('11:00'), now: NOW });
    expect(c).toMatchObject({ available: true, unitsFree: 1, freeAssetIds: ['a1'] });
    expect(checkWindow(two, maintenanceBusy(two), { start: t('11:00'), end: t('12:00'), now: NOW }).unitsFree).toBe(2);
    const whole: Busy = {
      sourceId: 'dd_1',
      kind: 'drydock',
      assetId: null,
      start: t('00:00'),
      end: t('23:00'),
      blockedStart: t('00:00'),
      blockedEnd: t('23:00'),
      seats: 0,
      expiresAt: null,
    };
    const blocked = checkWindow(two, [whole], { start: t('10:00'), end: t('11:00'), now: NOW });
    expect(blocked.available).toBe(false);
    expect(blocked.reasons.map((r) => r.code)).toContain('blocked');
  });

  it('opening hours, closed exceptions and capacity overrides', () => {
    const it3 = item(
      {
        operatingHours: { ...hoursEveryDay({ open: '09:00', close: '17:00' }), Sunday: { open: '09:00', close: '17:00', closed: true } },
        scheduleExceptions: [
          { date: '2026-07-07', closed: true },
          { date: '2026-07-08', open: '12:00', close: '16:00' },
        ],
        capacityOverrides: [{ date: '2026-07-09', capacity: 1 }],
      },
      { assets: 3 },
    );
    expect(checkWindow(it3, [], { start: t('08:00'), end: t('10:00'), now: NOW }).reasons[0].code).toBe('outside_hours');
    expect(checkWindow(it3, [], { start: t('10:00', '2026-07-05'), end: t('12:00', '2026-07-05'), now: NOW }).reasons[0].code).toBe('closed'); // a Sunday
    expect(checkWindow(it3, [], { start: t('10:00', '2026-07-07'), end: t('12:00', '2026-07-07'), now: NOW }).reasons[0].code).toBe('closed');
    expect(checkWindow(it3, [], { start: t('10:00', '2026-07-08'), end: t('12:00', '2026-07-08'), now: NOW }).reasons[0].code).toBe('outside_hours');
    expect(checkWindow(it3, [], { start: t('12:00', '2026-07-08'), end: t('14:00', '2026-07-08'), now: NOW }).available).toBe(true);
    const capped = checkWindow(it3, [booking('a1', t('10:00', '2026-07-09'), t('12:00', '2026-07-09'))], {
      start: t('10:00', '2026-07-09'),
      end: t('11:00', '2026-07-09'),
      now: NOW,
    });
    expect(capped).toMatchObject({ available: false, unitsFree: 0 });
  });

  it('sales rules: past, notice and advance window only when enforced', () => {
    const it1 = item({ minimumNoticeHours: 24, maxAdvanceDays: 30 });
    const now = t('09:00');
    expect(checkWindow(it1, [], { start: t('12:00'), end: t('13:00'), now, enforceRules: true }).reasons[0].code).toBe('minimum_notice');
    expect(checkWindow(it1, [], { start: t('12:00'), end: t('13:00'), now }).available).toBe(true);
    expect(checkWindow(it1, [], { start: t('08:00'), end: t('08:30'), now, enforceRules: true }).reasons[0].code).toBe('in_past');
    expect(checkWindow(it1, [], { start: t('10:00', '2026-09-01'), end: t('11:00', '2026-09-01'), now, enforceRules: true }).reasons[0].code).toBe(
      'too_far_ahead',
    );
  });
});

describe('checkWindow: tours', () => {
  const tz = 'Europe/Berlin';
  const tour = item(
    {
      type: 'tour',
      capacity: 3,
      timeSlots: [
        { time: '10:00', durationMinutes: 120 },
        { time: '14:00', durationMinutes: 120, weekdays: ['Saturday'], capacity: 10 },
      ],
      capacityOverrides: [{ date: '2026-07-08', time: '10:00', capacity: 1 }],
      scheduleExceptions: [{ date: '2026-07-09', timeSlots: [{ time: '18:00', durationMinutes: 60 }] }],
    },
    { tz, kind: 'tour' },
  );
  const t = (time: string, date = '2026-07-06') => wallTimeToUtc(date, time, tz);

  it('seats left per departure; unknown starts are no departure', () => {
    const seats = (n: number, start = t('10:00')): Busy => ({
      sourceId: `s${n}${start}`,
      kind: 'booking',
      assetId: null,
      start,
      end: start + 2 * HOUR,
      blockedStart: start,
      blockedEnd: start + 2 * HOUR,
      seats: n,
      expiresAt: null,
    });
    const c = checkWindow(tour, [seats(2)], { start: t('10:00'), end: t('12:00'), seats: 1, now: NOW });
    expect(c).toMatchObject({ available: true, unitsFree: null, seatsFree: 1, capacity: 3 });
    expect(checkWindow(tour, [seats(2)], { start: t('10:00'), end: t('12:00'), seats: 2, now: NOW }).reasons[0].code).toBe('sold_out');
    expect(checkWindow(tour, [], { start: t('11:00'), end: t('12:00'), now: NOW }).reasons[0].code).toBe('no_departure');
    expect(checkWindow(tour, [], { start: t('14:00'), end: t('16:00'), now: NOW }).reasons[0].code).toBe('no_departure'); // Monday
    // Saturday slot, own capacity
    expect(checkWindow(tour, [], { start: t('14:00', '2026-07-11'), end: t('16:00', '2026-07-11'), seats: 10, now: NOW }).available).toBe(true);
    expect(checkWindow(tour, [], { start: t('10:00', '2026-07-08'), end: t('12:00', '2026-07-08'), seats: 2, now: NOW }).seatsFree).toBe(1); // override
    expect(departuresOn(tour, '2026-07-09').map((d) => d.time)).toEqual(['18:00']); // exception replaces the slots
  });

  it('a private charter needs an empty departure', () => {
    const seats: Busy = {
      sourceId: 's',
      kind: 'booking',
      assetId: null,
      start: t('10:00'),
      end: t('12:00'),
      blockedStart: t('10:00'),
      blockedEnd: t('12:00'),
      seats: 1,
      expiresAt: null,
    };
    expect(checkWindow(tour, [seats], { start: t('10:00'), end: t('12:00'), privateCharter: true, now: NOW }).available).toBe(false);
    expect(checkWindow(tour, [], { start: t('10:00'), end: t('12:00'), privateCharter: true, now: NOW }).available).toBe(true);
  });

  it('day view: departures with seats, busy intervals without names', () => {
    const v = dayAvailability(
      tour,
      [
        {
          sourceId: 'bk',
          kind: 'booking',
          assetId: null,
          start: t('10:00'),
          end: t('12:00'),
          blockedStart: t('10:00'),
          blockedEnd: t('12:00'),
          seats: 3,
          expiresAt: null,
        },
      ],
      '2026-07-06',
      { now: NOW },
    );
    expect(v.slots).toHaveLength(1);
    expect(v.slots[0]).toMatchObject({ time: '10:00', available: false, seatsFree: 0, capacity: 3 });
    expect(v.busy).toEqual([{ start: t('10:00'), end: t('12:00'), assetId: null, kind: 'booked', seats: 3 }]);
  });
});
