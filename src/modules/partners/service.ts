/**
 * Partner accounts, partner tokens and apps. Other modules use: `partnerAuth` (routes owned by a
 * partner), the app review functions of platform staff (the route scheme is `platformAuth` in middleware/auth.ts), the account functions
 * the OAuth pages and the channel portal need, the app lookups of the OAuth server, and the private
 * sandboxes (one demo operator per partner account, reseller channel and single-operator key).
 */
export {
  PARTNER_RATE_LIMIT,
  changePassword,
  createPartnerAccount,
  forgotPassword,
  getMe,
  getPartner,
  issuePartnerToken,
  listTokens,
  login,
  partnerPrincipal,
  register,
  requirePartner,
  resetPassword,
  resolvePartnerToken,
  revokePartnerTokenByHash,
  revokeToken,
  updateMe,
  verifyPartnerCredentials,
  type PartnerRow,
} from './accounts';
export {
  clientSecretMatches,
  createApp,
  deleteApp,
  effectiveManifest,
  expandEvents,
  findApp,
  getApp,
  getManifest,
  listApps,
  patchApp,
  putManifest,
  rotateClientSecret,
  rotateWebhookSecret,
  sendTestWebhook,
  submitApp,
} from './apps';
export {
  PRIVATE_SANDBOX_PREFIX,
  findPrivateSandbox,
  getPartnerSandbox,
  isPrivateSandboxOperator,
  issuePartnerSandboxKey,
  partnerSandboxAdmin,
  privateSandbox,
  resetPartnerSandbox,
  resetPrivateSandbox,
  type SandboxOwner,
  type SandboxOwnerKind,
} from './sandbox';
export { approveApp, getForReview, listForReview, rejectApp } from './review';
export { partnerAuth } from './middleware';
export { appOut, manifestData, manifestOut, partnerOut, type AppRow } from './views';
export { PASSWORD_ITERATIONS, hashPassword } from './password';
