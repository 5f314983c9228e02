import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';
import { limitAbuse } from '../../lib/abuse';

const router = createRouter();

// Tiers and organizations first: their static segments must win over /memberships/{membershipId}.
mount(router, r.listTiers, async (c, { query }) => c.json(await svc.listTiers(ctxOf(c), query)));
mount(router, r.createTier, async (c, { body }) => c.json(await svc.createTier(ctxOf(c), body), 201));
mount(router, r.getTier, async (c, { params, query }) => c.json(await svc.getTier(ctxOf(c), params.tierId, query)));
mount(router, r.updateTier, async (c, { params, body }) => c.json(await svc.updateTier(ctxOf(c), params.tierId, body)));
mount(router, r.deleteTier, async (c, { params, query }) => c.json(await svc.deleteTier(ctxOf(c), params.tierId, query)));

mount(router, r.listOrgs, async (c, { query }) => c.json(await svc.listOrganizations(ctxOf(c), query)));
mount(router, r.createOrg, async (c, { body }) => c.json(await svc.createOrganization(ctxOf(c), body), 201));
mount(router, r.getOrg, async (c, { params, query }) => c.json(await svc.getOrganization(ctxOf(c), params.orgId, query)));
mount(router, r.updateOrg, async (c, { params, body }) => c.json(await svc.updateOrganization(ctxOf(c), params.orgId, body)));
mount(router, r.deleteOrg, async (c, { params, query }) => c.json(await svc.deleteOrganization(ctxOf(c), params.orgId, query)));
mount(router, r.addOrgMember, async (c, { params, body }) => c.json(await svc.addOrgMember(ctxOf(c), params.orgId, body)));
mount(router, r.listOrgMembers, async (c, { params, query }) => c.json(await svc.listOrgMembers(ctxOf(c), params.orgId, query)));
mount(router, r.removeOrgMember, async (c, { params, query }) => c.json(await svc.removeOrgMember(ctxOf(c), params.orgId, params.renterId, query)));
mount(router, r.createOrgMembership, async (c, { params, body }) => c.json(await svc.createOrgMembership(ctxOf(c), params.orgId, body), 201));

mount(router, r.listMemberships, async (c, { query }) => c.json(await svc.listMemberships(ctxOf(c), query)));
mount(router, r.createMembership, async (c, { body }) => c.json(await svc.createMembership(ctxOf(c), body), 201));
mount(router, r.getMembership, async (c, { params, query }) => c.json(await svc.getMembership(ctxOf(c), params.membershipId, query)));
mount(router, r.cancelMembership, async (c, { params, body }) => c.json(await svc.cancelMembership(ctxOf(c), params.membershipId, body)));
mount(router, r.reactivateMembership, async (c, { params, body }) => c.json(await svc.reactivateMembership(ctxOf(c), params.membershipId, body)));
mount(router, r.pauseMembership, async (c, { params, body }) => c.json(await svc.pauseMembership(ctxOf(c), params.membershipId, body)));
mount(router, r.resumeMembership, async (c, { params, body }) => c.json(await svc.resumeMembership(ctxOf(c), params.membershipId, body)));
mount(router, r.listInvoices, async (c, { params, query }) => c.json(await svc.listInvoices(ctxOf(c), params.membershipId, query)));
mount(router, r.addFreeMonth, async (c, { params, body }) => c.json(await svc.addFreeMonth(ctxOf(c), params.membershipId, body)));
mount(router, r.changeDate, async (c, { params, body }) => c.json(await svc.changeBillingDate(ctxOf(c), params.membershipId, body)));
mount(router, r.switchCycle, async (c, { params, body }) => c.json(await svc.switchBillingCycle(ctxOf(c), params.membershipId, body)));
mount(router, r.changePrice, async (c, { params, body }) => c.json(await svc.changePrice(ctxOf(c), params.membershipId, body)));
mount(router, r.refund, async (c, { params, body }) => c.json(await svc.refundInvoice(ctxOf(c), params.membershipId, body)));
mount(router, r.resend, async (c, { params, body }) => c.json(await svc.resendReceipt(ctxOf(c), params.membershipId, params.invoiceId, body)));
mount(router, r.getCredits, async (c, { params, query }) => c.json(await svc.getCredits(ctxOf(c), params.membershipId, query)));
mount(router, r.adjustCredits, async (c, { params, body }) => c.json(await svc.adjustCredits(ctxOf(c), params.membershipId, body)));
mount(router, r.addFamily, async (c, { params, body }) => c.json(await svc.addFamilyMember(ctxOf(c), params.membershipId, body)));
mount(router, r.removeFamily, async (c, { params, query }) => c.json(await svc.removeFamilyMember(ctxOf(c), params.membershipId, params.renterId, query)));

mount(router, r.publicTiers, async (c, { query }) => c.json(await svc.publicTiers(ctxOf(c), query)));
mount(router, r.enroll, async (c, { body }) => {
  await limitAbuse(c, 'membership-enroll', { operator: body.customerId, target: body.paymentMethodId });
  return c.json(await svc.enroll(ctxOf(c), body), 201);
});
mount(router, r.portalLink, async (c, { body }) => {
  await limitAbuse(c, 'member-portal-link', { operator: body.customerId, target: body.email });
  return c.json(await svc.requestPortalLink(ctxOf(c), body));
});
mount(router, r.portalSession, async (c, { body }) => c.json(await svc.openPortalSession(ctxOf(c), body)));
mount(router, r.portalGet, async (c) => c.json(await svc.portalGet(ctxOf(c))));
mount(router, r.portalInvoices, async (c, { query }) => c.json(await svc.portalInvoices(ctxOf(c), query)));
mount(router, r.portalPause, async (c, { body }) => c.json(await svc.portalPause(ctxOf(c), body)));
mount(router, r.portalResume, async (c) => c.json(await svc.portalResume(ctxOf(c))));
mount(router, r.portalCancel, async (c, { body }) => c.json(await svc.portalCancel(ctxOf(c), body)));
mount(router, r.portalCard, async (c, { body }) => c.json(await svc.portalCard(ctxOf(c), body)));

export default router;
