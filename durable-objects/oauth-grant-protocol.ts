/**
 * The RPC interface of the per-grant OAuthGrant Durable Object (durable-objects/oauth-grant.ts). It
 * imports only the OAuth module's protocol types (a leaf file): `src/env.ts` types the
 * `OAUTH_GRANT` binding with it without importing the object's class (no import cycle).
 */
import type { GrantFailure, GrantInfo, GrantInit, Issued } from '../src/modules/oauth/types';

export interface OAuthGrantRpc extends Rpc.DurableObjectBranded {
  init(init: GrantInit): Promise<void>;
  redeemCode(p: { codeHash: string; clientId: string; redirectUri: string | undefined; verifier: string | undefined }): Promise<Issued | GrantFailure>;
  refresh(p: { tokenHash: string; clientId: string; scopes?: string[] }): Promise<Issued | GrantFailure>;
  issueAccess(p: { clientId: string; scopes: string[] }): Promise<Issued | GrantFailure>;
  check(accessHash: string): Promise<GrantInfo | null>;
  revokeToken(p: { tokenHash: string; clientId: string }): Promise<{ found: boolean; grantRevoked: boolean; wrongClient?: boolean }>;
  revoke(reason: string): Promise<boolean>;
}
