import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'widget',
  router,
  tags: [{ name: 'Booking widget', description: 'The booking widget page that operators embed on their sites with /widget.js.' }],
});
