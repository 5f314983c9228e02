/**
 * POST /public/customer-sidekick: answers a renter's question about ONE booking (by its rental id)
 * from that booking's data only: time and place in the location's zone, what was paid and what is
 * due, party size and participants, add-ons, waiver status, and whether and with what refund it can
 * be cancelled now. Through the AI port (Workers AI when configured, else these rules); what the data
 * does not answer is answered honestly as `cannot_answer` with the operator's phone number.
 */
import type { Ctx } from '../../lib/context';
import { limitIp } from '../../lib/ip-limit';
import { formatLocalRange } from '../../lib/local-time';
import { formatMoney } from '../../lib/money';
import { onOperatorClock } from '../../lib/operator-clock';
import { createEvent } from '../booking-events/service';
import { ai, answered, cannotAnswer, type AiFact, type AiResult } from '../../adapters/ai';
import { getPublicCustomer } from '../customers/service';
import { getPublicLocation } from '../locations/service';
import { loadItemContext } from '../availability/service';
import { asRenter, eligibilityOf, partySizeOf, rentalById } from '../renter-self-service/service';

interface Topic {
  topic: string;
  re: RegExp;
  say: () => string;
}

export async function bookingSidekick(rctx: Ctx, input: { rentalId: string; message: string }, ip: string | null) {
  await limitIp(rctx, { kind: 'ai-sidekick', ip, limit: 30, windowMs: 60_000 });
  const b = await rentalById(rctx, input.rentalId);
  // The operator is known only now: whether and with what refund it can be cancelled "now" is on its clock.
  const ctx = await onOperatorClock(rctx, b.customerId);
  const [loc, customer, item, partySize, elig] = await Promise.all([
    getPublicLocation(ctx, b.locationId).catch(() => null),
    getPublicCustomer(ctx, b.customerId),
    loadItemContext(ctx.db, b.itemId, b.customerId).catch(() => null),
    partySizeOf(ctx, b),
    eligibilityOf(ctx, b),
  ]);
  const tz = loc?.timezone ?? 'UTC';
  const business = customer?.businessName ?? customer?.name ?? 'the operator';
  const itemName = item?.row.name ?? 'your rental';
  const phone = loc?.phoneNumber ?? '';
  const cur = b.currency;
  const due = Math.max(0, b.total - b.amountPaid);
  const addons = ((b.addons ?? []) as { name?: string; addonId?: string; quantity?: number }[]).map(
    (a) => `${a.name ?? a.addonId ?? 'add-on'}${a.quantity && a.quantity > 1 ? ` x${a.quantity}` : ''}`,
  );
  const signed = (((b.extendedData ?? {}) as { signedWaivers?: unknown[] }).signedWaivers ?? []).length;
  const when = formatLocalRange(b.start, b.end, tz);
  const facts: AiFact[] = [
    { label: 'Business', value: business },
    { label: 'Booked item', value: itemName },
    { label: 'Booking status', value: b.status.replace('_', ' ') },
    { label: 'When', value: when },
    { label: 'Meeting place', value: loc ? `${loc.name}, ${loc.address}` : 'not on file' },
    { label: 'Operator phone', value: phone || 'not on file' },
    { label: 'Booking total', value: formatMoney(b.total, cur) },
    { label: 'Paid so far', value: formatMoney(b.amountPaid, cur) },
    { label: 'Balance due', value: formatMoney(due, cur) },
    { label: 'Party size (most people)', value: String(partySize) },
    { label: 'Add-ons', value: addons.join(', ') || 'none' },
    { label: 'Signed waivers on the booking', value: String(signed) },
    { label: 'Cancellation now', value: elig.message },
    { label: 'Cancellation policy', value: elig.policy.description },
  ];
  const contact = phone ? `please call ${business} at ${phone}` : `please contact ${business}`;
  const topics: Topic[] = [
    {
      topic: 'time',
      re: /\b(when|what time|time|start|starts|begin|arrive|arrival|date|day|how long|duration|end|return)\b/i,
      say: () => `Your ${itemName} booking is on ${when}.`,
    },
    {
      topic: 'location',
      re: /\b(where|address|location|directions|find you|parking|meet|dock|marina)\b/i,
      say: () => (loc ? `Meet us at ${loc.name}, ${loc.address}.${phone ? ` Phone: ${phone}.` : ''}` : `The meeting place is not on file; ${contact}.`),
    },
    {
      topic: 'cancellation',
      re: /\b(cancel\w*|refund\w*|money back|resched\w*|change (the |my )?(date|time))\b/i,
      say: () => `${elig.message} Policy: ${elig.policy.description}${/resched|change/i.test(input.message) ? ` To move your booking, ${contact}.` : ''}`,
    },
    {
      topic: 'payment',
      re: /\b(price|cost|pay|paid|owe|balance|total|charge\w*|how much|deposit|receipt)\b/i,
      say: () =>
        `Your booking total is ${formatMoney(b.total, cur)}; you have paid ${formatMoney(b.amountPaid, cur)}${due > 0 ? ` and ${formatMoney(due, cur)} is due` : ''}.`,
    },
    {
      topic: 'party',
      re: /\b(people|person|guests?|party|participants?|passengers?|how many|kids?|children|friends?)\b/i,
      say: () => `Your booking is for up to ${partySize} ${partySize === 1 ? 'person' : 'people'}. You can add the names of your party from your confirmation.`,
    },
    {
      topic: 'addons',
      re: /\b(add-?ons?|extras?|includ\w*|equipment|cooler|gear)\b/i,
      say: () => (addons.length ? `Your booking includes these add-ons: ${addons.join(', ')}.` : 'Your booking has no add-ons.'),
    },
    {
      topic: 'waiver',
      re: /\b(waivers?|sign\w*|forms?|release)\b/i,
      say: () =>
        signed
          ? `${signed} signed waiver${signed === 1 ? ' is' : 's are'} on your booking.`
          : 'No waiver has been signed for this booking yet; everyone on board must sign one before departure.',
    },
    { topic: 'status', re: /\b(status|confirm\w*|booked|is my booking)\b/i, say: () => `Your booking is ${b.status.replace('_', ' ')}.` },
    {
      topic: 'contact',
      re: /\b(contact|phone|call|talk to|human|someone)\b/i,
      say: () => (phone ? `You can reach ${business} at ${phone}.` : `Please contact ${business}.`),
    },
  ];
  const fallback = (): AiResult => {
    if (/\b(weather|forecast|rain|wind|storm)\b/i.test(input.message))
      return cannotAnswer(`I cannot tell the weather. If conditions look unsafe, ${contact}.`, 'out_of_scope', ['weather']);
    const hits = topics.filter((t) => t.re.test(input.message));
    if (!hits.length)
      return cannotAnswer(
        `I can answer questions about the time, place, payment, party, add-ons, waivers and cancellation of your booking. For anything else, ${contact}.`,
        'not_in_facts',
      );
    return answered(
      hits.map((h) => h.say()).join(' '),
      hits.map((h) => h.topic),
    );
  };
  const result = await ai(ctx.env).answer({ type: 'booking_sidekick', message: input.message, facts, fallback });
  await logQuestion(ctx, b, input.message, result);
  return { rentalId: b.id, ...result };
}

/** The question and the answer's outcome, in the booking's activity log (what renters ask helps the operator). */
async function logQuestion(ctx: Ctx, b: { id: string; customerId: string }, message: string, r: AiResult) {
  await createEvent(asRenter(ctx, b, 'renter:assistant'), {
    rentalId: b.id,
    eventType: 'renter.question',
    eventLabel: 'Question to the booking assistant',
    content: message.slice(0, 2000),
    details: { status: r.status, topics: r.topics, source: r.source },
    actorName: 'Renter',
  }).catch((err) => ctx.log.warn('sidekick question not logged', { rentalId: b.id, error: String(err) }));
}
