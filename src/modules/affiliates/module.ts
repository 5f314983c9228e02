import { defineModule } from '../../lib/module';
import router from './index';
import { onBookingPlaced } from './earnings';

export default defineModule({
  name: 'affiliates',
  router,
  // Commissions are recorded as bookings are written, whichever path sold them, at the rate of that moment.
  hooks: { 'booking.placed': onBookingPlaced },
  tags: [
    {
      name: 'Affiliates',
      description: `Affiliates earn a percentage of the bookings they refer (\`refAffiliate\`) or sell with their promo codes;
payouts, manual commissions and recalculation.`,
    },
  ],
});
