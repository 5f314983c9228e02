import { defineModule } from '../../lib/module';
import router from './index';
import { reservationErrors } from './errors';
import { expireBillHolds, nextBillHoldExpiry } from './bill-holds';

export default defineModule({
  name: 'slip-reservations',
  router,
  errors: reservationErrors.table,
  // Bill holds that ran out become `expired` (the unit is free from the hold's expiry instant already); due at the next hold's expiry.
  jobs: [{ name: 'slip-reservations.expire_bill_holds', cron: '*/5 * * * *', run: expireBillHolds, nextDue: nextBillHoldExpiry }],
  tags: [
    {
      name: 'Slip reservations',
      description: `Reservations of marina units by the night, month, season or year: fit check, per-foot pricing with fees, utilities and tax, bill with hold timer, confirmation, check-in and check-out, transfers, payments (recorded, saved card, card reader), refunds, deferred revenue recognition, messages. Every reservation, transfer and date change of a unit goes through that unit's SlipLock Durable Object, with a database trigger as backstop.`,
    },
  ],
});
