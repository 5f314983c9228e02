/** A code as the booking commit uses it (from `findBookingPromo`), counted in the booking's batch by `bookingPromoUse`. */
export interface BookingPromo {
  promoCodeId: string;
  code: string;
  percentOff: number | null;
  /** Cents. */
  amountOff: number | null;
  affiliateId: string | null;
  commissionRate: number | null;
}

/** A gift card as the booking commit spends it (from `findBookingGiftCard`), in the booking's batch by `bookingGiftCardUse`. */
export interface BookingGiftCard {
  promoCodeId: string;
  code: string;
  /** Cents left on the card. */
  balance: number;
  affiliateId: string | null;
  commissionRate: number | null;
}

/** Unambiguous alphabet of generated gift-card codes (no 0/O, 1/I/L). */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
