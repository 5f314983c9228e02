import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { sha256Hex } from '../../lib/crypto';
import { clientSecretMatches, effectiveManifest, findApp, revokePartnerTokenByHash, type AppRow } from '../partners/service';
import { CLI_CLIENT_ID, isScope } from '../partners/types';
import { ACCESS_TOKEN_TTL_MS, GRANT_TYPES, TOKEN_TYPES, grantIdOf, type GrantFailure, type Issued } from './types';
import { oauthFail } from './errors';
import { exchangeGrant, findInstallation, grantStub, markGrantsRevoked } from './installations';
import { verifySessionToken } from './keys';
import { pollDeviceCode } from './device';

export interface TokenRequest {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
  subject_token?: string;
  subject_token_type?: string;
  requested_token_type?: string;
  device_code?: string;
}

type Client = { kind: 'cli' } | { kind: 'app'; app: AppRow };

/**
 * Client authentication (RFC 6749 2.3): HTTP Basic (`client_id:client_secret`, form-encoded) or
 * `client_secret` in the body for confidential clients; `client_id` alone for public clients and
 * the command line. Failure: 401 `invalid_client`.
 */
export async function authenticateClient(ctx: Ctx, authorization: string | undefined, body: { client_id?: string; client_secret?: string }): Promise<Client> {
  let basic: { id: string; secret: string } | undefined;
  const m = authorization ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization.trim()) : null;
  if (authorization && !m) throw oauthFail('invalid_client', 'Authorization must be HTTP Basic with client_id:client_secret');
  if (m) {
    let decoded: string;
    try {
      decoded = atob(m[1]);
    } catch {
      throw oauthFail('invalid_client', 'Malformed HTTP Basic credentials');
    }
    const i = decoded.indexOf(':');
    if (i < 0) throw oauthFail('invalid_client', 'Malformed HTTP Basic credentials');
    try {
      basic = { id: decodeURIComponent(decoded.slice(0, i)), secret: decodeURIComponent(decoded.slice(i + 1)) };
    } catch {
      throw oauthFail('invalid_client', 'Malformed HTTP Basic credentials');
    }
  }
  if (basic && body.client_secret !== undefined) throw oauthFail('invalid_request', 'Use one client authentication method, not both');
  if (basic && body.client_id !== undefined && body.client_id !== basic.id) throw oauthFail('invalid_request', 'client_id differs from the HTTP Basic user');
  const clientId = basic?.id ?? body.client_id;
  if (!clientId) throw oauthFail('invalid_client', 'client_id is required');
  const secret = basic?.secret ?? body.client_secret;
  const wwwAuth = basic ? { headers: { 'WWW-Authenticate': 'Basic realm="berth-oauth"' } } : {};
  if (clientId === CLI_CLIENT_ID) {
    if (secret) throw oauthFail('invalid_client', 'The command-line client is public: it has no secret', wwwAuth);
    return { kind: 'cli' };
  }
  const app = await findApp(ctx, clientId);
  if (!app) throw oauthFail('invalid_client', 'Unknown client', wwwAuth);
  if (app.clientType === 'confidential') {
    if (!(await clientSecretMatches(app, secret))) throw oauthFail('invalid_client', 'Client authentication failed', wwwAuth);
  } else if (secret) {
    throw oauthFail('invalid_client', 'Public clients have no secret (they prove themselves with PKCE)', wwwAuth);
  }
  return { kind: 'app', app };
}

const scopesOf = (scope: string | undefined) => (scope === undefined ? undefined : [...new Set(scope.split(' ').filter(Boolean))]);

async function failed(ctx: Ctx, grantId: string, r: GrantFailure): Promise<never> {
  if (r.revoked) await markGrantsRevoked(ctx, [grantId], r.reason.includes('code') ? 'authorization code reused' : 'refresh token reuse');
  throw oauthFail(r.error ?? 'invalid_grant', r.reason);
}

