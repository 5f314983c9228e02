import { defineModule } from '../../lib/module';
import router from './index';

/** The booking sidekick and the fleet concierge (AI helpers of the widget; routes under the Public tag). */
export default defineModule({ name: 'assistants', router });
