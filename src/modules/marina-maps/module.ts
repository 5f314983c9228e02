import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'marina-maps',
  router,
  tags: [
    {
      name: 'Marina maps',
      description: `Maps of a marina location (an image with display order and an active flag) and the slip pins on them: assign, move, remove, batch updates in one atomic write, unassigned slips.`,
    },
  ],
});
