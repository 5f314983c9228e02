import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Slip waitlist'];
const PERM = 'Needs the `marina` permission (admins and managers have it).';
const STATES = `Statuses: \`waiting\` (in the queue) → \`offered\` (a unit is held for the renter) → \`accepted\` (the hold became a confirmed reservation); a declined offer or one not answered before it expires puts the entry back to \`waiting\` at the bottom of the queue; \`cancelled\` by staff or the renter. Queue order is the location's queue (\`queuePosition\` 1 = next).`;

export const list = route({
  method: 'get',
  path: '/slips/waitlist',
  operationId: 'listSlipWaitlist',
  tags,
  summary: 'Waitlist entries of a location in queue order',
  description: `Filters: \`status\`, \`rateType\`, \`unitType\`, \`q\` (renter name or e-mail, vessel name). \`limit\`/\`offset\` with \`total\`. Another operator's location answers 404. ${STATES}`,
  query: s.ListQuery,
  ok: s.EntryList,
  errors: [404],
});

export const create = route({
  method: 'post',
  path: '/slips/waitlist',
  operationId: 'createSlipWaitlistEntry',
  tags,
  status: 201,
  summary: 'Add a renter and boat to the waitlist',
  description: `The renter (\`renterId\`, or \`renter\` found or created by e-mail; a new renter fires \`customer.created\`), the boat with its dimensions (used to match units: LOA, beam, draft, air draft with the location's clearances), the wanted \`unitType\` (default any), \`section\`, \`rateType\`, and either dates (\`arrivalDate\`/\`departureDate\`, both or neither; an \`arrivalDate\` before today at the location, on the operator's clock, answers 400 \`in_the_past\`) or a \`season\`. The entry goes to the bottom of the location's queue. A renter has one open entry per location and rate type: adding it again answers the open entry unchanged with 200 instead of 201, as the public form does. ${PERM}`,
  body: s.CreateBody,
  ok: s.Entry,
  errors: [403, 404],
});

export const stats = route({
  method: 'get',
  path: '/slips/waitlist/stats',
  operationId: 'getSlipWaitlistStats',
  tags,
  summary: 'Waitlist statistics',
  description: `Entries by status, open entries by rate type, offers by outcome (offered, accepted, declined, expired, withdrawn), acceptance rate of answered offers, average wait from joining to accepting, the oldest waiting entry. For one location (\`locationId\`) or all. ${PERM}`,
  query: s.StatsQuery,
  ok: s.Stats,
  errors: [403, 404],
});

export const byRenter = route({
  method: 'get',
  path: '/slips/waitlist/renter/{renterId}',
  operationId: 'listSlipWaitlistByRenter',
  tags,
  summary: 'Waitlist entries of a renter',
  description: "Every entry of the renter at any location, in queue order; `limit`/`offset`. Another operator's renter answers 404.",
  params: s.RenterParams,
  query: s.PageQuery,
  ok: s.EntryList,
  errors: [404],
});

export const match = route({
  method: 'get',
  path: '/slips/waitlist/match/{unitId}',
  operationId: 'matchSlipWaitlist',
  tags,
  summary: 'Waiting entries that fit a unit, in queue order',
  description: `Entries of the unit's location that are \`waiting\`, want its unit type (or any), and whose boat fits it (the fit rules of \`/slips/availability\` with the location's clearances), in queue order. Entries that declined or let expire an offer of this unit before are left out, so a unit given back is offered to the next boater rather than again to the same one. \`available\` says whether the unit is free for the dates (\`arrivalDate\`/\`departureDate\` of the query, else the entry's). ${PERM}`,
  params: s.UnitParams,
  query: s.MatchQuery,
  ok: s.MatchList,
  errors: [403, 404],
});

export const get = route({
  method: 'get',
  path: '/slips/waitlist/{id}',
  operationId: 'getSlipWaitlistEntry',
  tags,
  summary: 'A waitlist entry with its offers',
  description: "The entry, its place in the queue and every offer made to it (newest first). Another operator's entry answers 404.",
  params: s.IdParams,
  ok: s.EntryDetail,
  errors: [404],
});

