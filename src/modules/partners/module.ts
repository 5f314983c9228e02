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
(POST /oauth/device/code, then GET /device in a browser). 300 requests per minute per partner account.

**The partner journey.**
1. Register (POST /partners/register, active at once) or sign in (POST /partners/login); the command line uses the device grant.
2. Create an app (POST /partners/apps): scopes from the catalogue (GET /oauth/scopes), exact redirect URIs, an embed URL and embed locations,
booking-event subscriptions. Its manifest (GET/PUT /partners/apps/{appId}/manifest) is the app file \`berth.app.json\`.
3. Install it in the sandbox without approval: send a sandbox operator (or yourself, signed in with the partner account: the install lands in your
account's private sandbox operator, GET /partners/sandbox) to /oauth/authorize
with PKCE S256; exchange the code at POST /oauth/token; call /api/v1/<documented path> with the access token; refresh before it expires.
4. Test events with POST /partners/apps/{appId}/webhooks/test; embedded apps take the host's session token (verify it with /.well-known/jwks.json)
and may exchange it at POST /oauth/token.
5. Submit for review (POST /partners/apps/{appId}/submit); platform staff approve it or send it back with a reason; then live operators
install it, list it and uninstall it (every token stops at once).`,
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
