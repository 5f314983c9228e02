import { lt } from 'drizzle-orm';
import { defineModule } from '../../lib/module';
import { oauthAuthorizations } from '../../db/schema/oauth';
import router from './index';
import { oauthErrors } from './errors';
import { purgeDeviceCodes } from './device';
import { onAppChanged } from './installations';

export default defineModule({
  name: 'oauth',
  router,
  errors: oauthErrors.table,
  hooks: { 'app.changed': onAppChanged },
  jobs: [
    {
      name: 'oauth.purge',
      cron: '0 3 * * *',
      // Housekeeping of credentials that are no operator's business state.
      scope: 'platform',
      run: async (ctx) => {
        await purgeDeviceCodes(ctx);
        await ctx.db.delete(oauthAuthorizations).where(lt(oauthAuthorizations.expiresAt, ctx.clock.now() - 24 * 3600_000));
      },
    },
  ],
  tags: [
    {
      name: 'OAuth',
      description: `OAuth 2.0 for installed apps, following RFC 9700: exact redirect URIs, \`state\` passed through, \`iss\` in every authorization response,
PKCE S256 (required for public clients, \`plain\` refused), single-use 60-second codes (a reused code revokes what it issued), refresh-token rotation with
reuse detection, tokens stored only as hashes (each grant's state in its own Durable Object, so rotation is atomic). Access tokens last 1 hour, refresh
tokens 90 days. Also the device authorization grant (RFC 8628) of the command line, token exchange (RFC 8693) for embedded apps, revocation (RFC 7009),
metadata (RFC 8414) and the public keys of embedded session tokens.`,
    },
    {
      name: 'App installations',
      description: `An operator's installed apps (admins list and uninstall them; uninstalling stops every token at once), the embedded-app session tokens the
host issues, and the host and app SDK scripts.`,
    },
  ],
});
