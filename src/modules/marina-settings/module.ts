import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'marina-settings',
  router,
  tags: [
    {
      name: 'Slip settings',
      description: `Marina booking settings per location: approval, deposit policy, required documents, check-in and check-out times, fit clearances, bill hold time, rates per foot, fees, utilities, tax and the default contract template. Read with the defaults merged.`,
    },
  ],
});
