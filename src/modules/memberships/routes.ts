import { route } from '../../lib/openapi';
import * as s from './schemas';
import { PORTAL_AUTH } from './portal';
import { DUNNING_RETRY_DAYS } from './periods';

const tags = ['Memberships'];
const publicTags = ['Membership enrollment and portal'];

const CID = [
  "Every call of this family needs `customerId` (query for reads, body for writes): 400 when absent, 403 when it is not the caller's.",
  'Money is in integer **cents**.',
].join(' ');

const STATES = `States: \`active\` -> \`paused\` -> \`active\`; \`active\` | \`paused\` | \`past_due\` -> \`canceled\`; \`active\` in dunning -> \`past_due\` -> \`active\` when paid; \`canceled\` -> \`active\` (reactivate). \`cancelAtPeriodEnd: true\` is an active membership scheduled to end at \`currentPeriodEnd\`.`;

const BILLING = `**Renewals** run on the billing job (every 5 minutes): at \`nextBillingDate\` the price is charged with the card on file (one charge per membership and period, even when runs overlap), the period advances and the paid invoice is e-mailed. **Dunning**: a declined renewal leaves an \`open\` invoice and is retried ${DUNNING_RETRY_DAYS.join(', ')} days after the due date (the member keeps the benefits and gets an e-mail with a portal link to change the card); after the last failed retry the membership is \`past_due\` (no benefits) until the invoice is paid (new card in the portal, or POST /memberships/{membershipId}/reactivate). Every charge fires \`payment.completed\`, every refund \`payment.refunded\`.`;

const PRORATION = `**Proration** (\`proRate: true\`) counts whole UTC days. With the current period [S, E), today T and price P: the unused part is credited at the old price, \`-round(P × days(T, E) / days(S, E))\`, and the remaining part charged at the new price, \`round(P' × days(T, E') / periodDays')\`. Each line of the invoice carries \`proration: {days, periodDays, rate, formula}\`. A positive total is charged at once (a decline answers 400 \`payment_declined\` and changes nothing); a negative total is added to the membership's credits (invoice status \`credited\`). The membership must be \`active\` without an unpaid renewal (400 otherwise).`;

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

// ------------------------------------------------------------------------------------------------
// Organizations

export const listOrgs = route({
  method: 'get',
  path: '/memberships/organizations',
  operationId: 'listOrganizations',
  tags,
  summary: 'Organizations with their authorized renters and membership',
  description: CID,
  query: s.CustomerQuery,
  ok: s.OrgList,
  errors: [403],
});

export const createOrg = route({
  method: 'post',
  path: '/memberships/organizations',
  operationId: 'createOrganization',
  tags,
  status: 201,
  summary: 'Create an organization',
  description: `\`maxAuthorizedRenters\` (default 10) caps the renters who share the organization's membership. Needs the \`memberships\` permission. ${CID}`,
  body: s.CreateOrgBody,
  ok: s.Organization,
  errors: [403],
});

export const getOrg = route({
  method: 'get',
  path: '/memberships/organizations/{orgId}',
  operationId: 'getOrganization',
  tags,
  summary: 'An organization',
  description: CID,
  params: s.OrgParams,
  query: s.CustomerQuery,
  ok: s.Organization,
  errors: [403, 404],
});

export const updateOrg = route({
  method: 'patch',
  path: '/memberships/organizations/{orgId}',
  operationId: 'updateOrganization',
  tags,
  summary: 'Update an organization',
  description: `\`maxAuthorizedRenters\` cannot go below the renters already authorized (400). ${CID}`,
  params: s.OrgParams,
  body: s.UpdateOrgBody,
  ok: s.Organization,
  errors: [403, 404],
});

export const deleteOrg = route({
  method: 'delete',
  path: '/memberships/organizations/{orgId}',
  operationId: 'deleteOrganization',
  tags,
  summary: 'Delete an organization without a live membership',
  description: `Refused with 400 \`organization_in_use\` while the organization has a membership that is not canceled. Its authorized renters are removed with it. ${CID}`,
  params: s.OrgParams,
  query: s.CustomerQuery,
  ok: s.OrgDeleted,
  errors: [403, 404],
});

export const addOrgMember = route({
  method: 'post',
  path: '/memberships/organizations/{orgId}/members',
  operationId: 'addOrganizationMember',
  tags,
  summary: 'Authorize a renter to use the organization membership',
  description: `400 \`already_member\` when the renter is already authorized; 400 \`member_limit_reached\` at \`maxAuthorizedRenters\` (enforced by the insert itself, so parallel adds never exceed it); 404 unknown organization or renter. Answers the authorized renters. ${CID}`,
  params: s.OrgParams,
  body: s.AddOrgMemberBody,
  ok: s.OrgMembers,
  errors: [403, 404],
});

