import type { Env } from '../env';
import { ApiError } from '../lib/errors';
import { outbound } from './http';

type IdpEnv = Env & { IDP_DOMAIN?: string; IDP_MANAGEMENT_TOKEN?: string };

/**
 * Identity provider (dashboard logins). Offline default: the user exists only in Berth (subject
 * `local|<userId>`) and invitation and password e-mails go to the message outbox (the caller adds
 * them to its batch). With IDP_DOMAIN and IDP_MANAGEMENT_TOKEN, an Auth0-compatible management
 * API creates and deletes the identities and issues password-change tickets.
 */
export const idpConfigured = (env: IdpEnv) => Boolean(env.IDP_DOMAIN && env.IDP_MANAGEMENT_TOKEN);

async function mgmt(env: IdpEnv, path: string, init: RequestInit): Promise<Response> {
  const res = await outbound.fetch(`https://${env.IDP_DOMAIN}/api/v2${path}`, {
    ...init,
    headers: { authorization: `Bearer ${env.IDP_MANAGEMENT_TOKEN}`, 'content-type': 'application/json' },
  });
  if (!res.ok && res.status !== 404) throw new ApiError('service_unavailable', `Identity provider answered ${res.status}`);
  return res;
}

export async function createIdentity(env: IdpEnv, user: { id: string; email: string; name: string }): Promise<{ subject: string }> {
  if (!idpConfigured(env)) return { subject: `local|${user.id}` };
  const res = await mgmt(env, '/users', {
    method: 'POST',
    body: JSON.stringify({
      email: user.email,
      name: user.name,
      connection: 'Username-Password-Authentication',
      password: crypto.randomUUID() + 'Aa1!',
      app_metadata: { berthUserId: user.id },
    }),
  });
  const body = (await res.json()) as { user_id: string };
  return { subject: body.user_id };
}

export async function deleteIdentity(env: IdpEnv, subject: string | null): Promise<void> {
  if (!subject || !idpConfigured(env) || subject.startsWith('local|')) return;
  await mgmt(env, `/users/${encodeURIComponent(subject)}`, { method: 'DELETE' });
}

/** A link the user follows to set a password (offline: a local URL carrying a one-time token). */
export async function passwordLink(env: IdpEnv, subject: string, email: string): Promise<string> {
  if (!idpConfigured(env) || subject.startsWith('local|')) {
    const base = env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:8787';
    return `${base}/auth/set-password?email=${encodeURIComponent(email)}&token=${crypto.randomUUID()}`;
  }
  const res = await mgmt(env, '/tickets/password-change', { method: 'POST', body: JSON.stringify({ user_id: subject }) });
  const body = (await res.json()) as { ticket: string };
  return body.ticket;
}

/**
 * The consent page's sign-in at the identity provider (OIDC authorization code with PKCE):
 * exchanges the code for an access token of the API audience, which is then verified like
 * any dashboard token. Needs IDP_DOMAIN and IDP_CLIENT_ID (a public client of the provider).
 */
export async function exchangeLoginCode(
  env: IdpEnv & { IDP_CLIENT_ID?: string },
  input: { code: string; redirectUri: string; verifier: string },
): Promise<string> {
  if (!env.IDP_DOMAIN || !env.IDP_CLIENT_ID)
    throw new ApiError('service_unavailable', 'Sign-in at the identity provider is not configured (IDP_DOMAIN, IDP_CLIENT_ID)');
  const res = await outbound.fetch(`https://${env.IDP_DOMAIN}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: env.IDP_CLIENT_ID,
      code: input.code,
      redirect_uri: input.redirectUri,
      code_verifier: input.verifier,
    }),
  });
  if (!res.ok) throw new ApiError('unauthenticated', `The identity provider refused the sign-in (${res.status})`);
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new ApiError('unauthenticated', 'The identity provider answered no access token');
  return body.access_token;
}

/** Where the consent page sends the operator to sign in (the provider's hosted login). */
export function loginUrl(
  env: IdpEnv & { IDP_CLIENT_ID?: string; JWT_AUDIENCE: string },
  input: { redirectUri: string; state: string; challenge: string },
): string | null {
  if (!env.IDP_DOMAIN || !env.IDP_CLIENT_ID) return null;
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: env.IDP_CLIENT_ID,
    redirect_uri: input.redirectUri,
    scope: 'openid profile email',
    audience: env.JWT_AUDIENCE,
    state: input.state,
    code_challenge: input.challenge,
    code_challenge_method: 'S256',
  });
  return `https://${env.IDP_DOMAIN}/authorize?${q}`;
}
