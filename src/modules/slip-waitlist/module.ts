import { defineModule } from '../../lib/module';
import router from './index';
import { waitlistErrors } from './errors';
import { nextOfferExpiry, sweepOffers } from './offers';

export default defineModule({
  name: 'slip-waitlist',
  router,
  errors: waitlistErrors.table,
  // Offers not answered in time expire (the unit is free from the expiry instant already); offers settled elsewhere are closed.
  // Due at the next open offer's expiry.
  jobs: [{ name: 'slip-waitlist.sweep_offers', cron: '*/5 * * * *', run: sweepOffers, nextDue: nextOfferExpiry }],
  tags: [
    {
      name: 'Slip waitlist',
      description: `Boaters waiting for a slip that fits their boat, in queue order per location. A unit is offered to an entry by holding it through the unit's SlipLock for a set time (location setting, default 72 hours) and e-mailing the renter; accepting turns the hold into a confirmed reservation, declining releases it and moves the entry to the bottom, an offer not answered in time expires by itself.`,
    },
  ],
});
