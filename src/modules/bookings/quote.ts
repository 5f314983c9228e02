/**
 * The server's price of an order without booking it (marketplace availability and holds quote
 * with it, then book with that price): the same planning and pricing as createBooking.
 */
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { loadItemContext } from '../availability/service';
import { bundlesOf, operatorSettings } from './offers';
import { quoteOrder, quoteOut } from './pricing';
import { planLines, prepareOrderLine } from './lines';
import type { BookInput } from './schemas';

export interface Quote {
  /** Cents, tax-inclusive. */
  total: number;
  currency: string;
  lines: ReturnType<typeof quoteOut>[];
  /** Tours: seats the order takes (a private charter takes the whole departure: `privateCharter`). */
  seats: number | null;
  privateCharter: boolean;
  participants: number | null;
}

export async function quoteBooking(ctx: Ctx, input: Pick<BookInput, 'rentalDetails' | 'selectedBoatAddons' | 'globalAddons'>): Promise<Quote> {
  const customerId = tenantOf(ctx);
  const settings = await operatorSettings(ctx, customerId);
  const { lines } = planLines({ rentalPricing: {}, ...input } as BookInput, bundlesOf(settings));
  const prepared = [];
  let currency = 'usd';
  for (const [i, l] of lines.entries()) {
    const item = await loadItemContext(ctx.db, l.inventoryId, customerId);
    currency = item.currency;
    prepared.push(await prepareOrderLine(input, i, ctx, item, l, true));
  }
  const quotes = quoteOrder(
    prepared.map((p) => p.input),
    {},
  );
  const tours = prepared.filter((p) => p.tour);
  return {
    total: quotes.reduce((s, q) => s + q.total, 0),
    currency,
    lines: quotes.map(quoteOut),
    seats: tours.length ? tours.reduce((s, p) => s + p.tour!.seats, 0) : null,
    privateCharter: tours.some((p) => p.tour!.privateCharter),
    participants: tours.length ? tours.reduce((s, p) => s + p.tour!.participants, 0) : null,
  };
}
