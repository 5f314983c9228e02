import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'public-slips',
  router,
  tags: [
    {
      name: 'Public slips',
      description: `Anonymous marina pages: active maps with pins, units, availability with the fit check, prices, the location's booking configuration, online bookings with the location's settings (approval, deposit or payment through the payment provider, required documents with a presigned upload) and the waitlist. Rate limited per IP address; no renter data is shown.`,
    },
  ],
});
