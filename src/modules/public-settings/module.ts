import { defineModule } from '../../lib/module';
import router from './index';

/** The operator's public settings and host-page integrations for the booking widget (routes under the Public tag). */
export default defineModule({ name: 'public-settings', router });
