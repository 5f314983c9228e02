import { route } from '../../lib/openapi';
import * as s from './schemas';
import { BILLING, CID, tags } from './routes-docs';

const STATES = `States: \`active\` -> \`paused\` -> \`active\`; \`active\` | \`paused\` | \`past_due\` -> \`canceled\`; \`active\` in dunning -> \`past_due\` -> \`active\` when paid; \`canceled\` -> \`active\` (reactivate). \`cancelAtPeriodEnd: true\` is an active membership scheduled to end at \`currentPeriodEnd\`.`;

// ------------------------------------------------------------------------------------------------
// Memberships

export const listMemberships = route({
  method: 'get',
  path: '/memberships',
  operationId: 'listMemberships',
  tags,
  summary: 'Memberships of the operator',
  description: `Filters \`status\` and \`tierId\`; newest first; \`page\` (from 1) and \`limit\` (max 100). Answers \`{data, total, page, limit}\`. ${STATES} ${CID}`,
  query: s.ListMembershipsQuery,
  ok: s.MembershipList,
  errors: [403],
});

export const createMembership = route({
  method: 'post',
  path: '/memberships',
  operationId: 'createMembership',
  tags,
  status: 201,
  summary: 'Sell a membership (the first period is charged now)',
  description: `The member is a renter: \`memberId\` (alias \`renterId\`), else the renter with \`memberEmail\`; with \`createRenter: true\` a missing renter is created from \`firstName\`/\`lastName\` (or \`memberName\`) and \`customer.created\` fires. A member has one live membership: 400 \`already_member\` (a unique index, so of two racing creates one answers 201 and the other 400). 404 unknown tier; 400 inactive tier, member type not allowed, or no price for \`billingCycle\` (default monthly). The first period is charged through the payment provider with \`paymentMethodId\` (or the renter's saved card) and the card is kept for renewals; a decline answers 400 \`payment_declined\` (\`declineCode\`) and writes nothing. Then the membership, its paid invoice, the period credits, a welcome e-mail and \`payment.completed\` are written together. Needs the \`memberships\` permission. ${BILLING} ${CID}`,
  body: s.CreateMembershipBody,
  ok: s.CreatedMembership,
  errors: [403, 404],
});

export const getMembership = route({
  method: 'get',
  path: '/memberships/{membershipId}',
  operationId: 'getMembership',
  tags,
  summary: 'A membership with its tier, renter and organization',
  description: `${STATES} ${CID}`,
  params: s.MembershipParams,
  query: s.CustomerQuery,
  ok: s.MembershipDetail,
  errors: [403, 404],
});

export const cancelMembership = route({
  method: 'post',
  path: '/memberships/{membershipId}/cancel',
  operationId: 'cancelMembership',
  tags,
  summary: 'Cancel now or at the period end',
  description: `\`cancelImmediately: true\` ends the membership now (an unpaid renewal invoice is voided). Otherwise an active membership is scheduled to end at \`currentPeriodEnd\` (\`cancelAtPeriodEnd: true\`, still active until then; the billing job ends it); a paused or past-due membership, or one whose renewal is unpaid, has no running paid period and ends now. 400 when already canceled. ${STATES} ${CID}`,
  params: s.MembershipParams,
  body: s.CancelBody,
  ok: s.Membership,
  errors: [403, 404, 409],
});

export const reactivateMembership = route({
  method: 'post',
  path: '/memberships/{membershipId}/reactivate',
  operationId: 'reactivateMembership',
  tags,
  summary: 'Reactivate a canceled membership (or un-schedule a cancellation)',
  description: `A membership scheduled to cancel is simply un-scheduled. A canceled one starts a new period today at its price, charged with the card on file or \`paymentMethodId\` (400 \`payment_declined\`, nothing changed; 400 \`already_member\` when the member has another live membership). A past-due one is active again once its open invoice is charged now. Any other state: 400. ${STATES} ${CID}`,
  params: s.MembershipParams,
  body: s.ReactivateBody,
  ok: s.Membership,
  errors: [403, 404, 409],
});

export const pauseMembership = route({
  method: 'post',
  path: '/memberships/{membershipId}/pause',
  operationId: 'pauseMembership',
  tags,
  summary: "Pause a membership within the tier's pause policy",
  description: `Only an active membership without an unpaid renewal or scheduled cancellation (400 \`membership_state\`). The tier's \`pausePolicy\` must be enabled, fewer than \`maxPausesPerYear\` pauses may have started in the last 365 days, and \`resumeAt\` (default: \`maxPauseDays\` from now) may be at most \`maxPauseDays\` away: else 400 \`pause_not_allowed\`. \`force: true\` overrides the policy and is staff-only (admins, managers or the \`membership_overrides\` permission; anyone else 403). While paused nothing is charged and there are no benefits; \`resumeAt\` resumes automatically (billing job). Resuming moves the period end forward by the whole days paused. ${CID}`,
  params: s.MembershipParams,
  body: s.PauseBody,
  ok: s.Membership,
  errors: [403, 404, 409],
});

export const resumeMembership = route({
  method: 'post',
  path: '/memberships/{membershipId}/resume',
  operationId: 'resumeMembership',
  tags,
  summary: 'Resume a paused membership',
  description: `400 when the membership is not paused. The period end (next billing date) moves forward by the whole days paused. ${CID}`,
  params: s.MembershipParams,
  body: s.CustomerBody,
  ok: s.Membership,
  errors: [403, 404, 409],
});

// ------------------------------------------------------------------------------------------------
// Family

export const addFamily = route({
  method: 'post',
  path: '/memberships/{membershipId}/family',
  operationId: 'addMembershipFamilyMember',
  tags,
  summary: 'Add a family member (shares the benefits)',
  description: `400 \`family_not_enabled\` when the tier has no family option; 400 \`member_limit_reached\` at \`familyOptions.maxMembers\` (family members besides the primary member; enforced by the insert itself, so parallel adds never exceed it); 400 \`already_member\` when the renter is the primary member, already in this family, or a member elsewhere. 404 unknown renter. Answers the membership. ${CID}`,
  params: s.MembershipParams,
  body: s.AddFamilyBody,
  ok: s.Membership,
  errors: [403, 404],
});

export const removeFamily = route({
  method: 'delete',
  path: '/memberships/{membershipId}/family/{renterId}',
  operationId: 'removeMembershipFamilyMember',
  tags,
  summary: 'Remove a family member',
  description: `404 when the renter is not a family member of this membership. Answers the membership. ${CID}`,
  params: s.FamilyParams,
  query: s.CustomerQuery,
  ok: s.Membership,
  errors: [403, 404],
});
