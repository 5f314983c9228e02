/**
 * POST /public/boat-concierge: answers a visitor's questions about an operator's fleet and tours:
 * what there is, for how many people, from what price (the prices the booking commit charges:
 * inventory's starting prices, never anything else), and what is open on a date (the availability
 * engine's day views). Through the AI port (Workers AI when configured, else these rules); anything
 * the operator's data does not answer is `cannot_answer` with the operator's phone number.
 */
import type { Ctx } from '../../lib/context';
import { todayIn } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { limitIp } from '../../lib/ip-limit';
import { formatMoney } from '../../lib/money';
import { onOperatorClock } from '../../lib/operator-clock';
import { addDays, isoDate } from '../../lib/time';
import { ai, answered, cannotAnswer, type AiFact, type AiResult, type AiTurn } from '../../adapters/ai';
import { getPublicCustomer } from '../customers/service';
import { listPublicLocations } from '../locations/service';
import { listPublicItems, readData, startingPrice } from '../inventory/service';
import { dayView, loadItemContext } from '../availability/service';
import { cancellationPolicyOf } from '../public-settings/service';

const MAX_ITEMS_CHECKED = 12;
/** Words of item names too generic to say which item a question is about. */
const GENERIC = new Set(['boats', 'rental', 'rentals', 'charter', 'tours', 'cruise', 'private', 'sunset']);
const UNIT: Record<string, string> = { hr: 'per hour', day: 'per day', person: 'per person', charter: 'per private charter' };

interface ItemSummary {
  inventoryId: string;
  name: string;
  type: string;
  locationId: string;
  capacity: number;
  startingPrice: number | null;
  priceUnit: string | null;
  currency: string;
  availability: { date: string; status: string; openTimes: string[]; timezone: string } | null;
}

/** A date the visitor means: `selectedDate`, an ISO date in the message, or today / tomorrow in the location's zone. */
function dateMeant(ctx: Ctx, message: string, selected: string | undefined, tz: string): string | null {
  if (selected && isoDate.test(selected)) return selected;
  const iso = /\b(\d{4}-\d{2}-\d{2})\b/.exec(message);
  if (iso) return iso[1];
  const today = todayIn(ctx, tz);
  if (/\btomorrow\b/i.test(message)) return addDays(today, 1);
  if (/\btoday|tonight|this (afternoon|evening|morning)\b/i.test(message)) return today;
  return null;
}

