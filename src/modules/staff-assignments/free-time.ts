/**
 * Free time of staff: their shifts at a location (recurring shifts expanded, back-to-back shifts
 * joined) minus their time off and the active bookings they are assigned to (at any location: a
 * person is in one place at a time). Public staff availability and automatic assignment read it.
 */
import type { Ctx } from '../../lib/context';
import { shiftOccurrencesAt, timeOffDuring } from '../staff-schedule/service';
import { staffAtLocation } from '../users/service';
import { busyDuring } from './queries';

export interface Span {
  start: number;
  end: number;
}

/** Sorted, merged spans (touching spans join). */
export function merge(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** `free` minus `busy`, both merged. */
export function subtract(free: Span[], busy: Span[]): Span[] {
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

/** Do the spans cover the whole window? */
export const covers = (spans: Span[], w: Span) => spans.some((s) => s.start <= w.start && s.end >= w.end);

const byStaff = (rows: { staffId: string; start: number; end: number }[]) => {
  const m = new Map<string, Span[]>();
  for (const r of rows) m.set(String(r.staffId), [...(m.get(String(r.staffId)) ?? []), { start: Number(r.start), end: Number(r.end) }]);
  return m;
};

export interface StaffState {
  staffId: string;
  displayName: string;
  skills: string[];
  /** Merged shifts at the location in the window. */
  worked: Span[];
  /** Merged time off in the window. */
  off: Span[];
  /** Merged assigned bookings in the window (`exceptRental` left out). */
  busy: Span[];
  /** worked − off − busy. */
  free: Span[];
}

/** Per staff member of the location: shifts, time off, assigned bookings and free time overlapping the window. */
export async function staffStates(
  ctx: Ctx,
  loc: { customerId: string; id: string; timezone: string },
  w: Span,
  o: { exceptRental?: string } = {},
): Promise<StaffState[]> {
  const { customerId, id: locationId, timezone } = loc;
  const [staff, shifts, off, busy] = await Promise.all([
    staffAtLocation(ctx, { customerId, locationId }),
    shiftOccurrencesAt(ctx, { customerId, locationId, timezone, from: new Date(w.start), to: new Date(w.end) }),
    timeOffDuring(ctx, { customerId, from: w.start, to: w.end }),
    busyDuring(ctx, { customerId, from: w.start, to: w.end }),
  ]);
  const workedBy = byStaff(shifts);
  const offBy = byStaff(off);
  const busyBy = byStaff(busy.filter((b) => b.rentalId !== o.exceptRental));
  return staff.map((m) => {
    const worked = merge(workedBy.get(m.staffId) ?? []);
    const offSpans = merge(offBy.get(m.staffId) ?? []);
    const busySpans = merge(busyBy.get(m.staffId) ?? []);
    return { ...m, worked, off: offSpans, busy: busySpans, free: subtract(subtract(worked, offSpans), busySpans) };
  });
}