export const update = route({
  method: 'put',
  path: '/slips/waitlist/{id}',
  operationId: 'updateSlipWaitlistEntry',
  tags,
  summary: 'Change a waitlist entry',
  description: `A partial update of the boat (fields merge), the wish (unit type, section, preferred unit, rate type, dates or season) and notes; \`moveTo\` \`top\` or \`bottom\` moves the entry in the queue. While an offer is open only \`notes\` can change (409 \`invalid_state\`); an accepted or cancelled entry cannot change. A new \`arrivalDate\` before today at the location answers 400 \`in_the_past\`. ${PERM}`,
  params: s.IdParams,
  body: s.UpdateBody,
  ok: s.Entry,
  errors: [403, 404, 409],
});

export const remove = route({
  method: 'delete',
  path: '/slips/waitlist/{id}',
  operationId: 'deleteSlipWaitlistEntry',
  tags,
  summary: 'Delete a waitlist entry and its offer history',
  description: `Refused with 409 \`invalid_state\` while an offer is open (cancel the entry first: that withdraws the offer and releases the unit). ${PERM}`,
  params: s.IdParams,
  ok: s.DeleteResult,
  errors: [403, 404, 409],
});

export const offer = route({
  method: 'post',
  path: '/slips/waitlist/{id}/offer',
  operationId: 'offerSlipToWaitlistEntry',
  tags,
  status: 201,
  summary: 'Offer a unit to a waiting entry: hold it and e-mail the renter',
  description: `Holds \`slipId\` for the renter through the unit's SlipLock: a slip reservation (\`awaiting_payment\`, source \`waitlist\`, priced with the location's rates) whose hold ends when the offer expires, after \`holdHours\` (default: the location's \`waitlistOfferHoldHours\`, 72). Dates and rate type default to the entry's (an entry without dates needs them here). The renter gets an e-mail with the unit, dates, price and the expiry. Refusals: an \`arrivalDate\` before today at the location (its calendar, on the operator's clock; 400 \`in_the_past\`, nothing held), the entry is not waiting (409 \`waitlist_offer_open\` when it already has an offer, else \`invalid_state\`), a unit of another location or another unit type (409 \`waitlist_unit_mismatch\`), a boat that does not fit (409 \`slip_does_not_fit\`; \`overrideFit\` offers anyway), a unit in maintenance (409 \`slip_closed\`), a unit reserved or held for some of the nights (409 \`unavailable\`, with the \`conflicts\`). Two offers racing for one unit: exactly one holds it. An offer not answered in time expires by itself (a 5-minute sweep; the unit is free from the expiry instant) and the entry goes to the bottom of the queue. ${PERM}`,
  params: s.IdParams,
  body: s.OfferBody,
  ok: s.OfferResult,
  errors: [403, 404, 409],
});

export const accept = route({
  method: 'post',
  path: '/slips/waitlist/{id}/accept',
  operationId: 'acceptSlipWaitlistOffer',
  tags,
  summary: 'The renter accepted: the hold becomes a confirmed reservation',
  description: `Confirms the held reservation (the renter gets the confirmation e-mail; its balance is billed as any reservation's) and marks the entry \`accepted\`, in one atomic write with the reservation's compare-and-swap: an accept racing a decline or the expiry sweep lands once. After the offer's expiry the answer is 410 \`expired\` (the unit is no longer held). No open offer: 409 \`invalid_state\`. ${PERM}`,
  params: s.IdParams,
  body: s.AnswerBody,
  ok: s.OfferResult,
  errors: [403, 404, 409, 410],
});

export const decline = route({
  method: 'post',
  path: '/slips/waitlist/{id}/decline',
  operationId: 'declineSlipWaitlistOffer',
  tags,
  summary: 'The renter declined: release the unit, move the entry to the bottom',
  description: `Releases the hold (the reservation becomes \`cancelled\`), records the answer, and puts the entry back to \`waiting\` at the bottom of the queue. This unit is not matched to the entry again. No open offer: 409 \`invalid_state\`. ${PERM}`,
  params: s.IdParams,
  body: s.AnswerBody,
  ok: s.OfferResult,
  errors: [403, 404, 409],
});

export const cancel = route({
  method: 'post',
  path: '/slips/waitlist/{id}/cancel',
  operationId: 'cancelSlipWaitlistEntry',
  tags,
  summary: 'Take an entry off the waitlist',
  description: `The entry becomes \`cancelled\`; an open offer is withdrawn and its hold released. Cancelling again answers the entry unchanged; an accepted entry answers 409 (cancel its reservation instead). ${PERM}`,
  params: s.IdParams,
  body: s.CancelBody,
  ok: s.Entry,
  errors: [403, 404, 409],
});
