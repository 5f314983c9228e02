// Memberships service: the entry point other modules import (bookings reads benefits and pays with
// credits through it). The logic lives in the files next to it: tiers.ts, create.ts (selling and
// the claim), reads.ts, lifecycle.ts (the state table), billing.ts (free periods, date, cycle and
// price changes with proration, refunds, receipts), renewals.ts (the billing job and dunning),
// credits.ts (the ledger), family.ts, organizations.ts, benefits.ts (checkout) and portal.ts
// (public enrollment and the member portal).

export { listTiers, getTier, createTier, updateTier, deleteTier } from './tiers';
export { createMembership, openMembership } from './create';
export { listMemberships, getMembership } from './reads';
export { cancelMembership, reactivateMembership, pauseMembership, resumeMembership, autoResume } from './lifecycle';
export { addFreeMonth, changeBillingDate, switchBillingCycle, changePrice, listInvoices, refundInvoice, resendReceipt } from './billing';
export { runMembershipBilling, nextBillingDue, renewOne } from './renewals';
export { getCredits, adjustCredits, creditSpendStatements, isCreditOverdraft, creditOverdraftError, restoreCreditsOfCancelledRental } from './credits';
export { addFamilyMember, removeFamilyMember } from './family';
export {
  listOrganizations,
  getOrganization,
  createOrganization,
  updateOrganization,
  deleteOrganization,
  listOrgMembers,
  addOrgMember,
  removeOrgMember,
  createOrgMembership,
} from './organizations';
export { memberBenefitFor, memberBenefitQuery, memberBenefitFrom, benefitAppliesAt } from './benefits';
export {
  publicTiers,
  enroll,
  requestPortalLink,
  openPortalSession,
  portalGet,
  portalInvoices,
  portalPause,
  portalResume,
  portalCancel,
  portalCard,
} from './portal';
export type { MemberBenefit } from './types';
