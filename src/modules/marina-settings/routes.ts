import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Slip settings'];

const FIELDS = `Fields: \`approvalRequired\` (public and portal bookings start \`pending\`; default true), \`deposit\` (\`policy\` none | fixed (\`amountCents\`) | percent (\`percent\` of the total) | first_night (one night of the stay at its own rate: a nightly stay's first night, a longer stay's first period over its nights) | first_month (one month of the stay at its own rate: a nightly stay's nights up to the same day next month, a monthly stay's first month, a season or year over its months), each capped at the total; charged or billed before a reservation is confirmed), \`requiredDocuments\` (default insurance and registration), \`checkInTime\`/\`checkOutTime\` (local HH:mm; default 14:00 and 11:00), \`clearances\` in feet used by the fit check (\`overhangAllowanceFt\` default 0: a boat may be this much longer than the unit's max LOA; \`sideClearanceFt\` default 1: beam + 2 × this must fit the unit's width; \`underKeelClearanceFt\` default 1: draft + this must fit the depth at low water), \`billHoldHours\` (how long \`send-bill\` holds the unit; default 48), \`rates\` in cents per foot (\`nightlyPerFootCents\` 350, \`monthlyPerFootCents\` 2500, \`seasonalPerFootCents\` 9000, \`annualPerFootCents\` 16000 by default; a unit's own \`rates\` win), \`taxRatePercent\` (default 0), \`fees\` and \`utilities\` (charge lines added to new reservations: \`amountCents\` per stay, night, month or foot, \`taxable\`), \`defaultContractTemplateId\`, \`cancellationPolicy\` (text shown on contracts), \`waitlistOfferHoldHours\` (how long a waitlist offer holds the unit for the renter's answer; default 72), \`dailyLiftCapacity\` (lift operations per local day for haul services: a haul-out, launch or relocation is one, a round trip or a haul-and-hold with a return date two; default 6; 0 = the lift is out of service), \`utilityRates\` (\`electricityPerKwhCents\` default 35, \`waterPerGallonCents\` default 2, decimals allowed; \`taxable\` default false: used by \`/meter-readings/add-to-reservation\`), \`haulRates\` (cents per foot of LOA by haul service type: haul_out 1200, launch 1200, haul_and_hold 2000, round_trip 2200, relocation 800), \`publicBookingEnabled\` (default true: \`/public/slips/book\` and the public waitlist), \`publicRateTypes\` (rate types a public booking may choose; default nightly and monthly), \`portalUrl\` (the tenant portal front end that magic links open; default the API base URL).`;

export const getSettings = route({
  method: 'get',
  path: '/slip-settings/{locationId}',
  operationId: 'getSlipSettings',
  tags,
  summary: 'Marina booking settings of a location (defaults merged)',
  description: `Every field is present: what the operator changed, the defaults elsewhere (\`isCustomized\` false while nothing was changed). Another operator's location answers 404. ${FIELDS}`,
  params: s.LocationParams,
  ok: s.SlipSettings,
  errors: [404],
});

export const updateSettings = route({
  method: 'put',
  path: '/slip-settings/{locationId}',
  operationId: 'updateSlipSettings',
  tags,
  summary: 'Change marina booking settings of a location',
  description: `A partial update: give only the settings to change; \`deposit\`, \`clearances\` and \`rates\` merge field by field, lists replace. Unknown fields answer 400. An empty body answers 400 \`no_changes\`. Needs the \`marina\` permission (admins and managers have it). Answers the effective settings. ${FIELDS}`,
  params: s.LocationParams,
  body: s.UpdateSettingsBody,
  ok: s.SlipSettings,
  errors: [403, 404],
});

export const resetSettings = route({
  method: 'post',
  path: '/slip-settings/{locationId}/reset',
  operationId: 'resetSlipSettings',
  tags,
  summary: 'Reset the marina booking settings of a location to the defaults',
  description: 'Deletes what the operator changed; answers the defaults. Needs the `marina` permission.',
  params: s.LocationParams,
  ok: s.SlipSettings,
  errors: [403, 404],
});
