import { defineModule } from '../../lib/module';
import router from './index';
import { membershipErrors } from './errors';
import { membershipSale } from './sale-extension';
import { restoreCreditsOfCancelledRental } from './credits';
import { autoResume } from './lifecycle';
import { nextBillingDue, runMembershipBilling } from './renewals';

export default defineModule({
  name: 'memberships',
  router,
  errors: membershipErrors.table,
  // Renewals, dunning retries, period-end cancellations and auto-resumes (one charge per membership and period, even when runs overlap).
  // nextDue: the next renewal or dunning retry, period-end cancellation or auto-resume.
  jobs: [{ name: 'memberships.billing', cron: '*/5 * * * *', run: (ctx) => runMembershipBilling(ctx, autoResume), nextDue: nextBillingDue }],
  // A cancelled booking paid with membership credits gives them back, whichever path cancelled it.
  hooks: { 'capacity.released': restoreCreditsOfCancelledRental },
  // The member's tier discount and membership credits as a payment source of a booking.
  sale: [membershipSale],
  tags: [
    {
      name: 'Memberships',
      description: `Recurring memberships: tiers, selling (first period charged), the state table (cancel, reactivate, pause, resume), billing
(renewals with dunning, free periods, date, cycle and price changes with proration, refunds, receipts), credits, family members and
organizations. Every call needs \`customerId\`; money is in cents.`,
    },
    {
      name: 'Membership enrollment and portal',
      description: `Public enrollment in public tiers from the booking widget, and the member portal reached by a single-use e-mailed link
(card, pause, cancel, invoices).`,
    },
  ],
});
