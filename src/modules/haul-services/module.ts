import { defineModule } from '../../lib/module';
import router from './index';
import { haulErrors } from './errors';

export default defineModule({
  name: 'haul-services',
  router,
  errors: haulErrors.table,
  tags: [
    {
      name: 'Haul services',
      description: `Haul-outs, launches, haul and hold, round trips and relocations of boats by the yard's lift: requested, scheduled with pricing within the location's daily lift capacity, confirmed by the renter or staff, started, completed (the charge is posted to the slip reservation), or cancelled before the work starts. Photos in R2.`,
    },
  ],
});
