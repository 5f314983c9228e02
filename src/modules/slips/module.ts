import { defineModule } from '../../lib/module';
import router from './index';
import { slipErrors } from './errors';
import { nextSlipReconcile, reconcileSlipSubscriptions } from './subscription';

export default defineModule({
  name: 'slips',
  router,
  errors: slipErrors.table,
  // Daily drift repair of the slip subscription's quantity; no due time of its own (runs daily as a test clock advances).
  jobs: [{ name: 'slips.subscription_reconcile', cron: '0 3 * * *', run: reconcileSlipSubscriptions, nextDue: nextSlipReconcile }],
  tags: [
    {
      name: 'Slips',
      description: `Marina units (slips, side-ties, moorings, dry-rack spaces) of a location: unit number, section, dimensions for the fit check, power and water, map pin, status. DELETE is a soft delete (out_of_service). Availability with the fit check is GET /slips/availability (Slip reservations).`,
    },
    {
      name: 'Slip subscription',
      description: `The marina subscription: a quota of slips billed monthly through the payment provider; slips in service above the quota are billed automatically at 10 dollars per slip per month.`,
    },
  ],
});
