import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'short-links',
  router,
  tags: [
    {
      name: 'Short links',
      description: 'Short links for messages (`/s/{code}`): a counted 302 redirect to an http(s) URL for 30 days, then 410.',
    },
  ],
});
