import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'waivers',
  router,
  tags: [{ name: 'Waivers', description: 'Waiver templates, signing links, signatures and signed PDFs.' }],
});
