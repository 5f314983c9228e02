import { defineModule } from '../../lib/module';
import router from './index';
import { meterErrors } from './errors';

export default defineModule({
  name: 'meter-readings',
  router,
  errors: meterErrors.table,
  tags: [
    {
      name: 'Meter readings',
      description: `Electricity (kWh) and water (gallons) meter readings of marina units: usage from the previous reading with meter rollover handled from the digit count, flags for review (a reading below the previous one, usage above 3× the unit's usual), billing marks, and charges to a slip reservation at the location's utility rates, exactly once. Billed readings never change.`,
    },
  ],
});
