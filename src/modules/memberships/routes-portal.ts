import { route } from '../../lib/openapi';
import * as s from './schemas';
import { PORTAL_AUTH } from './portal';

const publicTags = ['Membership enrollment and portal'];

// ------------------------------------------------------------------------------------------------
// Public enrollment and member portal

const PORTAL_FLOW = `**Member portal**: POST /public/memberships/portal/link e-mails the member a single-use link (30 minutes) to the operator's portal page (\`settings.memberPortalUrl\`, else \`{PUBLIC_BASE_URL}/member-portal\`) with \`?token=mpl_...\`; the page exchanges it once with POST /public/memberships/portal/session for a session token (2 hours), sent as \`Authorization: Bearer mps_...\` to the portal routes.`;

export const memberPortalPage = route({
  method: 'get',
  path: '/member-portal',
  operationId: 'getMemberPortalPage',
  tags: publicTags,
  access: 'none',
  security: [],
  summary: 'The member portal page (HTML)',
  query: s.PortalPageQuery,
  produces: 'text/html',
  description: `The page members open from their e-mails: \`?customer=cus_...\` (the operator: its name, logo and colour) and
\`&token=mpl_...\` (a sign-in link). The page exchanges the token once (POST /public/memberships/portal/session), keeps the
session in the tab (sessionStorage) and removes the token from the address; without a token it asks for the member's e-mail and
sends a new link (POST /public/memberships/portal/link). Signed in: the membership card (tier, status, member number, renewal,
benefits, credits), pause and resume within the tier's policy, cancellation at the period end (confirmed first), invoices, and a
new card (the simulator's test cards offline, the provider's card element when configured). Scripts and styles are this
deployment's static files; the Content-Security-Policy allows scripts from Berth's origin only, and no site may frame the page. ${PORTAL_FLOW}`,
});

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

export const portalSignOut = route({
  method: 'delete',
  path: '/public/memberships/portal/session',
  operationId: 'closeMemberPortalSession',
  ...portal,
  summary: 'Sign out of the member portal',
  description: `The session token stops working at once. ${PORTAL_AUTH_DOC}`,
  ok: s.PortalSignedOut,
  errors: [401],
});

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
