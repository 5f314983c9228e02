import type { Ctx } from '../../lib/context';
import { todayIn } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import type { SlipBoat, SlipChargeLine } from '../../db/schema/slip-reservations';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings, type RateType, type SlipSettings } from '../marina-settings/service';
import { CLOSED_SLIP_STATUSES, fitUnit, type FitRefusal, type SlipRow } from '../slips/service';
import { pastDate, reservationErrors } from './errors';
import { depositFor, minimumDeparture, nightsBetween, PERIOD_NAME, priceReservation, type PriceResult } from './pricing';

const RATE_KEY: Record<RateType, 'nightlyPerFootCents' | 'monthlyPerFootCents' | 'seasonalPerFootCents' | 'annualPerFootCents'> = {
  nightly: 'nightlyPerFootCents',
  monthly: 'monthlyPerFootCents',
  seasonal: 'seasonalPerFootCents',
  annual: 'annualPerFootCents',
};

/** The rate per foot of a unit for a rate type: the unit's own, else the location's. */
export const rateOf = (slip: SlipRow, settings: SlipSettings, rateType: RateType) => slip.rates?.[RATE_KEY[rateType]] ?? settings.rates[RATE_KEY[rateType]];

/** Billable length: max(boat LOA, slip length). */
export const billableLength = (slip: SlipRow, boat: Pick<SlipBoat, 'loaFt'>) => Math.max(boat.loaFt, slip.lengthFt ?? 0);

/** The dates of a stay: departure after arrival, at most three years; with `rateType`, at least one period of it (`checkTerm`). */
export function checkDates(arrivalDate: string, departureDate: string, rateType?: RateType) {
  if (!(departureDate > arrivalDate))
    throw new ApiError('validation_failed', 'departureDate must be after arrivalDate', {
      details: [{ field: 'departureDate', message: 'must be after arrivalDate' }],
    });
  if (nightsBetween(arrivalDate, departureDate) > 3 * 366)
    throw new ApiError('validation_failed', 'A reservation covers at most three years', { details: [{ field: 'departureDate', message: 'at most 3 years' }] });
  if (rateType) checkTerm(rateType, arrivalDate, departureDate);
}

/**
 * 400 `stay_too_short` when a stay is shorter than one period of its rate type: a monthly stay lasts
 * at least a month (to the same day of the next month, or its last day), a seasonal one a season (six
 * months), an annual one a year. Shorter stays take a shorter rate type (nightly), so a rate per
 * period is never pro-rated below its period.
 */
export function checkTerm(rateType: RateType, arrivalDate: string, departureDate: string) {
  const min = minimumDeparture(rateType, arrivalDate);
  if (departureDate >= min) return;
  const period = PERIOD_NAME[rateType];
  throw reservationErrors.fail(
    'stay_too_short',
    `A ${rateType} stay lasts at least a ${period}${rateType === 'seasonal' ? ' (six months)' : ''}: depart on ${min} or later, or choose a shorter rate type`,
    { details: [{ field: 'departureDate', message: `at least a ${period} after arrivalDate: ${min} or later` }], extra: { minimumDepartureDate: min } },
  );
}

/** Today's date at a location: its calendar, on the context's clock. */
export async function todayAtLocation(ctx: Ctx, locationId: string): Promise<string> {
  return todayIn(ctx, (await getLocationInTenant(ctx, locationId)).timezone);
}

/** 400 `in_the_past` when `date` is before today at the location; answers today. */
export async function requireNotPast(ctx: Ctx, locationId: string, date: string, field = 'arrivalDate'): Promise<string> {
  const today = await todayAtLocation(ctx, locationId);
  if (date < today) throw pastDate(field, date, today);
  return today;
}

/** 409 `slip_does_not_fit` with every failing dimension, unless the staff override it. */
export function requireFit(slip: SlipRow, boat: SlipBoat, settings: SlipSettings, override: boolean): FitRefusal[] {
  const fit = fitUnit(slip, boat, settings.clearances);
  if (fit.length && !override)
    throw reservationErrors.fail('slip_does_not_fit', `The boat does not fit unit ${slip.unitNumber}: ${fit.map((f) => f.message).join('; ')}`, {
      extra: { fit },
    });
  return fit;
}

export function requireOpen(slip: SlipRow) {
  if (CLOSED_SLIP_STATUSES.includes(slip.status))
    throw reservationErrors.fail('slip_closed', `Unit ${slip.unitNumber} is ${slip.status.replace(/_/g, ' ')} and takes no reservations`);
}

export interface PricingOverrides {
  ratePerFootCents?: number;
  fees?: SlipChargeLine[];
  utilities?: SlipChargeLine[];
  taxRatePercent?: number;
  discountCents?: number;
}

export function quote(
  slip: SlipRow,
  settings: SlipSettings,
  r: { rateType: RateType; arrivalDate: string; departureDate: string; boat: SlipBoat },
  o: PricingOverrides,
): PriceResult {
  return priceReservation({
    rateType: r.rateType,
    arrivalDate: r.arrivalDate,
    departureDate: r.departureDate,
    ratePerFootCents: o.ratePerFootCents ?? rateOf(slip, settings, r.rateType),
    billableLengthFt: billableLength(slip, r.boat),
    fees: o.fees ?? settings.fees,
    utilities: o.utilities ?? settings.utilities,
    taxRatePercent: o.taxRatePercent ?? settings.taxRatePercent,
    discountCents: o.discountCents ?? 0,
  });
}

export const settingsOf = (ctx: Ctx, locationId: string) => getSlipSettings(ctx, locationId);

export function boatOf(b: Partial<SlipBoat> & { vesselName: string; loaFt: number }): SlipBoat {
  return {
    vesselName: b.vesselName,
    loaFt: b.loaFt,
    beamFt: b.beamFt ?? null,
    draftFt: b.draftFt ?? null,
    airDraftFt: b.airDraftFt ?? null,
    registration: b.registration ?? null,
    make: b.make ?? null,
    model: b.model ?? null,
    year: b.year ?? null,
    vesselType: b.vesselType ?? null,
  };
}

/** The money fields of a reservation row from a price. */
export const totalsOf = (p: PriceResult) => ({
  pricing: p.pricing,
  baseCents: p.baseCents,
  feesCents: p.feesCents,
  utilitiesCents: p.utilitiesCents,
  discountCents: p.discountCents,
  taxCents: p.taxCents,
  totalCents: p.totalCents,
});

/**
 * The price of a stay on a unit for a boat with the location's current rates, fees, utilities, tax
 * and deposit policy, and the fit of the boat (for price calculators such as the public slip pages).
 */
export async function quoteStay(
  ctx: Ctx,
  input: { slip: SlipRow; rateType: RateType; arrivalDate: string; departureDate: string; boat: Partial<SlipBoat> & { loaFt: number } },
) {
  checkDates(input.arrivalDate, input.departureDate, input.rateType);
  const settings = await settingsOf(ctx, input.slip.locationId);
  const boat = boatOf({ vesselName: input.boat.vesselName ?? 'Vessel', ...input.boat });
  const price = quote(input.slip, settings, { rateType: input.rateType, arrivalDate: input.arrivalDate, departureDate: input.departureDate, boat }, {});
  return {
    nights: price.nights,
    ...totalsOf(price),
    depositCents: depositFor(settings.deposit, price),
    fit: fitUnit(input.slip, boat, settings.clearances),
    settings,
  };
}
