import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'waiver-numbers',
  router,
  tags: [{ name: 'Waiver numbers', description: 'Pending renters identified by a waiver number and PIN before they sign.' }],
});