export const listOrgMembers = route({
  method: 'get',
  path: '/memberships/organizations/{orgId}/members',
  operationId: 'listOrganizationMembers',
  tags,
  summary: 'Authorized renters of an organization',
  description: CID,
  params: s.OrgParams,
  query: s.CustomerQuery,
  ok: s.OrgMembers,
  errors: [403, 404],
});

export const removeOrgMember = route({
  method: 'delete',
  path: '/memberships/organizations/{orgId}/members/{renterId}',
  operationId: 'removeOrganizationMember',
  tags,
  summary: 'Remove an authorized renter',
  description: `404 when the renter is not authorized. ${CID}`,
  params: s.OrgMemberParams,
  query: s.CustomerQuery,
  ok: s.OrgMembers,
  errors: [403, 404],
});

export const createOrgMembership = route({
  method: 'post',
  path: '/memberships/organizations/{orgId}/membership',
  operationId: 'createOrganizationMembership',
  tags,
  status: 201,
  summary: "Open the organization's membership",
  description: `The tier must list \`organization\` in \`allowedMemberTypes\` (400 \`tier_not_for_organizations\`); an organization has one live membership (400 \`already_member\`). The first period is charged with \`paymentMethodId\` (400 \`payment_declined\` on a decline, nothing written). Its authorized renters get the tier's benefits at checkout. ${CID}`,
  params: s.OrgParams,
  body: s.OrgMembershipBody,
  ok: s.Membership,
  errors: [403, 404],
});

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

export const listInvoices = route({
  method: 'get',
  path: '/memberships/{membershipId}/invoices',
  operationId: 'listMembershipInvoices',
  tags,
  summary: 'Invoices (with lines and payments) and billing history',
  description: `\`data\`: invoices newest first (\`limit\`, max 100), each with its lines (proration lines carry their formula) and payment attempts and refunds. \`history\`: the last 100 changes (created, renewed, renewal_declined, past_due, paused, resumed, canceled, billing changes, credits, family). ${BILLING} ${CID}`,
  params: s.MembershipParams,
  query: s.InvoicesQuery,
  ok: s.InvoiceList,
  errors: [403, 404],
});

export const addFreeMonth = route({
  method: 'post',
  path: '/memberships/{membershipId}/billing/add-free-month',
  operationId: 'addMembershipFreeMonth',
  tags,
  summary: 'Extend the period by one cycle without a charge',
  description: `The period end (next billing date) moves one billing cycle later (a month, or a year for yearly memberships); a 0 invoice of kind \`free_period\` records it. Active or paused memberships. ${CID}`,
  params: s.MembershipParams,
  body: s.FreeMonthBody,
  ok: s.BillingResult,
  errors: [403, 404, 409],
});

export const changeDate = route({
  method: 'post',
  path: '/memberships/{membershipId}/billing/change-date',
  operationId: 'changeMembershipBillingDate',
  tags,
  summary: 'Move the next billing date (future dates only)',
  description: `The current period now ends at \`newBillingDate\` (which must be in the future: 400). With \`proRate\`: credit \`-round(P × days(T, E) / days(S, E))\` and charge \`round(P × days(T, newBillingDate) / days(S, E))\`. ${PRORATION} ${CID}`,
  params: s.MembershipParams,
  body: s.ChangeDateBody,
  ok: s.BillingResult,
  errors: [403, 404, 409],
});

export const switchCycle = route({
  method: 'post',
  path: '/memberships/{membershipId}/billing/switch-cycle',
  operationId: 'switchMembershipBillingCycle',
  tags,
  summary: 'Switch between monthly and yearly billing',
  description: `The price becomes the tier's price for the new cycle (400 when it has none). With \`proRate\` the new cycle starts today: the unused part of the current period is credited and the whole new-cycle price charged. Without, the current period runs out and the next renewal bills the new cycle. ${PRORATION} ${CID}`,
  params: s.MembershipParams,
  body: s.SwitchCycleBody,
  ok: s.BillingResult,
  errors: [403, 404, 409],
});

