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
