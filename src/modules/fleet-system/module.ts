import { defineModule } from '../../lib/module';
import router from './index';
import { fleetErrors } from './errors';

export default defineModule({
  name: 'fleet-system',
  router,
  errors: fleetErrors.table,
  tags: [
    {
      name: 'Fleet software',
      description: `The operator's fleet-management system (OAuth 2.0 client credentials; simulated offline in development): inventory types,
products, reservations and invoices, and bookings sent as one reservation per asset, idempotently.`,
    },
  ],
});
