/**
 * The supplier API's reads: the tour list (every public item priced in the configuration's
 * currency), the availability calendar (start times and vacancies per date) and the availability
 * check (vacancies and the total price of the travelers asked for). Vacancies come from the same
 * engine and rules as every other sale.
 */
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { dayBounds } from '../../lib/time';
import { busyOf, datesBetween, optionHours, optionItem, quote, startTimes, vacancies, type ItemContext } from './engine';
import { durationLabel, optionId } from './options';
import type { ConfigRow } from './types';
import { publicItemIds } from './queries';
import { ticketsOf } from './travelers';

/** The option, or the ApiError that refused it (unknown option): batch answers report it per option. */
async function optionOrError(ctx: Ctx, id: string) {
  try {
    return await optionItem(ctx, id);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

const amount = (cents: number, currency: string) => ({ amount: Math.round(cents) / 100, currency: currency.toUpperCase() });
const money = (dollars: number, currency: string) => ({ amount: Math.round(dollars * 100) / 100, currency: currency.toUpperCase() });

/** Prices are exchanged in the configuration's currency only. */
export function sameCurrency(cfg: ConfigRow, item: ItemContext) {
  if (item.currency !== cfg.currency)
    throw new ApiError(
      'bad_request',
      `This product is priced in ${item.currency.toUpperCase()}; the marketplace configuration uses ${cfg.currency.toUpperCase()}`,
    );
}

function tourOf(item: ItemContext, currency: string, now: number) {
  const m = item.item.model;
  const isTour = item.item.kind === 'tour';
  const tiers = m.tourPricing?.priceTiers ?? [];
  const std = tiers.find((t) => t.isStandard) ?? tiers.find((t) => /^adult$/i.test(t.name)) ?? tiers[0];
  const options = optionHours(item, now).map((h) => {
    const dep = isTour ? (m.timeSlots?.[0]?.durationMinutes ?? null) : h == null ? null : Math.round(h * 60);
    let fromPrice: ReturnType<typeof money> | null = null;
    if (isTour && std) fromPrice = money(std.price, currency);
    if (!isTour) {
      const hourly = (m.seasons ?? []).flatMap((s) => Object.values(s.hourlyPrices ?? {}).map((p) => (typeof p === 'number' ? p : p.basePrice)));
      const daily = (m.seasons ?? []).flatMap((s) => Object.values(s.dailyPrices ?? {}));
      if (h != null && hourly.length) fromPrice = money(Math.min(...hourly) * h, currency);
      else if (daily.length) fromPrice = money(Math.min(...daily), currency);
    }
    return {
      productOptionId: optionId(item.row.id, h),
      title: isTour ? (m.tourPricing?.isPrivate ? 'Private charter' : 'Standard') : h == null ? 'Full day' : durationLabel(h),
      durationMinutes: dep,
      fromPrice,
      ageBands: isTour
        ? tiers.map((t) => ({ ageBand: t.name.toUpperCase(), price: money(t.price, currency), minAge: t.minAge ?? null, maxAge: t.maxAge ?? null }))
        : [],
    };
  });
  return {
    productCode: item.row.id,
    title: item.row.name,
    description: m.description ?? null,
    type: isTour ? ('TOUR' as const) : ('RENTAL' as const),
    images: m.images ?? [],
    location: { name: item.location.name, address: item.location.address, timezone: item.item.timezone },
    capacity: m.capacity ?? 0,
    options,
  };
}

/** POST /ota/tourlist */
export async function tourList(ctx: Ctx, cfg: ConfigRow) {
  const ids = await publicItemIds(ctx);
  const tours = [];
  for (const id of ids) {
    const found = await optionItem(ctx, id).catch(() => null);
    if (found && found.item.currency === cfg.currency) tours.push(tourOf(found.item, cfg.currency, ctx.clock.now()));
  }
  return { supplierId: cfg.supplierId, currency: cfg.currency.toUpperCase(), tours };
}

/** POST /ota/v2/availability/calendar */
export async function availabilityCalendar(ctx: Ctx, cfg: ConfigRow, body: { productOptionIds: string[]; startDate: string; endDate: string }) {
  const results = [];
  for (const id of [...new Set(body.productOptionIds)]) {
    const found = await optionOrError(ctx, id);
    if (found instanceof ApiError || found.item.currency !== cfg.currency) {
      results.push({ productOptionId: id, error: found instanceof ApiError ? 'UNKNOWN_PRODUCT_OPTION' : 'CURRENCY_MISMATCH', dates: [] });
      continue;
    }
    const { ref, item } = found;
    const tz = item.item.timezone;
    const dates = datesBetween(body.startDate, body.endDate);
    const busy = await busyOf(ctx, item, dayBounds(dates[0], tz).start, dayBounds(dates[dates.length - 1], tz).end);
    const out = [];
    for (const date of dates) {
      const times = [];
      for (const st of startTimes(item, ref, date, ctx.clock.now())) {
        const v = await vacancies(ctx, item, { start: st.start, end: st.end, seats: item.item.kind === 'tour' ? 1 : undefined }, busy);
        times.push({ startTime: st.time, available: v.available, vacancies: v.available ? v.vacancies : 0 });
      }
      out.push({ date, available: times.some((t) => t.available), startTimes: times });
    }
    results.push({ productOptionId: id, error: null, dates: out });
  }
  return { currency: cfg.currency.toUpperCase(), results };
}

/** POST /ota/v2/availability/check */
export async function availabilityCheck(
  ctx: Ctx,
  cfg: ConfigRow,
  body: {
    travelDate: string;
    productOptions: { productOptionId: string; startTime?: string; tickets?: { ageBand: string; quantity: number }[]; totalTravelers?: number }[];
  },
) {
  const results = [];
  for (const po of body.productOptions) {
    const found = await optionOrError(ctx, po.productOptionId);
    if (found instanceof ApiError || found.item.currency !== cfg.currency) {
      results.push({
        productOptionId: po.productOptionId,
        available: false,
        error: found instanceof ApiError ? 'UNKNOWN_PRODUCT_OPTION' : 'CURRENCY_MISMATCH',
        startTimes: [],
      });
      continue;
    }
    const { ref, item } = found;
    let demand;
    try {
      demand = ticketsOf(item, po);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      results.push({ productOptionId: po.productOptionId, available: false, error: 'INVALID_TRAVELERS', startTimes: [] });
      continue;
    }
    const tz = item.item.timezone;
    const { start, end } = dayBounds(body.travelDate, tz);
    const busy = await busyOf(ctx, item, start, end);
    const times = startTimes(item, ref, body.travelDate, ctx.clock.now()).filter((st) => !po.startTime || st.time === po.startTime);
    const out = [];
    for (const st of times.slice(0, 48)) {
      const v = await vacancies(ctx, item, { start: st.start, end: st.end, seats: item.item.kind === 'tour' ? demand.seatsHint : undefined }, busy);
      let totalPrice: ReturnType<typeof amount> | null = null;
      if (v.available) {
        const q = await quote(ctx, item, st, demand.tickets, demand.travelers).catch(() => null);
        totalPrice = q ? amount(q.total, q.currency) : null;
        if (q && item.item.kind === 'tour' && q.seats != null && q.seats > v.vacancies) v.available = false;
      }
      out.push({ startTime: st.time, available: v.available, vacancies: v.available ? v.vacancies : 0, totalPrice: v.available ? totalPrice : null });
    }
    results.push({
      productOptionId: po.productOptionId,
      available: out.some((t) => t.available),
      error: times.length ? null : 'NO_START_TIME',
      startTimes: out,
    });
  }
  return { travelDate: body.travelDate, currency: cfg.currency.toUpperCase(), results };
}
