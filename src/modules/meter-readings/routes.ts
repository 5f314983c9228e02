import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Meter readings'];

const USAGE = `**Usage** = this reading − the previous reading of the same unit and utility. Below the previous value the meter rolled over when the previous value is in the top tenth of the dial (10^digits) and the new one in the bottom tenth, or when \`rollover: true\` is sent: usage = reading + 10^digits − previous. Otherwise the reading is flagged \`reading_below_previous\` (no usage). A usage per day above 3× the unit's usual usage per day (its last 6 usages of the utility; at least 2 needed) is flagged \`usage_above_3x_usual\`. Flagged readings are charged to a reservation only after \`PUT {"reviewed": true}\`. A reading from another meter (\`meterId\` or digit count changed) starts a new series without usage.`;

export const list = route({
  method: 'get',
  path: '/meter-readings',
  operationId: 'listMeterReadings',
  tags,
  summary: 'Meter readings with filters',
  description: `\`locationId\`, \`slipId\` or \`reservationId\` is required; filters \`utility\`, \`billed\`, \`flagged\`, \`reservationId\` (charged to it), \`from\`/\`to\` on \`readAt\`. Newest first; \`limit\`/\`offset\` with \`total\`. Another operator's location or unit answers 404.`,
  query: s.ListQuery,
  ok: s.ReadingList,
  errors: [404],
});

export const record = route({
  method: 'post',
  path: '/meter-readings',
  operationId: 'recordMeterReading',
  tags,
  summary: 'Record a meter reading',
  description: `A reading of a unit's electricity (kWh) or water (gallons) meter. \`readAt\` (default now; later than now on the operator's clock, beyond five minutes' slack, answers 400 \`validation_failed\`) must be later than the unit's latest reading of the utility (409 \`meter_reading_out_of_order\`; correct earlier ones with PUT). ${USAGE} Two readings of one unit recorded at once are chained one after the other. Needs the \`marina\` permission.`,
  body: s.CreateBody,
  ok: s.Reading,
  status: 201,
  errors: [403, 404, 409],
});

export const stats = route({
  method: 'get',
  path: '/meter-readings/stats',
  operationId: 'getMeterReadingStats',
  tags,
  summary: 'Meter reading statistics of a location',
  description: `Readings, units read, billed and unbilled counts, flags awaiting review, and per utility the usage (billed and unbilled) and the unbilled amount at the location's rates; optionally within \`from\`/\`to\`.`,
  query: s.LocationQuery,
  ok: s.Stats,
  errors: [404],
});

export const unbilled = route({
  method: 'get',
  path: '/meter-readings/unbilled',
  operationId: 'listUnbilledMeterReadings',
  tags,
  summary: 'Unbilled usage of a location',
  description: `Readings with usage not billed yet (flagged ones included and marked), by unit and time, each with its amount at the location's utility rates (slip settings \`utilityRates\`, rounded to the cent), and the totals per utility over all pages.`,
  query: s.UnbilledQuery,
  ok: s.Unbilled,
  errors: [404],
});

export const latest = route({
  method: 'get',
  path: '/meter-readings/unit/{unitId}/latest',
  operationId: 'getLatestMeterReadings',
  tags,
  summary: 'Latest readings of a unit',
  description: 'The latest electricity and water readings of the unit (null when none; only one with `utility`).',
  params: s.UnitParams,
  query: s.LatestQuery,
  ok: s.Latest,
  errors: [404],
});

export const history = route({
  method: 'get',
  path: '/meter-readings/unit/{unitId}/history',
  operationId: 'getMeterReadingHistory',
  tags,
  summary: 'Reading history of a unit',
  description: 'Readings of the unit, newest first, optionally of one `utility` and within `from`/`to`; `usage` sums the matching readings of every page.',
  params: s.UnitParams,
  query: s.HistoryQuery,
  ok: s.History,
  errors: [404],
});

export const markBilled = route({
  method: 'post',
  path: '/meter-readings/mark-billed',
  operationId: 'markMeterReadingsBilled',
  tags,
  summary: 'Mark several readings billed',
  description: `Atomic: every reading or none. Unknown ids answer 404 and billed ones 409 \`meter_already_billed\` (also when another request bills them at the same time), nothing changed. The readings get one \`billingId\` and your \`billingReference\`. Billed readings can no longer change or be deleted, nor be charged to a reservation.`,
  body: s.MarkBilledBody,
  ok: s.MarkBilledResult,
  errors: [403, 404, 409],
});

export const addToReservation = route({
  method: 'post',
  path: '/meter-readings/add-to-reservation',
  operationId: 'addMeterChargesToReservation',
  tags,
  summary: 'Charge unbilled usage to a slip reservation',
  description: `Turns unbilled usage into utility charge lines of the reservation, one per utility: the location's rate (slip settings \`utilityRates\`: \`electricityPerKwhCents\`, \`waterPerGallonCents\`, taxed at the reservation's rate when \`taxable\`) × the usage of each reading, rounded to the cent per reading. Default readings: the unbilled ones with usage of the reservation's unit read from the arrival day to the end of the departure day; flagged ones only once reviewed (listed in \`skipped\`). The readings are billed to the reservation in the same write as its re-pricing and ledger entries (\`booking.updated\`), exactly once: a second request for the same readings answers 409 \`meter_already_billed\` or, with nothing left, \`no_unbilled_usage\`. A cancelled or expired reservation answers 409.`,
  body: s.AddToReservationBody,
  ok: s.AddToReservationResult,
  status: 201,
  errors: [403, 404, 409],
});

export const get = route({
  method: 'get',
  path: '/meter-readings/{id}',
  operationId: 'getMeterReading',
  tags,
  summary: 'A meter reading',
  description:
    "The reading with its usage, rollover, flags and review, and its billing (the reservation it was charged to). Another operator's reading answers 404.",
  params: s.IdParams,
  ok: s.Reading,
  errors: [404],
});

export const update = route({
  method: 'put',
  path: '/meter-readings/{id}',
  operationId: 'updateMeterReading',
  tags,
  summary: 'Correct or review a meter reading',
  description: `Changing \`reading\`, \`digits\`, \`meterId\`, \`readAt\` (between the previous and the next reading) or \`rollover\` recomputes its usage and flags and the next reading's usage in the same write (a correction clears an earlier review unless \`reviewed\` is sent again). \`reviewed: true\` clears a flagged reading for charging. Refused once billed (409 \`meter_reading_billed\`), also when the next reading is billed. ${USAGE}`,
  params: s.IdParams,
  body: s.UpdateBody,
  ok: s.Reading,
  errors: [403, 404, 409],
});

export const remove = route({
  method: 'delete',
  path: '/meter-readings/{id}',
  operationId: 'deleteMeterReading',
  tags,
  summary: 'Delete a meter reading',
  description: `Refused once billed (409 \`meter_reading_billed\`, also when the next reading, whose usage depends on it, is billed). The next reading then counts its usage from the reading before.`,
  params: s.IdParams,
  ok: s.DeleteResult,
  errors: [403, 404, 409],
});