function tokenResponse(r: Issued) {
  return {
    access_token: r.accessToken,
    token_type: 'Bearer' as const,
    expires_in: Math.round(ACCESS_TOKEN_TTL_MS / 1000),
    ...(r.refreshToken ? { refresh_token: r.refreshToken } : {}),
    scope: r.grant.scopes.join(' '),
    installation_id: r.grant.installationId,
    customer_id: r.grant.customerId,
  };
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** POST /oauth/token: every grant type. */
export async function token(ctx: Ctx, issuer: string, authorization: string | undefined, body: TokenRequest) {
  if (!body.grant_type) throw oauthFail('invalid_request', 'grant_type is required');
  const client = await authenticateClient(ctx, authorization, body);
  if (body.grant_type === GRANT_TYPES.deviceCode) {
    if (client.kind !== 'cli') throw oauthFail('unauthorized_client', `The device code grant is for the command-line client (${CLI_CLIENT_ID})`);
    return await pollDeviceCode(ctx, body.device_code);
  }
  if (client.kind !== 'app') throw oauthFail('unauthorized_client', 'The command-line client only uses the device code grant');
  const app = client.app;
  switch (body.grant_type) {
    case GRANT_TYPES.authorizationCode: {
      if (!body.code) throw oauthFail('invalid_request', 'code is required');
      if (!body.redirect_uri) throw oauthFail('invalid_request', 'redirect_uri is required (the one of the authorization request)');
      if (body.code_verifier !== undefined && !VERIFIER.test(body.code_verifier))
        throw oauthFail('invalid_request', 'code_verifier must be 43 to 128 unreserved characters');
      if (app.clientType === 'public' && !body.code_verifier) throw oauthFail('invalid_request', 'code_verifier is required for public clients (PKCE)');
      const parsed = grantIdOf(body.code);
      if (!parsed || parsed.kind !== 'bac') throw oauthFail('invalid_grant', 'Unknown authorization code');
      const r = await grantStub(ctx, parsed.grantId).redeemCode({
        codeHash: await sha256Hex(body.code),
        clientId: app.id,
        redirectUri: body.redirect_uri,
        verifier: body.code_verifier,
      });
      if (!r.ok) return await failed(ctx, parsed.grantId, r);
      return tokenResponse(r);
    }
    case GRANT_TYPES.refreshToken: {
      if (!body.refresh_token) throw oauthFail('invalid_request', 'refresh_token is required');
      const parsed = grantIdOf(body.refresh_token);
      if (!parsed || parsed.kind !== 'brt') throw oauthFail('invalid_grant', 'Unknown refresh token');
      const scopes = scopesOf(body.scope);
      if (scopes?.some((s) => !isScope(s))) throw oauthFail('invalid_scope', 'Unknown scope');
      const r = await grantStub(ctx, parsed.grantId).refresh({ tokenHash: await sha256Hex(body.refresh_token), clientId: app.id, scopes });
      if (!r.ok) return await failed(ctx, parsed.grantId, r);
      return tokenResponse(r);
    }
    case GRANT_TYPES.tokenExchange:
      return await exchange(ctx, issuer, app, body);
    default:
      throw oauthFail('unsupported_grant_type', `grant_type ${body.grant_type} is not supported`);
  }
}

/**
 * RFC 8693 token exchange: an embedded app trades the host's session token (subject_token, a JWT
 * whose audience is this client) for an access token of its installation, acting as the session's user.
 */
async function exchange(ctx: Ctx, issuer: string, app: AppRow, body: TokenRequest) {
  if (!body.subject_token) throw oauthFail('invalid_request', 'subject_token is required');
  if (body.subject_token_type !== TOKEN_TYPES.jwt && body.subject_token_type !== TOKEN_TYPES.idToken) {
    throw oauthFail('invalid_request', `subject_token_type must be ${TOKEN_TYPES.jwt}`);
  }
  if (body.requested_token_type !== undefined && body.requested_token_type !== TOKEN_TYPES.accessToken) {
    throw oauthFail('invalid_request', `requested_token_type must be ${TOKEN_TYPES.accessToken}`);
  }
  let claims;
  try {
    claims = await verifySessionToken(ctx, body.subject_token, { issuer, clientId: app.id });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw oauthFail('invalid_grant', `The session token is not valid for this client: ${(err as Error).message}`);
  }
  const inst = claims.installationId ? await findInstallation(ctx, claims.installationId) : undefined;
  if (!inst || inst.status !== 'active' || inst.appId !== app.id || inst.customerId !== claims.customerId || !claims.sub) {
    throw oauthFail('invalid_grant', 'The installation of the session token is not active');
  }
  if (!effectiveManifest(app, inst.sandbox)) throw oauthFail('invalid_grant', 'The app is not available to this operator');
  const requested = scopesOf(body.scope);
  if (requested?.some((s) => !inst.scopes.includes(s))) throw oauthFail('invalid_scope', 'scope exceeds what the installation granted');
  const grantId = await exchangeGrant(ctx, inst, claims.sub);
  const r = await grantStub(ctx, grantId).issueAccess({ clientId: app.id, scopes: requested?.length ? requested : inst.scopes });
  if (!r.ok) return await failed(ctx, grantId, r);
  const { refresh_token: _none, ...rest } = tokenResponse(r);
  return { ...rest, issued_token_type: TOKEN_TYPES.accessToken };
}

/**
 * RFC 7009 revocation: a refresh token revokes its whole grant, an access token stops alone, the
 * command line's partner token signs it out. Unknown tokens answer 200 as the RFC says; a token
 * of another client is refused.
 */
export async function revoke(
  ctx: Ctx,
  authorization: string | undefined,
  body: { token?: string; token_type_hint?: string; client_id?: string; client_secret?: string },
) {
  const client = await authenticateClient(ctx, authorization, body);
  if (!body.token) throw oauthFail('invalid_request', 'token is required');
  if (body.token.startsWith('bpt_')) {
    if (client.kind !== 'cli')
      throw oauthFail('unsupported_token_type', 'Partner tokens are revoked by the command-line client or DELETE /partners/tokens/{tokenId}');
    await revokePartnerTokenByHash(ctx, await sha256Hex(body.token));
    return { revoked: true };
  }
  const parsed = grantIdOf(body.token);
  if (!parsed || parsed.kind === 'bac' || client.kind !== 'app') return { revoked: false };
  const r = await grantStub(ctx, parsed.grantId).revokeToken({ tokenHash: await sha256Hex(body.token), clientId: client.app.id });
  if (r.wrongClient) throw oauthFail('invalid_request', 'The token was issued to another client');
  if (r.grantRevoked) await markGrantsRevoked(ctx, [parsed.grantId], 'revoked by the client');
  return { revoked: r.found };
}
