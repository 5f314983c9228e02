/**
 * Funnel events of the booking widget (view, date chosen, slot chosen, checkout, waitlist; `booked` is
 * written by the checkout itself, in the booking's batch) for the widget metrics. Anonymous: a random
 * visit id, the item, the date and time picked, the affiliate code and the embedding host; no personal
 * data. At most 120 events per client IP a minute (429).
 */
import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { limitIp } from '../../lib/ip-limit';
import { widgetEvents } from '../../db/schema/widget';
import { getPublicCustomer } from '../customers/service';

export type FunnelEvent = (typeof widgetEvents.$inferInsert)['event'];

export interface WidgetEventInput {
  customerId: string;
  sessionId: string;
  event: FunnelEvent;
  inventoryId?: string;
  locationId?: string;
  date?: string;
  time?: string;
  rentalId?: string;
  ref?: string;
  source?: string;
  details?: Record<string, unknown>;
}

const host = (s: string | undefined) =>
  s
    ? s
        .replace(/^https?:\/\//i, '')
        .split(/[/?#]/)[0]
        .toLowerCase()
        .slice(0, 253) || null
    : null;

export function widgetEventStmt(ctx: Ctx, e: WidgetEventInput, id = newId('wev')) {
  return ctx.db.insert(widgetEvents).values({
    id,
    customerId: e.customerId,
    locationId: e.locationId ?? null,
    inventoryId: e.inventoryId ?? null,
    sessionId: e.sessionId,
    event: e.event,
    date: e.date ?? null,
    time: e.time ?? null,
    rentalId: e.rentalId ?? null,
    ref: e.ref ?? null,
    source: host(e.source),
    details: e.details ?? null,
  });
}

/** POST /public/widget/events. */
export async function recordEvent(ctx: Ctx, e: WidgetEventInput, ip: string | null) {
  await limitIp(ctx, { kind: 'widget-events', ip, limit: 120, windowMs: 60_000 });
  if (!(await getPublicCustomer(ctx, e.customerId))) throw notFound('Customer');
  // Stamped on the operator's clock (a sandbox test clock's time).
  ctx = await onOperatorClock(ctx, e.customerId);
  const id = newId('wev');
  await widgetEventStmt(ctx, e, id).run();
  return { accepted: true, eventId: id };
}
