import { defineErrors, type ErrorOptions } from '../../lib/errors';

/**
 * OAuth 2.0 error codes (RFC 6749 5.2, RFC 8628 3.5, RFC 7009 2.2.1, RFC 8693 2.2.2). The token,
 * revocation and device endpoints answer them in the API's envelope plus the RFC's
 * `error_description`, so OAuth libraries and Berth clients both read them.
 */
export const oauthErrors = defineErrors({
  invalid_request: { status: 400, meaning: 'OAuth: a parameter is missing, repeated or malformed' },
  invalid_client: { status: 401, meaning: 'OAuth: unknown client, or client authentication failed' },
  invalid_grant: { status: 400, meaning: 'OAuth: the code, refresh token or device code is invalid, expired, used, revoked or issued to another client' },
  unauthorized_client: { status: 400, meaning: 'OAuth: the client may not use this grant type' },
  unsupported_grant_type: { status: 400, meaning: 'OAuth: the grant type is not supported' },
  invalid_scope: { status: 400, meaning: 'OAuth: a requested scope is unknown or exceeds what was granted' },
  authorization_pending: { status: 400, meaning: 'Device grant: the user has not approved the request yet; keep polling' },
  slow_down: { status: 400, meaning: 'Device grant: polling faster than `interval`; add 5 seconds' },
  access_denied: { status: 400, meaning: 'Device grant: the user denied the request' },
  expired_token: { status: 400, meaning: 'Device grant: the device code expired; start again' },
  unsupported_token_type: { status: 400, meaning: 'Revocation: the token type cannot be revoked here' },
});

/** An OAuth error with the RFC's `error_description` beside the envelope's `message`. */
export function oauthFail(code: keyof typeof oauthErrors.table, description: string, opts: ErrorOptions = {}) {
  return oauthErrors.fail(code, description, { ...opts, extra: { ...(opts.extra ?? {}), error_description: description } });
}
