/**
 * What structured data needs from the availability engine, in one place: whether a rental can be
 * booked in the next 30 days, and a tour's next departure with the seats left (the same month
 * views the booking widget answers from, with the sales rules applied).
 */
import type { Ctx } from '../../lib/context';
import { nowIso, nowMs, todayIn } from '../../lib/clock';
import { addDays } from '../../lib/time';
import { monthView, publicItem, type ItemContext } from '../availability/service';

export type { ItemContext };
export const liveItem = (ctx: Ctx, inventoryId: string) => publicItem(ctx, inventoryId);

export interface LiveOffer {
  inStock: boolean;
  /** Tours: the departure the Event describes (the next one from now). */
  departure?: { start: string; end: string; seatsFree: number; capacity: number };
  /** When the offer was read (the operator's "now"): the Offer's `validFrom` of a departure. */
  asOf: string;
}

export async function liveOffer(ctx: Ctx, item: ItemContext): Promise<LiveOffer> {
  const tz = item.item.timezone;
  const today = todayIn(ctx, tz);
  const asOf = nowIso(ctx);
  const last = addDays(today, 30);
  const months = [...new Set([today.slice(0, 7), last.slice(0, 7)])];
  const views = [];
  for (const m of months) views.push(await monthView(ctx, item, m, { withSlots: item.item.kind === 'tour' }));
  const days = views.flatMap((v) => v.days).filter((d) => d.date >= today && d.date <= last);
  if (item.item.kind !== 'tour') return { inStock: days.some((d) => d.available), asOf };
  const now = nowMs(ctx);
  const slots = days
    .flatMap(
      (d) => ('slots' in d && d.slots ? d.slots : []) as { startTime: string; endTime: string; available: boolean; seatsFree?: number; capacity: number }[],
    )
    .filter((s) => Date.parse(s.startTime) > now);
  const next = slots[0];
  if (!next) return { inStock: false, asOf };
  return {
    asOf,
    inStock: next.available,
    departure: { start: next.startTime, end: next.endTime, seatsFree: next.seatsFree ?? 0, capacity: next.capacity },
  };
}
