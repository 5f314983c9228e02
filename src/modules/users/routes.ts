import { z } from '@hono/zod-openapi';
import { route, Ok } from '../../lib/openapi';
import * as s from './schemas';

/** How roles and permissions relate (one model), for the descriptions. */
const ROLE_MODEL = `Role and permissions are one model: the \`admin\` permission is the admin role, so an admin's \`permissions\` always hold \`admin\` and
a manager's or staff member's never do (naming it for them answers 400 \`validation_failed\`: promote with \`userRole: "admin"\`); the other
permissions are grants kept across role changes. A change takes effect on the user's very next request, with every token and API key.`;

const tags = ['Users'];

export const getMe = route({
  method: 'get',
  path: '/user',
  operationId: 'getCurrentUser',
  tags,
  summary: 'The signed-in user with locations, permissions and settings',
  ok: s.CurrentUser,
  description: `The user the credentials belong to (an API key acts as the user who created it), with the locations the user may see,
the location restriction (\`locationIds\`, empty for all), permissions, settings, the operator account and where the user stands on the terms.`,
});
export const createUser = route({
  method: 'post',
  path: '/user',
  operationId: 'createUser',
  tags,
  access: 'admin',
  summary: 'Create a user in the identity provider and the user store',
  body: s.CreateUserBody,
  ok: s.User,
  status: 201,
  errors: [403, 409],
  description: `Creates the identity at the identity provider and the Berth user of the account \`customerId\` (the caller's; another answers 403),
then e-mails the user a link to set a password (template \`user.invitation\`). \`role\` defaults to \`staff\`. ${ROLE_MODEL}
An e-mail already in use answers 409 \`already_exists\`; a location of another operator in \`locations\` answers 404.`,
});
export const updateMe = route({
  method: 'patch',
  path: '/user',
  operationId: 'updateCurrentUser',
  tags,
  summary: 'Update the signed-in user (profile name, locations, permissions, skills)',
  body: s.UpdateSelfBody,
  ok: s.User,
  errors: [403],
  description: `Changes the signed-in user. Anyone may change \`profileName\` and \`userSkills\`; only an admin may change \`userPermissions\` or
\`locations\` (403 otherwise). A body without any of these fields answers 400 \`no_changes\`.`,
});
export const deleteUser = route({
  method: 'delete',
  path: '/user',
  operationId: 'deleteUser',
  tags,
  access: 'admin',
  summary: 'Remove a user from the identity provider and the store',
  body: s.DeleteUserBody,
  ok: Ok,
  errors: [404, 409],
  description: `Deletes a user of the caller's account: its API keys are revoked and its push tokens removed at once, then its identity is deleted
at the identity provider. Deleting yourself answers 409 \`invalid_state\`; a user of another operator answers 404.`,
});
export const acceptTerms = route({
  method: 'post',
  path: '/user/accept-terms',
  operationId: 'acceptTerms',
  tags,
  summary: 'Record acceptance of the terms of service, provider terms and privacy policy',
  ok: s.TermsAcceptance,
  description:
    'Records that the signed-in user accepted the current version of the terms of service, the payment-provider terms and the privacy policy (audited).',
});
export const termsStatus = route({
  method: 'get',
  path: '/user/terms-status',
  operationId: 'getTermsStatus',
  tags,
  summary: 'Whether the current terms version is accepted',
  ok: s.TermsStatus,
  description: 'Whether the signed-in user accepted the current terms version, with the accepted version and when (null before any acceptance).',
});
export const exportMyData = route({
  method: 'get',
  path: '/user/export/my-data',
  operationId: 'exportMyData',
  tags,
  summary: 'PDF of the personal data held about the signed-in user',
  produces: 'application/pdf',
  description: `A PDF (\`attachment; filename="berth-my-data.pdf"\`) with the profile of the signed-in user, the account it belongs to,
its API keys (names and prefixes, never secrets), the number of push tokens and its last 50 audited actions. The export itself is audited.`,
});
export const auditLogs = route({
  method: 'get',
  path: '/user/{userId}/audit-logs',
  operationId: 'listUserAuditLogs',
  tags,
  access: 'admin',
  summary: 'Audit log of one user (admin only)',
  params: s.UserIdParam,
  query: s.AuditQuery,
  ok: z.object({ data: z.array(s.AuditEntry), total: z.number(), limit: z.number(), offset: z.number() }),
  errors: [404],
  description:
    "Audited actions of one user of the caller's account, newest first, with `limit`/`offset` and the `total`. A user of another operator answers 404.",
});
export const addPushToken = route({
  method: 'post',
  path: '/user/push-token',
  operationId: 'addPushToken',
  tags,
  summary: 'Register a push-notification token',
  body: s.PushTokenBody,
  ok: s.PushTokenResult,
  description: 'Registers a device token of the signed-in user for push notifications; registering the same token again changes nothing.',
});
export const removePushToken = route({
  method: 'delete',
  path: '/user/push-token',
  operationId: 'removePushToken',
  tags,
  summary: 'Remove a push-notification token',
  body: s.PushTokenBody,
  errors: [404],
  ok: s.PushTokenResult,
  description: 'Removes a device token of the signed-in user; a token the user does not have answers 404.',
});

