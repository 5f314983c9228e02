import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'booking-events',
  router,
  tags: [{ name: 'Booking events', description: 'Funnel events of the booking widget (views, dates and slots chosen, checkouts).' }],
});
