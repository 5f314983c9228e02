import { defineModule } from '../../lib/module';
import router from './index';
import { voiceErrors } from './errors';

export default defineModule({
  name: 'voice',
  router,
  errors: voiceErrors.table,
  tags: [
    {
      name: 'Voice',
      description: `The telephony provider's webhooks (Twilio; every request verified by its signature) answered with TwiML: the location's menu
from its \`ivrConfig\`, caller identification among its renters, sequential ringing, voicemail.`,
    },
  ],
});
