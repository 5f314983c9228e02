// The memberships module's face. Other code uses it for:
// - selling a membership (the seed): createMembership;
// - the billing and auto-resume jobs (tests drive them directly): runMembershipBilling, nextBillingDue, autoResume.
// The logic lives in the files next to it: tiers.ts, create.ts (selling and the claim), reads.ts,
// lifecycle.ts (the state table), billing.ts, renewals.ts (the billing job and dunning), credits.ts
// (the ledger), family.ts, organizations.ts, benefits.ts (checkout) and portal.ts (the member portal).

export { createMembership } from './create';
export { autoResume } from './lifecycle';
export { runMembershipBilling, nextBillingDue } from './renewals';
