import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'asset-pools',
  router,
  tags: [
    {
      name: 'Asset pools',
      description: `Groups of assets of one location that the operator sells as one pool. Operators use them directly; installed apps through the gateway (\`read:inventory\`, \`write:inventory\`).`,
    },
  ],
});
