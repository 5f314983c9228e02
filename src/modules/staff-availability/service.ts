/**
 * The staff-availability module's face. No other module calls it today: its router reaches the availability reads defined here.
 *
 * Public staff availability: who of the operator's staff with a skill is free, from the staff
 * schedules (shifts, recurring ones expanded) minus their time off and the active bookings they are
 * assigned to (staff-assignments' free time).
 */
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { addDays, dayBounds, localDate } from '../../lib/time';
import { SKILLS, type Skill } from '../../lib/staff-skills';
import { getPublicLocation } from '../locations/service';
import { covers, staffStates, type Span } from '../staff-assignments/service';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const bad = (field: string, message: string) => new ApiError('bad_request', message, { details: [{ field, message }] });

const clip = (spans: Span[], w: Span) => spans.map((s) => ({ start: Math.max(s.start, w.start), end: Math.min(s.end, w.end) })).filter((s) => s.end > s.start);

/** GET /public/available-staff: staff with the skill free for the whole window. */
export async function availableStaff(ctx: Ctx, q: { locationId: string; skill: Skill; startTime: string; endTime: string }) {
  const start = Date.parse(q.startTime);
  const end = Date.parse(q.endTime);
  if (!(end > start)) throw bad('endTime', 'endTime must be after startTime');
  if (end - start > DAY) throw bad('endTime', 'The window is at most 24 hours');
  const loc = await getPublicLocation(ctx, q.locationId);
  const state = await staffStates(ctx, loc, { start, end });
  const staff = state
    .filter((m) => m.skills.includes(q.skill) && covers(m.free, { start, end }))
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
  const state = await staffStates(ctx, loc, { start, end });
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
