/** Public vocabulary of memberships (statuses, cycles, member types) and what bookings read at checkout. */
export const MEMBERSHIP_STATUSES = ['active', 'paused', 'past_due', 'canceled'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number] | 'incomplete';
export const BILLING_CYCLES = ['monthly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];
export const MEMBER_TYPES = ['individual', 'family', 'organization'] as const;
export type MemberType = (typeof MEMBER_TYPES)[number];
/** Statuses that hold the member's one live membership (the unique partial index). */
export const LIVE_STATUSES = ['incomplete', 'active', 'paused', 'past_due'] as const;

/** The benefit a renter gets at checkout from an active membership (own, family or organization). */
export interface MemberBenefit {
  membershipId: string;
  tierId: string;
  tierName: string;
  via: 'member' | 'family' | 'organization';
  /** Percent off the pre-tax price of each booking line (0 when the tier gives none). */
  discountPercentage: number;
  /** Credits available to pay bookings, in cents. */
  creditBalance: number;
  scope: 'all_locations' | 'selected_locations';
  locationIds: string[];
}
