/**
 * The reference underwriter as its own Cloudflare Worker:
 *
 *   npx wrangler dev -c examples/reference-underwriter/wrangler.toml --port 8790
 *
 * Secrets: SIGNING_SECRET (the offering's signing secret, shown once when the offering was
 * created) and, during a rotation overlap, SIGNING_SECRET_PREVIOUS. BEHAVIOUR (optional) holds
 * behaviour flags that are always on (see underwriter.ts). Policies live in the isolate's memory:
 * this is a reference, not a production underwriter.
 */
import { createReferenceUnderwriter } from './underwriter';

interface Env {
  SIGNING_SECRET?: string;
  SIGNING_SECRET_PREVIOUS?: string;
  BEHAVIOUR?: string;
}

const store = new Map<string, unknown>();

export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    const secrets = [env.SIGNING_SECRET, env.SIGNING_SECRET_PREVIOUS].filter((s): s is string => !!s);
    if (!secrets.length) return new Response(JSON.stringify({ error: 'SIGNING_SECRET is not set' }), { status: 503 });
    return createReferenceUnderwriter({ secrets, store, behaviour: env.BEHAVIOUR }).fetch(req);
  },
};
