/** Travelers of a marketplace request: tickets by age band mapped to the tour's fare tiers. */
import { ApiError } from '../../lib/errors';
import type { ItemContext } from './engine';

export interface Demand {
  /** Tours: tickets per fare tier name (null: `travelers` standard tickets). */
  tickets: Record<string, number> | null;
  travelers: number;
  /** Tours: seats to check before pricing (the quote gives the exact seats). */
  seatsHint: number;
}

export function ticketsOf(item: ItemContext, r: { tickets?: { ageBand: string; quantity: number }[]; totalTravelers?: number }): Demand {
  const fromTickets = (r.tickets ?? []).reduce((s, t) => s + t.quantity, 0);
  const travelers = r.totalTravelers ?? (fromTickets || 1);
  if (r.tickets?.length && r.totalTravelers != null && fromTickets !== r.totalTravelers)
    throw new ApiError('bad_request', 'totalTravelers must equal the tickets', {
      details: [{ field: 'totalTravelers', message: 'must equal the sum of tickets' }],
    });
  if (item.item.kind !== 'tour' || !r.tickets?.length) return { tickets: null, travelers, seatsHint: travelers };
  const tiers = item.item.model.tourPricing?.priceTiers ?? [];
  const tickets: Record<string, number> = {};
  for (const t of r.tickets) {
    const tier = tiers.find((x) => x.tierId === t.ageBand) ?? tiers.find((x) => x.name.toLowerCase() === t.ageBand.toLowerCase());
    if (!tier)
      throw new ApiError('bad_request', `Unknown age band "${t.ageBand}"; this tour has ${tiers.map((x) => x.name.toUpperCase()).join(', ') || 'no fares'}`, {
        details: [{ field: 'tickets', message: `unknown age band ${t.ageBand}` }],
      });
    tickets[tier.name] = (tickets[tier.name] ?? 0) + t.quantity;
  }
  return { tickets, travelers, seatsHint: travelers };
}
