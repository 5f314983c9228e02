/**
 * The oauth module's face: the OAuth 2.0 authorization server of the partner platform. Other modules use it for:
 * - the partner gateway's bearer check: authenticateAccessToken.
 * scopeDescriptions and serverMetadata below serve this module's own routes.
 */
import type { z } from '@hono/zod-openapi';
import { SCOPES } from '../partners/types';
import type { ServerMetadata } from './schemas';
import { CODE_TTL_MS, GRANT_TYPES } from './types';

export { authenticateAccessToken } from './installations';

export const scopeDescriptions = (): Record<string, string> => ({ ...SCOPES });

/** RFC 8414 authorization server metadata. */
export function serverMetadata(issuer: string): z.output<typeof ServerMetadata> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    device_authorization_endpoint: `${issuer}/oauth/device/code`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    scopes_supported: Object.keys(SCOPES),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: Object.values(GRANT_TYPES),
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    authorization_code_lifetime_seconds: CODE_TTL_MS / 1000,
    service_documentation: `${issuer}/docs`,
  };
}
