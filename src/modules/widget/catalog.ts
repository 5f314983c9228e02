/**
 * GET /public/widget/catalog: what the booking widget shows before a date is chosen: the operator's
 * public items with their starting prices, lengths, fare tiers and add-ons, the locations (each with
 * its time zone), the widget's look and how payments are taken. Plain data: no renter data, nothing
 * that is not already public on the items (GET /public/widget-info answers the same per item).
 */
import { todayIn } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { notFound } from '../../lib/errors';
import { publicOrigin } from '../../lib/public-origin';
import { TEST_TOKENS } from '../../adapters/payments';
import { getPublicCustomer } from '../customers/service';
import { listPublicLocations } from '../locations/service';
import { listPublicItems, photoSources, readData, startingPrice } from '../inventory/service';
import { loadItemContext, slotLengthMinutes } from '../availability/service';
import { widgetLookOf } from '../public-settings/service';

/** The simulator's test cards as the widget's test form takes them (number -> token). */
export const TEST_CARDS: { number: string; token: string; label: string }[] = [
  { number: '4242424242424242', token: 'pm_card_visa', label: 'Visa, succeeds' },
  { number: '5555555555554444', token: 'pm_card_mastercard', label: 'Mastercard, succeeds' },
  { number: '4000000000000002', token: 'pm_card_chargeDeclined', label: 'Declined' },
  { number: '4000002500003155', token: 'pm_card_authenticationRequired', label: 'Needs authentication (refused offline)' },
];

/** Rental lengths to offer: the item's `durations`, else 1, 2 and 4 times the shortest rental (at most 12 hours). */
function lengthsOf(item: Awaited<ReturnType<typeof loadItemContext>>, today: string): number[] {
  const m = item.item.model;
  if (m.durations?.length) return [...m.durations].sort((a, b) => a - b);
  if (m.fullDayOnly) return [];
  const base = Math.max(0.5, slotLengthMinutes(item.item, today) / 60);
  return [...new Set([base, base * 2, base * 4].filter((h) => h <= 12))];
}

export async function widgetCatalog(ctx: Ctx, q: { customerId: string; locationId?: string }) {
  const customer = await getPublicCustomer(ctx, q.customerId);
  if (!customer) throw notFound('Customer');
  ctx = await onOperatorClock(ctx, customer.id);
  const locs = (await listPublicLocations(ctx, customer.id)).filter((l) => !q.locationId || l.id === q.locationId);
  if (q.locationId && !locs.length) throw notFound('Location');
  const locById = new Map(locs.map((l) => [l.id, l]));
  const origin = publicOrigin(ctx);
  const rows = (await listPublicItems(ctx, customer.id)).filter((r) => locById.has(r.locationId) && readData(r).isPublic !== false);
  const items = await Promise.all(
    rows.map(async (r) => {
      const ic = await loadItemContext(ctx.db, r.id, customer.id);
      const m = readData(r);
      const sp = startingPrice(m);
      const tp = m.tourPricing;
      return {
        inventoryId: r.id,
        name: r.name,
        type: ic.item.kind === 'tour' ? ('tour' as const) : ('rental' as const),
        locationId: r.locationId,
        description: m.description ?? null,
        category: m.category ?? null,
        image: m.images?.[0] ? photoSources(m.images[0], r.name, origin).src : null,
        photos: (m.images ?? []).map((url) => {
          const p = photoSources(url, r.name, origin);
          return { src: p.src, srcset: p.srcset, width: p.width, height: p.height, alt: p.alt };
        }),
        capacity: m.capacity ?? 1,
        units: ic.item.assets.length,
        currency: ic.currency,
        startingPrice: sp.startingPrice,
        priceUnit: sp.priceUnit,
        durations: ic.item.kind === 'tour' ? [] : lengthsOf(ic, todayIn(ctx, ic.item.timezone)),
        fullDayOnly: !!m.fullDayOnly,
        tiers: (tp?.priceTiers ?? []).map((t) => ({ tierId: t.tierId ?? null, name: t.name, price: t.price, seats: t.seats ?? 1, isStandard: !!t.isStandard })),
        isPrivate: !!tp?.isPrivate,
        minParticipants: tp?.minParticipants ?? 1,
        addons: (m.addons ?? []).map((a) => ({
          addonId: a.addonId,
          name: a.name,
          price: a.price,
          priceType: a.priceType ?? 'flat',
          maxQuantity: a.maxQuantity ?? 10,
        })),
        deposit: m.deposit?.required ? m.deposit.amount : null,
      };
    }),
  );
  const stripe = !!ctx.env.STRIPE_SECRET_KEY;
  return {
    customerId: customer.id,
    now: new Date(ctx.clock.now()).toISOString(),
    businessName: customer.businessName ?? customer.name,
    look: widgetLookOf(customer.integrations ?? {}),
    payments: {
      mode: stripe ? ('stripe' as const) : ('simulator' as const),
      publishableKey: stripe ? (ctx.env.STRIPE_PUBLISHABLE_KEY ?? null) : null,
      testCards: stripe ? [] : TEST_CARDS.filter((c) => c.token in TEST_TOKENS).map((c) => ({ number: c.number, label: c.label })),
    },
    locations: locs.map((l) => ({
      locationId: l.id,
      name: l.name,
      address: l.address,
      phoneNumber: l.phoneNumber,
      timezone: l.timezone,
      currency: l.currency,
    })),
    items,
  };
}
