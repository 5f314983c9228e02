import { defineModule } from '../../lib/module';
import router from './index';
import { onBookingCancelled, onBookingPlaced } from './earnings';

export default defineModule({
  name: 'affiliates',
  router,
  // Commissions are recorded as bookings are written, whichever path sold them, at the rate of that moment,
  // and reversed as they are cancelled.
  hooks: { 'booking.placed': onBookingPlaced, 'booking.cancelled': onBookingCancelled },
  tags: [
    {
      name: 'Affiliates',
      description: `Affiliates earn a percentage of the bookings they refer (\`refAffiliate\`) or sell with their promo codes;
payouts, manual commissions and recalculation.`,
    },
  ],
});