export async function fleetConcierge(
  rctx: Ctx,
  input: { customerId: string; message: string; conversationHistory?: AiTurn[]; selectedDate?: string; locationId?: string },
  ip: string | null,
) {
  await limitIp(rctx, { kind: 'ai-concierge', ip, limit: 30, windowMs: 60_000 });
  const customer = await getPublicCustomer(rctx, input.customerId);
  if (!customer) throw notFound('Customer');
  // The operator is known only now: "today" and the day views are on its clock.
  const ctx = await onOperatorClock(rctx, customer.id);
  const locs = (await listPublicLocations(ctx, customer.id)).filter((l) => !input.locationId || l.id === input.locationId);
  if (input.locationId && !locs.length) throw notFound('Location');
  const locById = new Map(locs.map((l) => [l.id, l]));
  const rows = (await listPublicItems(ctx, customer.id)).filter((i) => locById.has(i.locationId));
  const tz = locs[0]?.timezone ?? 'UTC';
  const business = customer.businessName ?? customer.name;
  const phone = locs[0]?.phoneNumber ?? '';
  const date = dateMeant(ctx, input.message, input.selectedDate, tz);
  const items: ItemSummary[] = rows.map((r) => {
    const m = readData(r);
    const sp = startingPrice(m);
    return {
      inventoryId: r.id,
      name: r.name,
      type: m.type ?? r.kind,
      locationId: r.locationId,
      capacity: m.capacity ?? 1,
      startingPrice: sp.startingPrice,
      priceUnit: sp.priceUnit,
      currency: (m.currency ?? locById.get(r.locationId)?.currency ?? 'usd').toLowerCase(),
      availability: null,
    };
  });
  // Only items named in the message, when some are.
  const words = new Set(input.message.toLowerCase().match(/[a-z0-9äöüß]+/g) ?? []);
  const named = items.filter((i) => (i.name.toLowerCase().match(/[a-z0-9äöüß]+/g) ?? []).some((w) => w.length >= 5 && !GENERIC.has(w) && words.has(w)));
  const focus = named.length ? named : items;
  if (date) {
    await Promise.all(
      focus.slice(0, MAX_ITEMS_CHECKED).map(async (i) => {
        const ic = await loadItemContext(ctx.db, i.inventoryId, customer.id);
        const v = await dayView(ctx, ic, date);
        i.availability = { date, status: v.summary.status, openTimes: v.slots.filter((s) => s.available).map((s) => s.time), timezone: ic.item.timezone };
      }),
    );
  }
  const price = (i: ItemSummary) =>
    i.startingPrice == null
      ? `${i.name}: no price listed`
      : `${i.name}: from ${formatMoney(Math.round(i.startingPrice * 100), i.currency)} ${UNIT[i.priceUnit ?? ''] ?? ''}`.trim();
  const open = (i: ItemSummary) => {
    const a = i.availability!;
    if (a.status !== 'available') return `${i.name}: ${a.status.replace('_', ' ')} on ${a.date}`;
    const times = a.openTimes.slice(0, 4).join(', ');
    return `${i.name}: ${a.openTimes.length} start time${a.openTimes.length === 1 ? '' : 's'} open on ${a.date} (${times}${a.openTimes.length > 4 ? ', ...' : ''}, ${a.timezone} time)`;
  };
  const policy = cancellationPolicyOf(locs[0]?.details ?? null, customer.settings);
  const facts: AiFact[] = [
    { label: 'Business', value: business },
    ...locs.map((l) => ({ label: `Location ${l.name}`, value: `${l.address}; phone ${l.phoneNumber}; time zone ${l.timezone}` })),
    ...items.map((i) => ({ label: `${i.name} (${i.type}, up to ${i.capacity} people)`, value: price(i) })),
    ...focus.filter((i) => i.availability).map((i) => ({ label: `Availability of ${i.name}`, value: open(i) })),
    { label: 'Cancellation policy', value: policy.description },
  ];
  const contact = phone ? `please call ${business} at ${phone}` : `please contact ${business}`;
  const fallback = (): AiResult => {
    const m = input.message;
    if (!items.length) return cannotAnswer(`${business} has nothing bookable online at the moment; ${contact}.`, 'no_items');
    const parts: string[] = [];
    const topics: string[] = [];
    if (/\b(avail\w*|open|free|book\w*|slots?|times?|when can)\b/i.test(m) || (date && !/\b(price|cost|how much)\b/i.test(m))) {
      topics.push('availability');
      parts.push(
        date
          ? `${focus.slice(0, MAX_ITEMS_CHECKED).map(open).join('. ')}.`
          : 'Which date would you like? Pick one in the calendar and I will tell you what is open.',
      );
    }
    if (/\b(price\w*|cost\w*|how much|rates?|cheap\w*|expensive|fee)\b/i.test(m)) {
      topics.push('price');
      parts.push(`${focus.map(price).join('. ')}. The exact total (add-ons, taxes) is shown before you pay.`);
    }
    if (/\b(how many|capacity|people|persons?|guests?|group|fit|seats?)\b/i.test(m)) {
      topics.push('capacity');
      parts.push(`${focus.map((i) => `${i.name}: up to ${i.capacity} ${i.capacity === 1 ? 'person' : 'people'}`).join('. ')}.`);
    }
    if (/\b(where|address|location|directions|parking)\b/i.test(m)) {
      topics.push('location');
      parts.push(locs.map((l) => `${l.name}: ${l.address}`).join('. ') + '.');
    }
    if (/\b(cancel\w*|refund\w*)\b/i.test(m)) {
      topics.push('cancellation');
      parts.push(policy.description);
    }
    if (!parts.length && /\b(what|which|boats?|tours?|fleet|options?|rent\w*|have|offer\w*)\b/i.test(m)) {
      topics.push('fleet');
      parts.push(`${business} offers: ${items.map((i) => `${i.name} (${i.type}, up to ${i.capacity} people)`).join(', ')}.`);
    }
    if (!parts.length)
      return cannotAnswer(
        `I can tell you about the boats and tours of ${business}, their prices, capacity and what is open on a date. For anything else, ${contact}.`,
        'not_in_facts',
      );
    return answered(parts.join(' '), topics);
  };
  const result = await ai(ctx.env).answer({ type: 'fleet_concierge', message: input.message, history: input.conversationHistory, facts, fallback });
  return { customerId: customer.id, selectedDate: date, ...result, items: focus.slice(0, 50) };
}
