import { defineErrors } from '../../lib/errors';

/** Error codes of the Memberships family (the spec lists 400 for every refused membership action). */
export const membershipErrors = defineErrors({
  payment_declined: {
    status: 400,
    meaning: 'Memberships: the card was declined or needs authentication; nothing was written (`declineCode` says why)',
  },
  payment_method_required: { status: 400, meaning: 'Memberships: a charge is due and neither `paymentMethodId` nor a saved card of the member is available' },
  already_member: {
    status: 400,
    meaning: 'Memberships: the member already has a live membership, or the renter is already on this membership or organization',
  },
  membership_state: { status: 400, meaning: "Memberships: the membership's status does not allow this action (the message names the status)" },
  pause_not_allowed: { status: 400, meaning: "Memberships: the tier's pause policy does not allow this pause (disabled, yearly maximum reached, or too long)" },
  family_not_enabled: { status: 400, meaning: 'Memberships: the tier has no family option' },
  member_limit_reached: { status: 400, meaning: "Memberships: the family's `maxMembers` or the organization's `maxAuthorizedRenters` is reached" },
  insufficient_credits: { status: 400, meaning: 'Memberships: the credit balance would become negative' },
  tier_in_use: { status: 400, meaning: 'Memberships: the tier has memberships that are not canceled; deactivate it instead' },
  organization_in_use: { status: 400, meaning: 'Memberships: the organization has a membership that is not canceled' },
  tier_not_for_organizations: { status: 400, meaning: "Memberships: the tier's `allowedMemberTypes` does not include `organization`" },
  renter_required: { status: 400, meaning: 'Memberships: no renter has this e-mail; send `createRenter: true` (with names) or a `renterId`' },
  refund_exceeds_payment: { status: 400, meaning: 'Memberships: the refund is larger than what the invoice has left to refund' },
});

export type MembershipErrorCode = keyof typeof membershipErrors.table;
