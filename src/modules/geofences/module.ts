import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'geofences',
  router,
  tags: [
    {
      name: 'Geofences and positions',
      description: `Geofences of a location (circles and polygons), the last known position of each staff member and asset, and the live map the
\`asset-tracking\` embed draws. Positions come from staff reports and device reports now; the GPS integration writes asset positions the same way.
Gateway scopes: \`read:geofence\`, \`write:geofence\`.`,
    },
  ],
});
