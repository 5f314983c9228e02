/** Public vocabulary of the slip waitlist. */
export const WAITLIST_STATUSES = ['waiting', 'offered', 'accepted', 'cancelled'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

export const OFFER_STATUSES = ['offered', 'accepted', 'declined', 'expired', 'withdrawn'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
