import { z } from '@hono/zod-openapi';
import { route, Ok } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Users'];

export const getMe = route({
  method: 'get',
  path: '/user',
  operationId: 'getCurrentUser',
  tags,
  summary: 'The signed-in user with locations, permissions and settings',
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
});
export const acceptTerms = route({
  method: 'post',
  path: '/user/accept-terms',
  operationId: 'acceptTerms',
  tags,
  summary: 'Record acceptance of the terms of service, provider terms and privacy policy',
});
export const termsStatus = route({
  method: 'get',
  path: '/user/terms-status',
  operationId: 'getTermsStatus',
  tags,
  summary: 'Whether the current terms version is accepted',
});
export const exportMyData = route({
  method: 'get',
  path: '/user/export/my-data',
  operationId: 'exportMyData',
  tags,
  summary: 'PDF of the personal data held about the signed-in user',
  produces: 'application/pdf',
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
});
export const addPushToken = route({
  method: 'post',
  path: '/user/push-token',
  operationId: 'addPushToken',
  tags,
  summary: 'Register a push-notification token',
  body: s.PushTokenBody,
});
export const removePushToken = route({
  method: 'delete',
  path: '/user/push-token',
  operationId: 'removePushToken',
  tags,
  summary: 'Remove a push-notification token',
  body: s.PushTokenBody,
  errors: [404],
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
});
export const findNumbers = route({
  method: 'post',
  path: '/userManagement/find-phone-numbers',
  operationId: 'findPhoneNumbers',
  tags: mtags,
  summary: 'Find telephone numbers to buy',
  body: s.FindNumbersBody,
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
});
