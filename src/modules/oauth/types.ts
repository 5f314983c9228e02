/** OAuth protocol constants and the shapes the grant Durable Object (durable-objects/oauth-grant.ts) exchanges with the module. */

/** Spec Limits: access token 1 hour, refresh token 90 days. */
export const ACCESS_TOKEN_TTL_MS = 3600_000;
export const REFRESH_TOKEN_TTL_MS = 90 * 24 * 3600_000;
/** Authorization codes are single-use and live 60 seconds. */
export const CODE_TTL_MS = 60_000;
/** A refresh token rotated out stays usable this long (at most REFRESH_GRACE_RETRIES times) for a client that lost the answer. */
export const REFRESH_GRACE_MS = 60_000;
export const REFRESH_GRACE_RETRIES = 3;
/** Embedded session tokens live 5 minutes. */
export const SESSION_TOKEN_TTL_S = 300;
/** Device authorization requests live 15 minutes; clients poll every 5 seconds. */
export const DEVICE_CODE_TTL_MS = 15 * 60_000;
export const DEVICE_POLL_INTERVAL_S = 5;
/** Pending /oauth/authorize requests live 10 minutes. */
export const AUTHORIZE_TTL_MS = 10 * 60_000;

export const GRANT_TYPES = {
  authorizationCode: 'authorization_code',
  refreshToken: 'refresh_token',
  tokenExchange: 'urn:ietf:params:oauth:grant-type:token-exchange',
  deviceCode: 'urn:ietf:params:oauth:grant-type:device_code',
} as const;

export const TOKEN_TYPES = {
  accessToken: 'urn:ietf:params:oauth:token-type:access_token',
  jwt: 'urn:ietf:params:oauth:token-type:jwt',
  idToken: 'urn:ietf:params:oauth:token-type:id_token',
} as const;

export interface GrantInit {
  grantId: string;
  kind: 'authorization_code' | 'token_exchange';
  installationId: string;
  appId: string;
  customerId: string;
  userId: string;
  scopes: string[];
  sandbox: boolean;
  code?: { hash: string; expiresAt: number; redirectUri: string; challenge: string | null };
}

/** What a live access token stands for. */
export interface GrantInfo {
  grantId: string;
  kind: GrantInit['kind'];
  installationId: string;
  appId: string;
  customerId: string;
  userId: string;
  scopes: string[];
  sandbox: boolean;
  /** Expiry of the access token (epoch ms). */
  expiresAt: number;
}

export interface Issued {
  ok: true;
  accessToken: string;
  refreshToken?: string;
  grant: GrantInfo;
}

export interface GrantFailure {
  ok: false;
  reason: string;
  /** Set when this call revoked the grant (code or refresh-token reuse). */
  revoked?: boolean;
  /** OAuth error code (default `invalid_grant`). */
  error?: 'invalid_grant' | 'invalid_scope';
}

/** `bat_` access, `brt_` refresh, `bac_` authorization code: `<prefix>_<grant ULID>_<40 random characters>`. */
export const TOKEN_RE = /^(bat|brt|bac)_([0-9A-HJKMNP-TV-Z]{26})_([A-Za-z0-9]{40})$/;

export function grantIdOf(token: string): { kind: 'bat' | 'brt' | 'bac'; grantId: string } | undefined {
  const m = TOKEN_RE.exec(token);
  return m ? { kind: m[1] as 'bat' | 'brt' | 'bac', grantId: `grt_${m[2]}` } : undefined;
}