const mtags = ['Users'];
export const listUsers = route({
  method: 'get',
  path: '/userManagement',
  operationId: 'listUsers',
  tags: mtags,
  summary: "Users of the caller's account",
  query: s.ListUsersQuery,
  ok: z.object({ data: z.array(s.User) }),
  errors: [403],
  description: "Every user of the caller's account. `customerId`, when given, must be the caller's (403 otherwise).",
});
export const createManagedUser = route({
  method: 'post',
  path: '/userManagement',
  operationId: 'inviteStaffUser',
  tags: mtags,
  access: 'admin',
  summary: 'Invite a staff user',
  body: s.CreateManagedUserBody,
  ok: s.User,
  status: 201,
  errors: [403, 409],
  description: `As POST /user with the role in \`userRole\` (default \`staff\`): creates the identity and the user, and e-mails an invitation
to set a password. An e-mail already in use answers 409 \`already_exists\`; another operator's \`customerId\` answers 403. ${ROLE_MODEL}`,
});
export const updateManagedUser = route({
  method: 'patch',
  path: '/userManagement',
  operationId: 'updateStaffUser',
  tags: mtags,
  access: 'admin',
  summary: 'Update a staff user',
  body: s.UpdateManagedUserBody,
  ok: s.User,
  errors: [404, 409],
  description: `Changes the user \`id\` of the caller's account: name, e-mail (409 \`already_exists\` when taken), role, permissions, locations,
skills, setup flag or profile name. A body with nothing to change answers 400 \`no_changes\`; removing your own admin role answers 409 \`invalid_state\`.

${ROLE_MODEL}`,
});
export const deleteManagedUser = route({
  method: 'delete',
  path: '/userManagement',
  operationId: 'deleteStaffUser',
  tags: mtags,
  access: 'admin',
  summary: 'Delete a staff user',
  body: s.DeleteUserBody,
  ok: Ok,
  errors: [404, 409],
  description: "As DELETE /user: revokes the user's API keys, removes its push tokens and deletes it. Deleting yourself answers 409 `invalid_state`.",
});
export const findNumbers = route({
  method: 'post',
  path: '/userManagement/find-phone-numbers',
  operationId: 'findPhoneNumbers',
  tags: mtags,
  summary: 'Find telephone numbers to buy',
  body: s.FindNumbersBody,
  ok: z.object({ data: z.array(s.AvailableNumber) }),
  description: `Telephone numbers the telephony provider offers in \`country\` and \`areaCode\`, without those already used by a Berth location.
With no telephony provider configured the offline default answers five numbers in the 555 range.`,
});
export const purchaseNumber = route({
  method: 'post',
  path: '/userManagement/purchase-phone-number',
  operationId: 'purchasePhoneNumber',
  tags: mtags,
  access: 'admin',
  summary: 'Buy a number and assign it to a location with a default voice menu',
  body: s.PurchaseNumberBody,
  errors: [404, 409],
  ok: s.PurchasedNumber,
  description: `Buys \`phoneNumber\` at the telephony provider and assigns it to the location (another operator's location answers 404). The
location's
voice menu answers on the number: its existing configuration, or a default menu built from the location. A number already in use answers 409
\`already_exists\`.`,
});
export const resendInvitation = route({
  method: 'post',
  path: '/userManagement/{id}/resend-invitation',
  operationId: 'resendInvitation',
  tags: mtags,
  access: 'admin',
  summary: 'Send the user a password-setting e-mail again',
  params: s.IdParam,
  errors: [404],
  ok: s.InvitationSent,
  description: 'E-mails the user a new link to set a password (template `user.password_change`). A user of another operator answers 404.',
});
