import { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { Addon } from '../inventory/types';
import { departureAt, otherItemsAtLocationStatement, type ItemContext } from '../availability/service';
import type { BundleDef } from './offers';
import { checkAllowedDuration, datesTouched, priceAddons, rentalUnitPrice, tourQuote, type AddonSelection, type LineInput, type TourQuote } from './pricing';
import type { BookInput } from './schemas';
import { bad, inRequestFields } from './errors';

type AddonDef = z.output<typeof Addon>;
type RentalLineReq = NonNullable<BookInput['rentalDetails']['items']>[number];

interface LineReq {
  inventoryId: string;
  startTime: string;
  endTime?: string;
  quantity?: number;
  tickets?: Record<string, number>;
  participants?: number;
  assetIds?: string[];
  addons: AddonSelection[];
  globalAddons: AddonSelection[];
  linePercent?: number;
}

export interface PreparedLine {
  req: LineReq;
  item: ItemContext;
  start: number;
  end: number;
  quantity: number;
  participants: number | null;
  tour?: TourQuote;
  input: LineInput;
}

const HOUR = 3_600_000;

/** Turns rentalDetails (one item, `items`, or a bundle) into rental lines. */
/**
 * `prepareLine` of the order's line `index`: when the order lists its lines (`rentalDetails.items`,
 * no bundle), a refusal names that line's own fields (`rentalDetails.items.<index>.tickets`).
 */
export async function prepareOrderLine(input: Pick<BookInput, 'rentalDetails'>, index: number, ...args: Parameters<typeof prepareLine>): Promise<PreparedLine> {
  try {
    return await prepareLine(...args);
  } catch (err) {
    const d = input.rentalDetails;
    throw d.items && !d.bundleCode ? inRequestFields(err, (f) => `rentalDetails.items.${index}.${f}`) : err;
  }
}

export function planLines(input: BookInput, bundles: BundleDef[]): { lines: LineReq[]; bundle: BundleDef | null } {
  const d = input.rentalDetails;
  const top = { addons: input.selectedBoatAddons ?? [], globalAddons: input.globalAddons ?? [] };
  const fromLine = (l: RentalLineReq, i: number): LineReq => ({
    inventoryId: l.inventoryId,
    startTime: l.startTime,
    endTime: l.endTime,
    quantity: l.quantity,
    tickets: l.tickets,
    participants: l.participants,
    assetIds: l.assetIds,
    addons: [...(l.selectedBoatAddons ?? []), ...(i === 0 ? top.addons : [])],
    globalAddons: i === 0 ? top.globalAddons : [],
  });
  if (d.bundleCode) {
    const bundle = bundles.find((b) => b.bundleCode.toLowerCase() === d.bundleCode!.toLowerCase());
    if (!bundle) throw bad(`Unknown bundle "${d.bundleCode}"`, 'rentalDetails.bundleCode');
    const given = d.items ?? [];
    for (const g of given)
      if (!bundle.items.some((b) => b.inventoryId === g.inventoryId))
        throw bad(`Item ${g.inventoryId} is not part of bundle ${bundle.bundleCode}`, 'rentalDetails.items');
    const lines = bundle.items.map((b, i): LineReq => {
      const own = given.find((g) => g.inventoryId === b.inventoryId);
      if (own) return { ...fromLine(own, i), quantity: own.quantity ?? (own.tickets ? undefined : b.quantity), linePercent: bundle.discountPercentage };
      if (!d.startTime) throw bad(`Give startTime, or the window of ${b.inventoryId} in rentalDetails.items`, 'rentalDetails.startTime');
      return {
        inventoryId: b.inventoryId,
        startTime: d.startTime,
        endTime: d.endTime,
        quantity: b.quantity,
        participants: d.participants,
        addons: i === 0 ? top.addons : [],
        globalAddons: i === 0 ? top.globalAddons : [],
        linePercent: bundle.discountPercentage,
      };
    });
    return { lines, bundle };
  }
  if (d.items) return { lines: d.items.map(fromLine), bundle: null };
  return {
    lines: [
      {
        inventoryId: d.inventoryId!,
        startTime: d.startTime!,
        endTime: d.endTime,
        quantity: d.quantity,
        tickets: d.tickets,
        participants: d.participants,
        assetIds: d.assetIds,
        ...top,
      },
    ],
    bundle: null,
  };
}

/**
 * Global add-ons offered at a location: `isGlobal` add-ons of its items and `details.globalAddons` of
 * the location. `others`: the location's other items when the caller read them already.
 */
async function globalAddonCatalog(ctx: Ctx, item: ItemContext, others?: { id: string; data: unknown }[]): Promise<{ def: AddonDef; global: boolean }[]> {
  const out: { def: AddonDef; global: boolean }[] = [];
  const seen = new Set<string>();
  const push = (def: AddonDef) => {
    if (seen.has(def.addonId)) return;
    seen.add(def.addonId);
    out.push({ def, global: true });
  };
  for (const a of item.item.model.addons ?? []) if (a.isGlobal) push(a);
  const fromLocation = (item.location.details as Record<string, unknown>)?.globalAddons;
  if (Array.isArray(fromLocation))
    for (const raw of fromLocation) {
      const p = Addon.safeParse(raw);
      if (p.success) push(p.data);
    }
  const rows = others ?? (await otherItemsAtLocationStatement(ctx.db, item.row.id, item.row.customerId).all());
  for (const o of rows) {
    const list = Array.isArray((o.data as Record<string, unknown>)?.addons) ? ((o.data as Record<string, unknown>).addons as unknown[]) : [];
    for (const raw of list) {
      const p = Addon.safeParse(raw);
      if (p.success && p.data.isGlobal) push(p.data);
    }
  }
  return out;
}

export async function prepareLine(
  ctx: Ctx,
  item: ItemContext,
  req: LineReq,
  requirePrice: boolean,
  others?: { id: string; data: unknown }[],
): Promise<PreparedLine> {
  const start = Date.parse(req.startTime);
  let end: number;
  let tour: TourQuote | undefined;
  let quantity: number;
  let participants: number | null = req.participants ?? null;
  if (item.item.kind === 'tour') {
    const dep = departureAt(item.item, start);
    if (!dep)
      throw new ApiError('unavailable', `${item.row.name} has no departure at ${req.startTime}`, {
        extra: { reasons: [{ code: 'no_departure', message: 'No departure starts at that time' }] },
      });
    if (req.endTime && Date.parse(req.endTime) !== dep.end)
      throw bad(`The departure at ${req.startTime} ends at ${new Date(dep.end).toISOString()}`, 'rentalDetails.endTime');
    if (req.assetIds?.length) throw bad('Tours are sold by the seat: assetIds do not apply', 'rentalDetails.assetIds');
    end = dep.end;
    tour = tourQuote(item.item.model, { tickets: req.tickets, quantity: req.quantity }, { requirePrice });
    quantity = tour.participants;
    participants = tour.participants;
  } else {
    if (!req.endTime) throw bad('endTime is required for a rental', 'rentalDetails.endTime');
    end = Date.parse(req.endTime);
    if (!(end > start)) throw bad('endTime must be after startTime', 'rentalDetails.endTime');
    if (end - start > 31 * 24 * HOUR) throw bad('A rental lasts at most 31 days', 'rentalDetails.endTime');
    if (req.tickets && Object.keys(req.tickets).length) throw bad('tickets apply to tours; give quantity for a rental', 'rentalDetails.tickets');
    if (req.assetIds?.length && req.quantity != null && req.quantity !== req.assetIds.length)
      throw bad('quantity must equal the number of assetIds', 'rentalDetails.quantity');
    quantity = req.assetIds?.length ? new Set(req.assetIds).size : (req.quantity ?? 1);
    // The item's allowed durations hold on every sales path, a seller-set price included.
    checkAllowedDuration(item.item, start, end);
  }
  const hours = (end - start) / HOUR;
  const days = datesTouched(start, end, item.item.timezone).length;
  const basis = { hours, days, participants: participants ?? 1 };
  const itemCatalog = (item.item.model.addons ?? []).map((def) => ({ def, global: !!def.isGlobal }));
  const addons = [
    ...priceAddons(req.addons, itemCatalog, basis),
    ...(req.globalAddons.length ? priceAddons(req.globalAddons, await globalAddonCatalog(ctx, item, others), { ...basis, globalOnly: true }) : []),
  ];
  let rental = 0;
  let unit: LineInput['unit'] = tour ? tour.unit : 'hour';
  let season: string | null = null;
  if (tour) rental = tour.amount;
  else if (requirePrice) {
    const p = rentalUnitPrice(item.item, start, end);
    rental = p.amount * quantity;
    unit = p.unit;
    season = p.season;
  }
  const taxes = (item.item.model.taxes ?? []).map((t) => ({ name: t.name, rate: t.rate, appliesTo: t.appliesTo ?? 'all' }));
  return {
    req,
    item,
    start,
    end,
    quantity,
    participants,
    tour,
    input: { unit, hours, days, season, rental, tickets: tour?.tickets, addons, taxes, linePercent: req.linePercent },
  };
}
