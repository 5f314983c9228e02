import { z } from '@hono/zod-openapi';

export const ROLES = ['admin', 'manager', 'staff'] as const;
export const SKILLS = ['captain', 'coach', 'trainer', 'operations'] as const;

const idList = () => z.array(z.string().min(1).max(128)).max(200);
const permissionList = () => z.array(z.string().trim().min(1).max(64)).max(100);
const skillList = () => z.array(z.enum(SKILLS)).max(10);

export const User = z
  .object({
    id: z.string(),
    email: z.string(),
    customerId: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    permissions: z.array(z.string()),
    locations: z.array(z.string()),
    userSkills: z.array(z.string()),
    isSetup: z.boolean(),
    profileName: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('User');

export const CreateUserBody = z
  .object({
    email: z.string().trim().toLowerCase().email().max(254),
    customerId: z.string().min(1).max(128),
    name: z.string().trim().min(1).max(200),
    role: z.enum(ROLES).optional(),
    permissions: permissionList().optional(),
    locations: idList().optional(),
    userSkills: skillList().optional(),
  })
  .openapi('CreateUser');

export const UpdateSelfBody = z
  .object({
    profileName: z.string().trim().max(200).optional(),
    locations: idList().optional(),
    userPermissions: permissionList().optional().openapi({ description: 'Only an admin may change permissions.' }),
    userSkills: skillList().optional(),
  })
  .openapi('UpdateOwnUser');

export const DeleteUserBody = z.object({ id: z.string().min(1).max(128) });

export const CreateManagedUserBody = z
  .object({
    email: z.string().trim().toLowerCase().email().max(254),
    customerId: z.string().min(1).max(128),
    name: z.string().trim().min(1).max(200),
    userRole: z.enum(ROLES).optional(),
    permissions: permissionList().optional(),
    locations: idList().optional(),
    userSkills: skillList().optional(),
    isSetup: z.boolean().optional(),
  })
  .openapi('CreateManagedUser');

export const UpdateManagedUserBody = z
  .object({
    id: z.string().min(1).max(128),
    name: z.string().trim().min(1).max(200).optional(),
    email: z.string().trim().toLowerCase().email().max(254).optional(),
    userRole: z.enum(ROLES).optional(),
    permissions: permissionList().optional(),
    locations: idList().optional(),
    userSkills: skillList().optional(),
    isSetup: z.boolean().optional(),
    profileName: z.string().trim().max(200).optional(),
  })
  .openapi('UpdateManagedUser');

export const ListUsersQuery = z.object({ customerId: z.string().max(128).optional() });
export const UserIdParam = z.object({ userId: z.string().min(1).max(128) });
export const IdParam = z.object({ id: z.string().min(1).max(128) });
export const AuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const PushTokenBody = z.object({ token: z.string().trim().min(8).max(4096) });

export const FindNumbersBody = z
  .object({
    country: z.string().trim().length(2).toUpperCase().openapi({ example: 'US' }),
    areaCode: z
      .string()
      .trim()
      .regex(/^\d{2,5}$/, 'must be 2 to 5 digits')
      .openapi({ example: '305' }),
  })
  .openapi('FindPhoneNumbers');

export const PurchaseNumberBody = z
  .object({
    phoneNumber: z
      .string()
      .trim()
      .regex(/^\+[1-9]\d{6,14}$/, 'must be E.164, such as +13055550100'),
    locationId: z.string().min(1).max(128),
  })
  .openapi('PurchasePhoneNumber');

export const AuditEntry = z
  .object({
    id: z.string(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    actorType: z.string(),
    actorId: z.string().nullable(),
    details: z.unknown(),
    requestId: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('AuditEntry');

export const TermsStatus = z
  .object({
    accepted: z.boolean().openapi({ description: 'Whether the accepted version is the current one' }),
    currentVersion: z.string(),
    acceptedVersion: z.string().nullable(),
    acceptedAt: z.string().nullable(),
  })
  .openapi('TermsStatus');

export const TermsAcceptance = z
  .object({
    accepted: z.literal(true),
    version: z.string(),
    acceptedAt: z.string(),
    documents: z.array(z.string()).openapi({ example: ['terms_of_service', 'provider_terms', 'privacy_policy'] }),
  })
  .openapi('TermsAcceptance');

export const CurrentUser = User.omit({ locations: true })
  .extend({
    locations: z.array(z.object({ locationId: z.string(), name: z.string(), timezone: z.string() }).passthrough()).openapi({
      description: 'The locations the user works at (every location for an admin or a user without a restriction), as `GET /location` answers them',
    }),
    locationIds: z.array(z.string()).openapi({ description: 'The location restriction of the user (empty: all locations)' }),
    settings: z.record(z.string(), z.unknown()),
    customer: z.object({ customerId: z.string(), name: z.string(), business_name: z.string().nullable(), plan: z.string() }).nullable(),
    terms: z.object({ currentVersion: z.string(), acceptedVersion: z.string().nullable(), accepted: z.boolean() }),
  })
  .openapi('CurrentUser');

export const PushTokenResult = z.object({ success: z.literal(true), token: z.string() }).openapi('PushTokenResult');

export const AvailableNumber = z
  .object({
    phoneNumber: z.string().openapi({ example: '+13055550100' }),
    friendlyName: z.string(),
    locality: z.string().nullable(),
    region: z.string().nullable(),
    capabilities: z.object({ voice: z.boolean(), sms: z.boolean() }).passthrough(),
  })
  .openapi('AvailablePhoneNumber');

export const PurchasedNumber = z
  .object({
    id: z.string(),
    phoneNumber: z.string(),
    locationId: z.string(),
    providerId: z.string(),
    ivrConfig: z.record(z.string(), z.unknown()).openapi({ description: "The location's voice menu, now answering on this number" }),
  })
  .openapi('PurchasedPhoneNumber');

export const InvitationSent = z
  .object({ success: z.literal(true), messageId: z.string().openapi({ description: 'The e-mail in GET /outbox/messages' }), email: z.string() })
  .openapi('InvitationSent');
