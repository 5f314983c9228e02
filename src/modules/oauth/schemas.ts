import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';
import { EMBED_LOCATION_NAMES } from '../partners/types';

const p = (max = 2000) => z.string().max(max).optional();

/** Authorization request (RFC 6749 4.1.1, RFC 7636, RFC 9700): every parameter is checked by the flow itself, so errors can be redirected. */
export const AuthorizeQuery = z.object({
  response_type: p(50).openapi({ example: 'code' }),
  client_id: p(128).openapi({ example: 'app_01J0000000000000000000000' }),
  redirect_uri: p(),
  scope: p().openapi({ example: 'read:bookings read:inventory' }),
  state: p(),
  code_challenge: p(200),
  code_challenge_method: p(20).openapi({ example: 'S256' }),
});
export const RequestQuery = z.object({ request: p(64) });
export const CallbackQuery = z.object({ code: p(), state: p(64), error: p(200), error_description: p() });
export const LoginForm = z.object({
  request: p(64),
  method: z.enum(['development', 'partner']).optional(),
  userId: p(128),
  email: p(254),
  password: p(200),
});
export const DecisionForm = z.object({ request: p(64), decision: z.enum(['allow', 'deny']).optional() });

export const TokenForm = z
  .object({
    grant_type: p(200).openapi({
      description: '`authorization_code`, `refresh_token`, `urn:ietf:params:oauth:grant-type:token-exchange` or `urn:ietf:params:oauth:grant-type:device_code`',
    }),
    code: p(200),
    redirect_uri: p(),
    code_verifier: p(200),
    refresh_token: p(200),
    scope: p(),
    client_id: p(128),
    client_secret: p(200),
    subject_token: p(8000),
    subject_token_type: p(200),
    requested_token_type: p(200),
    device_code: p(200),
  })
  .openapi('TokenRequest');

export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string().optional(),
    scope: z.string(),
    issued_token_type: z.string().optional(),
    installation_id: z.string().optional(),
    customer_id: z.string().optional(),
  })
  .openapi('TokenResponse');

export const RevokeForm = z.object({ token: p(200), token_type_hint: p(50), client_id: p(128), client_secret: p(200) }).openapi('RevocationRequest');
export const DeviceCodeForm = z.object({ client_id: p(128), scope: p(200) }).openapi('DeviceAuthorizationRequest');
export const DeviceCodeResponse = z
  .object({
    device_code: z.string(),
    user_code: z.string(),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.number().int(),
    interval: z.number().int(),
  })
  .openapi('DeviceAuthorizationResponse');
export const DeviceQuery = z.object({ user_code: p(20) });
export const DeviceForm = z.object({ user_code: p(20), email: p(254), password: p(200), action: z.enum(['approve', 'deny']).optional() });

export const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).openapi('JsonWebKeySet');
export const ServerMetadata = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    revocation_endpoint: z.string(),
    device_authorization_endpoint: z.string(),
    jwks_uri: z.string(),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.boolean(),
    authorization_code_lifetime_seconds: z.number().int(),
    service_documentation: z.string(),
  })
  .openapi('AuthorizationServerMetadata');

export const Installation = z
  .object({
    installationId: z.string(),
    customerId: z.string(),
    appId: z.string(),
    appName: z.string().nullable(),
    partnerName: z.string().nullable(),
    status: z.enum(['active', 'uninstalled']),
    sandbox: z.boolean(),
    scopes: z.array(z.string()),
    embedUrl: z.string().nullable(),
    embedLocations: z.array(z.string()),
    installedBy: z.string(),
    installedAt: z.string(),
    uninstalledAt: z.string().nullable(),
    activeGrants: z.number().int(),
  })
  .openapi('AppInstallation');
export const InstallationIdParam = z.object({ installationId: zId('ins_01J0000000000000000000000') });
export const AppIdParam = z.object({ appId: zId('app_01J0000000000000000000000') });
export const ListQuery = z.object({
  status: z.enum(['active', 'uninstalled']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const PageQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50), offset: z.coerce.number().int().min(0).default(0) });
export const Uninstalled = z
  .object({ success: z.boolean(), installationId: z.string(), alreadyUninstalled: z.boolean(), revokedGrants: z.number().int() })
  .openapi('AppUninstalled');
export const SessionTokenBody = z.object({
  locationId: z.string().max(128).optional(),
  embedLocation: z.enum(EMBED_LOCATION_NAMES as [string, ...string[]]).optional(),
  rentalId: z.string().max(128).optional(),
});
export const SessionToken = z
  .object({
    sessionToken: z.string(),
    tokenType: z.string(),
    expiresAt: z.string(),
    expiresIn: z.number().int(),
    installationId: z.string(),
    appId: z.string(),
    clientId: z.string(),
    embedUrl: z.string(),
  })
  .openapi('EmbeddedSessionToken');
export const EmbedsQuery = z.object({ embedLocation: z.enum(EMBED_LOCATION_NAMES as [string, ...string[]]).optional() });
export const Embeds = z
  .object({
    data: z.array(
      z.object({
        installationId: z.string(),
        appId: z.string(),
        name: z.string(),
        embedUrl: z.string(),
        embedLocations: z.array(z.string()),
        sandbox: z.boolean(),
      }),
    ),
  })
  .openapi('AppEmbeds');
export const AppInstallations = z.object({
  data: z.array(
    z.object({
      installationId: z.string(),
      customerId: z.string(),
      operatorName: z.string().nullable(),
      status: z.enum(['active', 'uninstalled']),
      sandbox: z.boolean(),
      scopes: z.array(z.string()),
      installedAt: z.string(),
      uninstalledAt: z.string().nullable(),
    }),
  ),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
