import { defineModule } from '../../lib/module';
import router from './index';

/** The daily manifest of a location (JSON, CSV, PDF). */
export default defineModule({
  name: 'manifests',
  router,
  tags: [{ name: 'Manifests', description: "A location's bookings of one day: people, waivers, check-in state, staff and balance due, to print or export." }],
});
