import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Slip guest access'];
const PERM = 'Needs the `marina` permission (admins and managers have it).';
const DOCK = 'Any staff of the operator (dock hands at the gate) may call it.';
const CODES = `Access codes are 8 characters (16 at most for codes of your own) of \`23456789ABCDEFGHJKMNPQRSTUVWXYZ\` (no 0/O or 1/I/L), unique among the operator's active passes.`;
const DIES = `A pass works only while its reservation is pending, confirmed or checked in: when the reservation is cancelled, checked out or its hold expires the pass is revoked at once (\`reason\` \`reservation_cancelled\`, ...).`;

export const list = route({
  method: 'get',
  path: '/slips/guest-access',
  operationId: 'listSlipGuestPasses',
  tags,
  summary: 'Guest passes of a location',
  description: `Filters: \`reservationId\`, \`status\` (active, expired, revoked: as of now, an active pass past its window counts as expired), \`q\` (guest name or vehicle plate). Newest first; \`limit\`/\`offset\` with \`total\`. Another operator's location answers 404.`,
  query: s.ListQuery,
  ok: s.PassList,
  errors: [404],
});

export const create = route({
  method: 'post',
  path: '/slips/guest-access',
  operationId: 'createSlipGuestPass',
  tags,
  status: 201,
  summary: 'Create a guest pass for a reservation',
  description: `A pass for a guest of a pending, confirmed or checked-in reservation (409 \`invalid_state\` otherwise): the guest's name and contact, a validity window within the stay (default from now or the arrival day to the departure day at the location's check-out time; outside the stay answers 400), \`permissions\` (default gate and dock_access), \`idRequired\`. ${CODES} A code of your own already in use answers 409 \`already_exists\`. With \`guestEmail\` the guest gets the code by e-mail (\`notifyGuest\` false to skip). At most 50 active passes per reservation (409 \`guest_pass_limit\`). ${PERM}`,
  body: s.CreateBody,
  ok: s.Pass,
  errors: [403, 404, 409],
});

export const stats = route({
  method: 'get',
  path: '/slips/guest-access/stats',
  operationId: 'getSlipGuestPassStats',
  tags,
  summary: 'Guest pass statistics of a location',
  description: `Passes by status, valid right now, expiring within 24 hours, checked in today (local day of the location), with a verified ID. ${DOCK}`,
  query: s.StatsQuery,
  ok: s.Stats,
  errors: [404],
});

export const verify = route({
  method: 'get',
  path: '/slips/guest-access/verify/{accessCode}',
  operationId: 'verifySlipGuestPass',
  tags,
  summary: 'Verify an access code at the gate',
  description: `Answers 200 with \`result\` \`valid\`, \`not_yet_valid\`, \`expired\` or \`revoked\` (with the \`reason\`), the pass and its reservation (number, unit, vessel, renter), so the gate can tell the guest why. ${DIES} An unknown code answers 404. Guessing is throttled per credential: after 10 unknown codes within 10 minutes every verification answers 429 \`rate_limited\` (with \`Retry-After\`) until the window ends. ${DOCK}`,
  params: s.CodeParams,
  ok: s.Verification,
  errors: [404],
});

export const expire = route({
  method: 'post',
  path: '/slips/guest-access/expire',
  operationId: 'expireSlipGuestPasses',
  tags,
  summary: 'Expire the passes of a location past their window',
  description: `Marks every active pass of the location whose window ended as \`expired\` and answers how many. A 5-minute job does the same for every location; reads already treat such passes as expired. ${PERM}`,
  body: s.ExpireBody,
  ok: s.ExpireResult,
  errors: [403, 404],
});

export const get = route({
  method: 'get',
  path: '/slips/guest-access/{id}',
  operationId: 'getSlipGuestPass',
  tags,
  summary: 'A guest pass',
  description: "Another operator's pass answers 404.",
  params: s.IdParams,
  ok: s.Pass,
  errors: [404],
});

export const update = route({
  method: 'put',
  path: '/slips/guest-access/{id}',
  operationId: 'updateSlipGuestPass',
  tags,
  summary: 'Change a guest pass',
  description: `A partial update of an active pass (guest, window within the stay, permissions, ID rule, notes); \`regenerateCode\` issues a new code (the old one stops working). An expired or revoked pass answers 409 \`invalid_state\`. ${PERM}`,
  params: s.IdParams,
  body: s.UpdateBody,
  ok: s.Pass,
  errors: [403, 404, 409],
});

export const remove = route({
  method: 'delete',
  path: '/slips/guest-access/{id}',
  operationId: 'deleteSlipGuestPass',
  tags,
  summary: 'Delete a guest pass',
  description: `Deletes the pass and its history (revoke keeps the record). ${PERM}`,
  params: s.IdParams,
  ok: s.DeleteResult,
  errors: [403, 404],
});

export const checkIn = route({
  method: 'post',
  path: '/slips/guest-access/{id}/check-in',
  operationId: 'checkInSlipGuest',
  tags,
  summary: 'Record a guest check-in',
  description: `Counts a check-in of a pass that is valid now (409 \`guest_pass_not_valid\` with \`result\` and \`reason\` otherwise); a pass with \`idRequired\` needs the ID verified first (409 \`guest_id_not_verified\`). ${DOCK}`,
  params: s.IdParams,
  body: s.CheckInBody,
  ok: s.Pass,
  errors: [404, 409],
});

export const verifyId = route({
  method: 'post',
  path: '/slips/guest-access/{id}/verify-id',
  operationId: 'verifySlipGuestId',
  tags,
  summary: "Record that the guest's ID was checked",
  description: `Records the ID type, who checked it and when (the ID number is not stored). A revoked pass answers 409. ${DOCK}`,
  params: s.IdParams,
  body: s.VerifyIdBody,
  ok: s.Pass,
  errors: [404, 409],
});

export const revoke = route({
  method: 'post',
  path: '/slips/guest-access/{id}/revoke',
  operationId: 'revokeSlipGuestPass',
  tags,
  summary: 'Revoke a guest pass at once',
  description: `The code stops working immediately. A pass that is not active is answered unchanged. ${PERM}`,
  params: s.IdParams,
  body: s.RevokeBody,
  ok: s.Pass,
  errors: [403, 404],
});
