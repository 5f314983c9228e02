/**
 * The calendar event of a booking, shared by the private iCalendar feeds and the provider sync:
 * its content (title, description, place, times, status), a fingerprint of that content, and the
 * iCalendar version (SEQUENCE, bumped by one whenever the content changes; DTSTAMP and
 * LAST-MODIFIED = when it last changed), kept in `calendar_event_versions`.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { nowIso } from '../../lib/clock';
import { sha256Hex } from '../../lib/crypto';
import { formatLocalRange } from '../../lib/local-time';
import { calendarEventVersions } from '../../db/schema/calendar-sync';
import type { ScheduleBooking } from './queries';

export interface EventContent {
  rentalId: string;
  uid: string;
  summary: string;
  description: string;
  location: string;
  start: number;
  end: number;
  cancelled: boolean;
  createdAt: string;
}

/** Statuses whose event is shown as cancelled (feeds) or removed (provider calendars). */
const GONE = new Set(['cancelled', 'no_show']);

/**
 * Stable per booking: the same UID in every feed and provider calendar. The event's start and end
 * stay machine instants (DTSTART/DTEND in UTC); the text a person reads (the description) gives the
 * booking's times in its location's zone (lib/local-time.ts).
 */
export const eventUid = (rentalId: string) => `${rentalId}@berth`;

export function eventContent(s: ScheduleBooking): EventContent {
  const b = s.booking;
  const ci = (b.customerInfo ?? {}) as { firstName?: string; lastName?: string; email?: string; phone?: string };
  const renter = [ci.firstName, ci.lastName].filter(Boolean).join(' ') || 'Renter';
  const party = b.assetIds?.length ? `${b.assetIds.length} boat${b.assetIds.length > 1 ? 's' : ''}` : `${b.quantity} guest${b.quantity > 1 ? 's' : ''}`;
  const cancelled = GONE.has(b.status);
  const prefix = b.status === 'pending' ? '[pending] ' : cancelled ? '[cancelled] ' : '';
  return {
    rentalId: b.id,
    uid: eventUid(b.id),
    summary: `${prefix}${s.itemName}: ${renter} (${party})`,
    description: [
      `Booking ${b.id} (order ${b.transactionId})`,
      `When: ${formatLocalRange(b.start, b.end, s.location.timezone)}`,
      `Status: ${b.status}`,
      `Renter: ${renter}${ci.phone ? `, ${ci.phone}` : ''}${ci.email ? `, ${ci.email}` : ''}`,
      `Party: ${party}`,
    ].join('\n'),
    location: `${s.location.name}, ${s.location.address}`,
    start: b.start,
    end: b.end,
    cancelled,
    createdAt: b.createdAt,
  };
}

export const fingerprintOf = (e: EventContent) => sha256Hex(JSON.stringify([e.summary, e.description, e.location, e.start, e.end, e.cancelled]));

export interface EventVersion {
  sequence: number;
  changedAt: string;
  fingerprint: string;
}

const CHUNK = 90;

async function readVersions(ctx: Ctx, customerId: string, ids: string[]) {
  const out = new Map<string, EventVersion>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await ctx.db
      .select()
      .from(calendarEventVersions)
      .where(and(eq(calendarEventVersions.customerId, customerId), inArray(calendarEventVersions.rentalId, ids.slice(i, i + CHUNK))))
      .all();
    for (const r of rows) out.set(r.rentalId, { sequence: r.sequence, changedAt: r.changedAt, fingerprint: r.fingerprint });
  }
  return out;
}

/**
 * The current version of each event, bumping SEQUENCE where the content changed since last seen.
 * Each bump is a compare-and-swap on the old fingerprint, so two readers seeing the same change
 * bump it once.
 */
export async function versionsOf(ctx: Ctx, customerId: string, events: EventContent[]): Promise<Map<string, EventVersion>> {
  const prints = new Map<string, string>();
  for (const e of events) prints.set(e.rentalId, await fingerprintOf(e));
  const ids = [...prints.keys()];
  const known = await readVersions(ctx, customerId, ids);
  const now = nowIso(ctx);
  const stmts: Stmt[] = [];
  const touched: string[] = [];
  for (const [rentalId, fp] of prints) {
    const v = known.get(rentalId);
    if (!v) {
      stmts.push(ctx.db.insert(calendarEventVersions).values({ customerId, rentalId, sequence: 0, fingerprint: fp, changedAt: now }).onConflictDoNothing());
      touched.push(rentalId);
    } else if (v.fingerprint !== fp) {
      stmts.push(
        ctx.db
          .update(calendarEventVersions)
          .set({ sequence: sql`${calendarEventVersions.sequence} + 1`, fingerprint: fp, changedAt: now })
          .where(
            and(
              eq(calendarEventVersions.customerId, customerId),
              eq(calendarEventVersions.rentalId, rentalId),
              eq(calendarEventVersions.fingerprint, v.fingerprint),
            ),
          ),
      );
      touched.push(rentalId);
    }
  }
  for (let i = 0; i < stmts.length; i += 50) await ctx.db.batch(stmts.slice(i, i + 50) as [Stmt, ...Stmt[]]);
  if (touched.length) for (const [k, v] of await readVersions(ctx, customerId, touched)) known.set(k, v);
  return known;
}