export const changePrice = route({
  method: 'post',
  path: '/memberships/{membershipId}/billing/change-price',
  operationId: 'changeMembershipPrice',
  tags,
  summary: 'Change the price per cycle (cents)',
  description: `\`newPrice\` in cents per cycle. With \`proRate\`: credit the unused days at the old price and charge them at the new one, \`round(newPrice × days(T, E) / days(S, E))\`. Without, the new price applies from the next renewal. ${PRORATION} ${CID}`,
  params: s.MembershipParams,
  body: s.ChangePriceBody,
  ok: s.BillingResult,
  errors: [403, 404, 409],
});

export const refund = route({
  method: 'post',
  path: '/memberships/{membershipId}/refund',
  operationId: 'refundMembershipInvoice',
  tags,
  summary: 'Refund an invoice payment (partial allowed)',
  description: `Body: \`customerId\`, \`invoiceId\` (an invoice of this membership), \`amount\` in cents (default: all that is left), \`reason\`. Never more than the invoice collected minus earlier refunds: 400 \`refund_exceeds_payment\` (the amount is reserved with a conditional update first, so parallel refunds cannot exceed it). The money goes back to the card through the payment provider (400 \`payment_provider_error\` when it refuses, nothing changed); \`payment.refunded\` fires. The membership itself is not changed (cancel it separately). Answers the membership, the invoice with its payments and the refund. ${CID}`,
  params: s.MembershipParams,
  body: s.RefundBody,
  ok: s.RefundResult,
  errors: [403, 404],
});

export const resend = route({
  method: 'post',
  path: '/memberships/{membershipId}/invoices/{invoiceId}/resend',
  operationId: 'resendMembershipReceipt',
  tags,
  summary: 'Send the receipt e-mail of an invoice again',
  description: `Body: \`customerId\` and optionally \`email\` (another address). The receipt lists the invoice lines (with proration formulas), total, paid and refunded amounts; it goes to the e-mail outbox (template \`membership.receipt\`). Answers where it went and the message id. ${CID}`,
  params: s.InvoiceParams,
  body: s.ResendBody,
  ok: s.ResendResult,
  errors: [403, 404],
});

export const getCredits = route({
  method: 'get',
  path: '/memberships/{membershipId}/credits',
  operationId: 'getMembershipCredits',
  tags,
  summary: 'Credit balance and history (cents)',
  description: `The credits ledger is append-only: grants with each paid period (\`creditsPerPeriod\`), proration credits, staff adjustments, bookings paid with credits and their return when a booking is cancelled. Each entry shows \`balanceAfter\`. ${CID}`,
  params: s.MembershipParams,
  query: s.CreditsQuery,
  ok: s.Credits,
  errors: [403, 404],
});

export const adjustCredits = route({
  method: 'post',
  path: '/memberships/{membershipId}/credits/adjust',
  operationId: 'adjustMembershipCredits',
  tags,
  summary: 'Add or deduct credits (staff only)',
  description: `\`amount\` in cents: positive adds, negative deducts. Staff-only (admins, managers or the \`membership_overrides\` permission; anyone else 403). 400 \`insufficient_credits\` when the balance would become negative — checked by the insert itself, so parallel adjustments can never overdraw. \`staffId\` defaults to the caller. Answers the balance and history. ${CID}`,
  params: s.MembershipParams,
  body: s.AdjustCreditsBody,
  ok: s.Credits,
  errors: [403, 404],
});

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

// ------------------------------------------------------------------------------------------------
// Public enrollment and member portal

const PORTAL_FLOW = `**Member portal**: POST /public/memberships/portal/link e-mails the member a single-use link (30 minutes) to the operator's portal page (\`settings.memberPortalUrl\`, else \`{PUBLIC_BASE_URL}/member-portal\`) with \`?token=mpl_...\`; the page exchanges it once with POST /public/memberships/portal/session for a session token (2 hours), sent as \`Authorization: Bearer mps_...\` to the portal routes.`;

export const publicTiers = route({
  method: 'get',
  path: '/public/memberships/tiers',
  operationId: 'listPublicMembershipTiers',
  tags: publicTags,
  access: 'public',
  summary: 'Tiers open for public enrollment',
  description: `Active tiers marked \`isPublic\` of operator \`customerId\` (404 unknown operator). No credentials needed.`,
  query: s.PublicTiersQuery,
  ok: s.PublicTierList,
  errors: [403, 404],
});

