import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'structured-data',
  router,
  tags: [
    {
      name: 'Structured data',
      description: `schema.org JSON-LD for search engines' rich results: items (Product or Event with Offer), locations (LocalBusiness with
their public inventory) and all items of an operator; prices and availability come from the live engine.`,
    },
  ],
});
