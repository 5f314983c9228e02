import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'channel-connections',
  router,
  tags: [
    {
      name: 'Channel connections',
      description: `Operator side of the reseller channel: connect to platform channels, commission and offer set, pause, remove,
single-operator keys and rotation, settlement.`,
    },
  ],
});
