/**
 * The staff-availability module's face. No other module calls it today: its router reaches the availability reads defined here.
 *
 * Public staff availability: who of the operator's staff with a skill is free, from the staff
 * schedules (shifts, recurring ones expanded) minus the bookings they are assigned to
 * (`extendedData.assignedStaffIds` of pending, confirmed and checked-in bookings).
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { addDays, dayBounds, localDate } from '../../lib/time';
import { getPublicLocation } from '../locations/service';
import { shiftOccurrencesAt } from '../staff-schedule/service';
import { staffAtLocation } from '../users/service';
import { SKILLS } from './schemas';

type Skill = (typeof SKILLS)[number];
interface Span {
  start: number;
  end: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const bad = (field: string, message: string) => new ApiError('bad_request', message, { details: [{ field, message }] });

/** Sorted, merged spans (touching spans join). */
function merge(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** `free` minus `busy`, both merged. */
function subtract(free: Span[], busy: Span[]): Span[] {
  const out: Span[] = [];
  for (const f of free) {
    let cur = f.start;
    for (const b of busy) {
      if (b.end <= cur || b.start >= f.end) continue;
      if (b.start > cur) out.push({ start: cur, end: b.start });
      cur = Math.max(cur, b.end);
    }
    if (cur < f.end) out.push({ start: cur, end: f.end });
  }
  return out;
}

const clip = (spans: Span[], w: Span) => spans.map((s) => ({ start: Math.max(s.start, w.start), end: Math.min(s.end, w.end) })).filter((s) => s.end > s.start);

/** Per staff member: worked spans (shifts) and busy spans (assigned bookings) overlapping the window. */
async function loadState(ctx: Ctx, loc: { customerId: string; id: string; timezone: string }, w: Span) {
  const { customerId, id: locationId, timezone } = loc;
  const [staff, shifts, assigned] = await Promise.all([
    staffAtLocation(ctx, { customerId, locationId }),
    shiftOccurrencesAt(ctx, { customerId, locationId, timezone, from: new Date(w.start), to: new Date(w.end) }),
    ctx.db.all<{ staffId: string; start: number; end: number }>(sql`
      SELECT j.value AS staffId, b.start AS start, b."end" AS "end"
      FROM bookings b, json_each(coalesce(json_extract(b.extended_data, '$.assignedStaffIds'), '[]')) j
      WHERE b.customer_id = ${customerId} AND b.location_id = ${locationId}
        AND b.status IN ('pending', 'confirmed', 'checked_in') AND b.start < ${w.end} AND b."end" > ${w.start}`),
  ]);
  const worked = new Map<string, Span[]>();
  for (const s of shifts) worked.set(s.staffId, [...(worked.get(s.staffId) ?? []), { start: s.start, end: s.end }]);
  const busy = new Map<string, Span[]>();
  for (const a of assigned) busy.set(String(a.staffId), [...(busy.get(String(a.staffId)) ?? []), { start: Number(a.start), end: Number(a.end) }]);
  return staff.map((m) => ({
    ...m,
    free: subtract(merge(worked.get(m.staffId) ?? []), merge(busy.get(m.staffId) ?? [])),
  }));
}

/** GET /public/available-staff: staff with the skill free for the whole window. */
export async function availableStaff(ctx: Ctx, q: { locationId: string; skill: Skill; startTime: string; endTime: string }) {
  const start = Date.parse(q.startTime);
  const end = Date.parse(q.endTime);
  if (!(end > start)) throw bad('endTime', 'endTime must be after startTime');
  if (end - start > DAY) throw bad('endTime', 'The window is at most 24 hours');
  const loc = await getPublicLocation(ctx, q.locationId);
  const state = await loadState(ctx, loc, { start, end });
  const staff = state
    .filter((m) => m.skills.includes(q.skill) && m.free.some((f) => f.start <= start && f.end >= end))
    .map((m) => ({ staffId: m.staffId, displayName: m.displayName }))
    .sort((a, b) => a.displayName.localeCompare(b.displayName) || a.staffId.localeCompare(b.staffId));
  return {
    locationId: loc.id,
    timezone: loc.timezone,
    skill: q.skill,
    startTime: iso(start),
    endTime: iso(end),
    available: staff.length > 0,
    count: staff.length,
    staff,
  };
}

/** GET /public/available-staff-range: by local day and skill, the staff with free time and their free intervals. */
export async function availableStaffRange(ctx: Ctx, q: { locationId: string; start: string; end: string }) {
  const start = Date.parse(q.start);
  const end = Date.parse(q.end);
  if (!(end > start)) throw bad('end', 'end must be after start');
  if (end - start > 62 * DAY) throw bad('end', 'The range is at most 62 days');
  const loc = await getPublicLocation(ctx, q.locationId);
  const tz = loc.timezone;
  const state = await loadState(ctx, loc, { start, end });
  const days: {
    date: string;
    skills: { skill: Skill; availableCount: number; staff: { staffId: string; displayName: string; free: { startTime: string; endTime: string }[] }[] }[];
  }[] = [];
  for (let date = localDate(start, tz); ; date = addDays(date, 1)) {
    const b = dayBounds(date, tz);
    const w = { start: Math.max(b.start, start), end: Math.min(b.end, end) };
    if (b.start >= end) break;
    if (w.end <= w.start) continue;
    days.push({
      date,
      skills: SKILLS.map((skill) => {
        const staff = state
          .filter((m) => m.skills.includes(skill))
          .map((m) => ({
            staffId: m.staffId,
            displayName: m.displayName,
            free: clip(m.free, w).map((f) => ({ startTime: iso(f.start), endTime: iso(f.end) })),
          }))
          .filter((m) => m.free.length > 0)
          .sort((a, b2) => a.displayName.localeCompare(b2.displayName) || a.staffId.localeCompare(b2.staffId));
        return { skill, availableCount: staff.length, staff };
      }),
    });
  }
  return { locationId: loc.id, timezone: tz, start: iso(start), end: iso(end), days };
}
