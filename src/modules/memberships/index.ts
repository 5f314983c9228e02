import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { addFreeMonth, changeBillingDate, changePrice, listInvoices, refundInvoice, resendReceipt, switchBillingCycle } from './billing';
import { createMembership } from './create';
import { adjustCredits, getCredits } from './credits';
import { addFamilyMember, removeFamilyMember } from './family';
import { cancelMembership, pauseMembership, reactivateMembership, resumeMembership } from './lifecycle';
import {
  addOrgMember,
  createOrgMembership,
  createOrganization,
  deleteOrganization,
  getOrganization,
  listOrgMembers,
  listOrganizations,
  removeOrgMember,
  updateOrganization,
} from './organizations';
import {
  enroll,
  openPortalSession,
  portalCancel,
  portalCard,
  portalGet,
  portalInvoices,
  portalPause,
  portalResume,
  portalSignOut,
  publicTiers,
  requestPortalLink,
} from './portal';
import { getMembership, listMemberships } from './reads';
import { createTier, deleteTier, getTier, listTiers, updateTier } from './tiers';
import { limitAbuse } from '../../lib/abuse';
import { portalPageHtml, renterPageHeaders } from '../../lib/renter-page';

const router = createRouter();

// Tiers and organizations first: their static segments must win over /memberships/{membershipId}.
mount(router, r.listTiers, async (c, { query }) => c.json(await listTiers(ctxOf(c), query)));
mount(router, r.createTier, async (c, { body }) => c.json(await createTier(ctxOf(c), body), 201));
mount(router, r.getTier, async (c, { params, query }) => c.json(await getTier(ctxOf(c), params.tierId, query)));
mount(router, r.updateTier, async (c, { params, body }) => c.json(await updateTier(ctxOf(c), params.tierId, body)));
mount(router, r.deleteTier, async (c, { params, query }) => c.json(await deleteTier(ctxOf(c), params.tierId, query)));

mount(router, r.listOrgs, async (c, { query }) => c.json(await listOrganizations(ctxOf(c), query)));
mount(router, r.createOrg, async (c, { body }) => c.json(await createOrganization(ctxOf(c), body), 201));
mount(router, r.getOrg, async (c, { params, query }) => c.json(await getOrganization(ctxOf(c), params.orgId, query)));
mount(router, r.updateOrg, async (c, { params, body }) => c.json(await updateOrganization(ctxOf(c), params.orgId, body)));
mount(router, r.deleteOrg, async (c, { params, query }) => c.json(await deleteOrganization(ctxOf(c), params.orgId, query)));
mount(router, r.addOrgMember, async (c, { params, body }) => c.json(await addOrgMember(ctxOf(c), params.orgId, body)));
mount(router, r.listOrgMembers, async (c, { params, query }) => c.json(await listOrgMembers(ctxOf(c), params.orgId, query)));
mount(router, r.removeOrgMember, async (c, { params, query }) => c.json(await removeOrgMember(ctxOf(c), params.orgId, params.renterId, query)));
mount(router, r.createOrgMembership, async (c, { params, body }) => c.json(await createOrgMembership(ctxOf(c), params.orgId, body), 201));

mount(router, r.listMemberships, async (c, { query }) => c.json(await listMemberships(ctxOf(c), query)));
mount(router, r.createMembership, async (c, { body }) => c.json(await createMembership(ctxOf(c), body), 201));
mount(router, r.getMembership, async (c, { params, query }) => c.json(await getMembership(ctxOf(c), params.membershipId, query)));
mount(router, r.cancelMembership, async (c, { params, body }) => c.json(await cancelMembership(ctxOf(c), params.membershipId, body)));
mount(router, r.reactivateMembership, async (c, { params, body }) => c.json(await reactivateMembership(ctxOf(c), params.membershipId, body)));
mount(router, r.pauseMembership, async (c, { params, body }) => c.json(await pauseMembership(ctxOf(c), params.membershipId, body)));
mount(router, r.resumeMembership, async (c, { params, body }) => c.json(await resumeMembership(ctxOf(c), params.membershipId, body)));
mount(router, r.listInvoices, async (c, { params, query }) => c.json(await listInvoices(ctxOf(c), params.membershipId, query)));
mount(router, r.addFreeMonth, async (c, { params, body }) => c.json(await addFreeMonth(ctxOf(c), params.membershipId, body)));
mount(router, r.changeDate, async (c, { params, body }) => c.json(await changeBillingDate(ctxOf(c), params.membershipId, body)));
mount(router, r.switchCycle, async (c, { params, body }) => c.json(await switchBillingCycle(ctxOf(c), params.membershipId, body)));
mount(router, r.changePrice, async (c, { params, body }) => c.json(await changePrice(ctxOf(c), params.membershipId, body)));
mount(router, r.refund, async (c, { params, body }) => c.json(await refundInvoice(ctxOf(c), params.membershipId, body)));
mount(router, r.resend, async (c, { params, body }) => c.json(await resendReceipt(ctxOf(c), params.membershipId, params.invoiceId, body)));
mount(router, r.getCredits, async (c, { params, query }) => c.json(await getCredits(ctxOf(c), params.membershipId, query)));
mount(router, r.adjustCredits, async (c, { params, body }) => c.json(await adjustCredits(ctxOf(c), params.membershipId, body)));
mount(router, r.addFamily, async (c, { params, body }) => c.json(await addFamilyMember(ctxOf(c), params.membershipId, body)));
mount(router, r.removeFamily, async (c, { params, query }) => c.json(await removeFamilyMember(ctxOf(c), params.membershipId, params.renterId, query)));

mount(router, r.publicTiers, async (c, { query }) => c.json(await publicTiers(ctxOf(c), query)));
mount(router, r.enroll, async (c, { body }) => {
  await limitAbuse(c, 'membership-enroll', { operator: body.customerId, target: body.paymentMethodId });
  return c.json(await enroll(ctxOf(c), body), 201);
});
mount(router, r.memberPortalPage, (c) =>
  c.html(
    portalPageHtml({ app: 'member', title: 'Member portal', noscript: 'The member portal needs JavaScript. Please call us to manage your membership.' }),
    200,
    renterPageHeaders(c.env, { framed: false }),
  ),
);
mount(router, r.portalLink, async (c, { body }) => {
  await limitAbuse(c, 'member-portal-link', { operator: body.customerId, target: body.email });
  return c.json(await requestPortalLink(ctxOf(c), body));
});
mount(router, r.portalSession, async (c, { body }) => c.json(await openPortalSession(ctxOf(c), body)));
mount(router, r.portalSignOut, async (c) => c.json(await portalSignOut(ctxOf(c))));
mount(router, r.portalGet, async (c) => c.json(await portalGet(ctxOf(c))));
mount(router, r.portalInvoices, async (c, { query }) => c.json(await portalInvoices(ctxOf(c), query)));
mount(router, r.portalPause, async (c, { body }) => c.json(await portalPause(ctxOf(c), body)));
mount(router, r.portalResume, async (c) => c.json(await portalResume(ctxOf(c))));
mount(router, r.portalCancel, async (c, { body }) => c.json(await portalCancel(ctxOf(c), body)));
mount(router, r.portalCard, async (c, { body }) => c.json(await portalCard(ctxOf(c), body)));

export default router;
