import { defineModule } from '../../lib/module';
import router from './index';
import { inventoryErrors } from './errors';

export default defineModule({
  name: 'inventory',
  router,
  errors: inventoryErrors.table,
  tags: [{ name: 'Inventory', description: 'Rentable items and tours: pricing, schedules, assets, photos, videos and asset maps.' }],
});
