import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'partner-calls',
  router,
  tags: [
    {
      name: 'Partner calls',
      description: `Voice calls placed through the telephony adapter: \`/calls/partner/*\`, for installed apps with the \`audio_calling\` scope (under /api/v1) and for operators.`,
    },
  ],
});
