import { defineModule } from '../../lib/module';
import router from './index';
import { partnerErrors } from './errors';

export default defineModule({
  name: 'partners',
  router,
  errors: partnerErrors.table,
  tags: [
    {
      name: 'Partner accounts',
      description: `The account partners share: app developers, resellers (the channel portal) and underwriters (coverage), and the command-line tool \`berth\`.
Register or sign in for a partner token (\`Authorization: Bearer bpt_...\`, 30 days); the command line gets one through the device authorization grant
(POST /oauth/device/code, then GET /device in a browser). 300 requests per minute per partner account.`,
    },
    {
      name: 'Partner apps',
      description: `A partner's apps: each is an OAuth client with scopes, exact redirect URIs, an embed URL and embed locations, and booking-event subscriptions.
Status: \`draft\` (installs in the sandbox without approval) -> \`in_review\` (submit) -> \`approved\` (live operators can install it) or back to \`draft\` with a reason.`,
    },
    {
      name: 'App review',
      description: 'Platform staff (`x-platform-key`) approve apps in review or send them back with a reason.',
    },
  ],
});
