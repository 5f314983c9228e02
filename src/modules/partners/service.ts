/**
 * The partners module's face: partner accounts, partner tokens, apps and private sandboxes. Other modules use it for:
 * - partner-owned routes (coverage, OAuth): partnerAuth, requirePartner, getPartner;
 * - the channel portal and the device grant: createPartnerAccount, issuePartnerToken, verifyPartnerCredentials, resolvePartnerToken;
 * - the OAuth server's app lookups: findApp, effectiveManifest, manifestData, expandEvents, clientSecretMatches, revokePartnerTokenByHash, AppRow;
 * - private sandboxes (channel keys, OAuth installs): privateSandbox, findPrivateSandbox, resetPrivateSandbox, isPrivateSandboxOperator,
 *   partnerSandboxAdmin, SandboxOwner;
 * - the seed: hashPassword.
 */
export {
  createPartnerAccount,
  getPartner,
  issuePartnerToken,
  requirePartner,
  resolvePartnerToken,
  revokePartnerTokenByHash,
  verifyPartnerCredentials,
} from './accounts';
export { clientSecretMatches, effectiveManifest, expandEvents, findApp } from './apps';
export { findPrivateSandbox, isPrivateSandboxOperator, partnerSandboxAdmin, privateSandbox, resetPrivateSandbox, type SandboxOwner } from './sandbox';
export { partnerAuth } from './middleware';
export { manifestData, type AppRow } from './views';
export { hashPassword } from './password';
