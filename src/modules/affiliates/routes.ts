import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Affiliates'];

const MONEY = 'Money in this family is in dollars; commissions are kept in cents inside.';

const EARNING = `A booking is attributed once: to the affiliate named by \`extendedData.refAffiliate\` of the booking request (the public widget's referral links), else to the affiliate of its promo code (\`settings.promoCodes[].affiliateId\`). Each rental earns round(pre-tax price after discounts × percentageEarned / 100), at the rate in force when the booking was written (recorded then, whichever path sold it). A cancelled booking's commission is reversed as it is cancelled.`;

export const checkAvailability = route({
  method: 'get',
  path: '/affiliate/check-availability',
  operationId: 'checkAffiliateIdAvailability',
  tags,
  summary: 'Is an affiliate ID free?',
  description: `Affiliate IDs are one namespace across the platform (they appear in referral links), so this answers only whether \`affiliateId\` is free to use as \`customAffiliateId\`.`,
  query: s.AvailabilityQuery,
  ok: s.Availability,
});

export const createAffiliate = route({
  method: 'post',
  path: '/affiliate',
  operationId: 'createAffiliate',
  tags,
  status: 201,
  summary: 'Create an affiliate',
  description: `\`customAffiliateId\` becomes the affiliate ID (409 \`already_exists\` when taken, also when two creates race); without it an \`aff_...\` ID is generated. \`percentageEarned\` is the commission rate in percent (default 0). Needs the \`affiliates\` permission (admins and managers have it). ${MONEY}`,
  body: s.CreateBody,
  ok: s.Affiliate,
  errors: [403, 409],
});

export const listAffiliates = route({
  method: 'get',
  path: '/affiliate',
  operationId: 'listAffiliates',
  tags,
  summary: "The operator's affiliates with their totals",
  description: `Commission and payout totals as of now: the commission of referred and promo-coded bookings (a cancelled booking's is reversed as it is cancelled), of the other uses of the affiliate's codes (\`POST /promoGiftCards/use\`, gift cards spent on bookings; what the use answered) and manual commissions; the same figure as \`GET /promoGiftCards/affiliate/{affiliateId}\` reports for the codes. ${MONEY}`,
  query: s.ListQuery,
  ok: s.AffiliateList,
  errors: [403],
});

export const deleteAffiliate = route({
  method: 'delete',
  path: '/affiliate',
  operationId: 'deleteAffiliate',
  tags,
  summary: 'Delete an affiliate (with its earnings and payouts)',
  description: `404 for an unknown ID or another operator's affiliate. Needs the \`affiliates\` permission.`,
  query: s.DeleteQuery,
  ok: s.Deleted,
  errors: [403, 404],
});

export const updateAffiliate = route({
  method: 'patch',
  path: '/affiliate',
  operationId: 'updateAffiliate',
  tags,
  summary: 'Record a payout, change the rate or add a commission',
  description: `\`action\` (query): \`addPayout\` with \`paidOut\` (dollars paid to the affiliate), \`editPercentage\` with \`percentageEarned\` (applies to what is earned from now on; recorded commissions keep their rate), \`addACommission\` with \`totalAmount\` (dollars). Any other action is 400 (\`validation_failed\` listing the allowed ones); a missing amount for the action is 400. Needs the \`affiliates\` permission. ${MONEY}`,
  query: s.PatchQuery,
  body: s.PatchBody,
  ok: s.Affiliate,
  errors: [403, 404],
});

export const recalculate = route({
  method: 'post',
  path: '/affiliate/recalculate',
  operationId: 'recalculateAffiliates',
  tags,
  summary: "Recompute earnings from the operator's bookings",
  description: `${EARNING} Recalculation records attributed rentals not recorded yet (at the current rate), excludes cancelled ones and sums the totals again (manual commissions, code uses and payouts included). Without \`affiliateId\` every affiliate of the operator. ${MONEY}`,
  body: s.RecalcBody,
  ok: s.RecalcResult,
  errors: [403, 404],
});