export const enroll = route({
  method: 'post',
  path: '/public/memberships/enroll',
  operationId: 'enrollMembership',
  tags: publicTags,
  access: 'public',
  status: 201,
  summary: 'Join a public tier from the booking widget (pays the first period)',
  description: `No credentials needed (an authenticated operator may only use its own \`customerId\`: 403). The tier must be active and public (404 otherwise). The renter is created or updated by \`email\` (\`customer.created\` when new). The first period is charged with \`paymentMethodId\` (400 \`payment_declined\` on a decline, nothing written); the card is kept for renewals. 400 \`already_member\` when the person already has a live membership. The welcome e-mail carries a single-use member-portal link. ${PORTAL_FLOW}`,
  body: s.EnrollBody,
  ok: s.EnrollResult,
  errors: [403, 404],
});

export const portalLink = route({
  method: 'post',
  path: '/public/memberships/portal/link',
  operationId: 'requestMemberPortalLink',
  tags: publicTags,
  access: 'public',
  summary: 'E-mail a single-use member-portal link',
  description: `Always answers 200 with the same message, whether or not a membership exists for \`email\` (no account discovery). ${PORTAL_FLOW}`,
  body: s.PortalLinkBody,
  ok: s.PortalLinkResult,
  errors: [403, 404],
});

export const portalSession = route({
  method: 'post',
  path: '/public/memberships/portal/session',
  operationId: 'openMemberPortalSession',
  tags: publicTags,
  access: 'none',
  security: [],
  summary: 'Exchange a portal link token for a session',
  description: `The link token works once: 404 unknown, 410 \`expired\` when used before or older than 30 minutes. Answers the session token (2 hours) and the membership. ${PORTAL_FLOW}`,
  body: s.PortalSessionBody,
  ok: s.PortalSession,
  errors: [404, 410],
});

const portal = { tags: publicTags, access: 'none' as const, auth: PORTAL_AUTH };
const PORTAL_AUTH_DOC = 'Member-portal session (`Authorization: Bearer mps_...`): 401 without or with an expired one.';

export const portalGet = route({
  method: 'get',
  path: '/public/memberships/portal',
  operationId: 'getMemberPortal',
  ...portal,
  summary: "The member's membership",
  description: `Status, tier, period, next billing date, credits, family members, pause policy and the card on file. ${PORTAL_AUTH_DOC}`,
  ok: s.PortalMembership,
  errors: [401],
});

export const portalInvoices = route({
  method: 'get',
  path: '/public/memberships/portal/invoices',
  operationId: 'listMemberPortalInvoices',
  ...portal,
  summary: "The member's invoices",
  description: `Newest first, \`limit\`/\`offset\`. ${PORTAL_AUTH_DOC}`,
  query: s.PortalInvoicesQuery,
  ok: s.PortalInvoices,
  errors: [401],
});

export const portalPause = route({
  method: 'post',
  path: '/public/memberships/portal/pause',
  operationId: 'pauseMemberPortal',
  ...portal,
  summary: 'Pause within the tier policy',
  description: `As POST /memberships/{membershipId}/pause without staff overrides: \`force: true\` answers 403. ${PORTAL_AUTH_DOC}`,
  body: s.PortalPauseBody,
  ok: s.PortalMembership,
  errors: [401, 403, 409],
});

export const portalResume = route({
  method: 'post',
  path: '/public/memberships/portal/resume',
  operationId: 'resumeMemberPortal',
  ...portal,
  summary: 'Resume a paused membership',
  description: `400 when not paused. ${PORTAL_AUTH_DOC}`,
  ok: s.PortalMembership,
  errors: [401, 409],
});

export const portalCancel = route({
  method: 'post',
  path: '/public/memberships/portal/cancel',
  operationId: 'cancelMemberPortal',
  ...portal,
  summary: 'Cancel at the end of the paid period',
  description: `The membership stays active until its period end and does not renew (a paused or past-due membership ends now). ${PORTAL_AUTH_DOC}`,
  body: s.PortalCancelBody,
  ok: s.PortalMembership,
  errors: [401, 409],
});

export const portalCard = route({
  method: 'post',
  path: '/public/memberships/portal/card',
  operationId: 'updateMemberPortalCard',
  ...portal,
  summary: 'Change the card for renewals (pays an unpaid renewal at once)',
  description: `The card is saved at the payment provider and used for renewals. When a renewal is unpaid (dunning or past due) it is charged with the new card right away: \`payment.status\` is \`paid\` (the membership is active again) or \`declined\`. 400 \`invalid_payment_method\` for an unusable card. ${PORTAL_AUTH_DOC}`,
  body: s.PortalCardBody,
  ok: s.PortalCardResult,
  errors: [401, 409],
});
