import { route } from '../../lib/openapi';
import * as s from './schemas';
import { CID, tags } from './routes-docs';

// ------------------------------------------------------------------------------------------------
// Tiers (declared before /memberships/{membershipId} so their paths win)

export const listTiers = route({
  method: 'get',
  path: '/memberships/tiers',
  operationId: 'listMembershipTiers',
  tags,
  summary: 'Membership tiers of the operator',
  description: `Ordered by \`displayOrder\`. \`activeOnly=true\` leaves out deactivated tiers. Deleted tiers are never listed. ${CID}`,
  query: s.ListTiersQuery,
  ok: s.TierList,
  errors: [403],
});

export const createTier = route({
  method: 'post',
  path: '/memberships/tiers',
  operationId: 'createMembershipTier',
  tags,
  status: 201,
  summary: 'Create a membership tier',
  description: `\`pricing\`: \`{monthly, yearly, currency}\` in cents per cycle (a cycle without a price cannot be chosen). \`benefits\`: \`{discountPercentage, creditsPerPeriod, perks}\` — the discount comes off bookings of active members (and their family members and authorized renters) as its own pricing line; \`creditsPerPeriod\` cents are added to the credits with every paid period. \`scope\`: \`all_locations\` (default) or \`selected_locations\` with \`locationIds\` (where the benefits apply). \`pausePolicy\`: \`{enabled (false), maxPausesPerYear (1), maxPauseDays (90)}\`. \`familyOptions\`: \`{enabled (false), maxMembers (4)}\`. \`allowedMemberTypes\`: \`individual\`, \`family\`, \`organization\` (default individual). \`isPublic\` offers the tier for public enrollment. Needs the \`memberships\` permission. ${CID}`,
  body: s.CreateTierBody,
  ok: s.Tier,
  errors: [403],
});

export const getTier = route({
  method: 'get',
  path: '/memberships/tiers/{tierId}',
  operationId: 'getMembershipTier',
  tags,
  summary: 'A membership tier',
  description: CID,
  params: s.TierParams,
  query: s.CustomerQuery,
  ok: s.Tier,
  errors: [403, 404],
});

export const updateTier = route({
  method: 'patch',
  path: '/memberships/tiers/{tierId}',
  operationId: 'updateMembershipTier',
  tags,
  summary: 'Update a membership tier',
  description: `Any field of the create body; \`pricing\`, \`benefits\`, \`pausePolicy\` and \`familyOptions\` are merged key by key. A new price applies to new memberships; existing ones keep theirs (change it with POST /memberships/{membershipId}/billing/change-price). \`isActive: false\` stops new sales. 200 with the tier; 400 without any field; 404 unknown tier. ${CID}`,
  params: s.TierParams,
  body: s.UpdateTierBody,
  ok: s.Tier,
  errors: [403, 404],
});

export const deleteTier = route({
  method: 'delete',
  path: '/memberships/tiers/{tierId}',
  operationId: 'deleteMembershipTier',
  tags,
  summary: 'Delete a membership tier that has no live memberships',
  description: `A tier with memberships that are not canceled (active, paused, past due) cannot be deleted: 400 \`tier_in_use\` — deactivate it instead (PATCH \`isActive: false\`). A deleted tier disappears from lists and reads; canceled memberships keep pointing at it for their history. ${CID}`,
  params: s.TierParams,
  query: s.CustomerQuery,
  ok: s.TierDeleted,
  errors: [403, 404],
});
