import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'boat-records',
  router,
  tags: [{ name: 'Inventory records', description: 'Check-in and check-out records of boats: condition, fuel, engine hours, photos.' }],
});
