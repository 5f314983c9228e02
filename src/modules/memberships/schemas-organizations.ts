import { z } from '@hono/zod-openapi';
import { zEmail, zId } from '../../lib/openapi';
import { BILLING_CYCLES } from './types';
import { zCustomerId, zPhone, zText } from './schemas-fields';

// ------------------------------------------------------------------------------------------------
// Organizations

const orgFields = {
  name: zText(200).min(1),
  contactEmail: zEmail(),
  contactName: zText(200).min(1),
  contactPhone: zPhone().optional(),
  billingAddress: z.record(z.string(), z.unknown()).optional(),
  maxAuthorizedRenters: z.number().int().min(1).max(10_000).optional().openapi({ description: 'Default 10' }),
};
export const CreateOrgBody = z.object({ customerId: zCustomerId(), ...orgFields }).openapi('CreateOrganization');
export const UpdateOrgBody = z
  .object({
    customerId: zCustomerId(),
    name: orgFields.name.optional(),
    contactEmail: orgFields.contactEmail.optional(),
    contactName: orgFields.contactName.optional(),
    contactPhone: zPhone().nullable().optional(),
    billingAddress: z.record(z.string(), z.unknown()).nullable().optional(),
    maxAuthorizedRenters: orgFields.maxAuthorizedRenters,
  })
  .openapi('UpdateOrganization');

export const OrgMember = z
  .object({ renterId: z.string(), firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.string().nullable(), addedAt: z.string() })
  .openapi('OrganizationMember');

export const Organization = z
  .object({
    orgId: z.string(),
    customerId: z.string(),
    name: z.string(),
    contactEmail: z.string(),
    contactName: z.string(),
    contactPhone: z.string().nullable(),
    billingAddress: z.record(z.string(), z.unknown()).nullable(),
    maxAuthorizedRenters: z.number(),
    authorizedRenters: z.array(OrgMember),
    membershipId: z.string().nullable().openapi({ description: 'The live organization membership, if any' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Organization');

export const OrgList = z.object({ data: z.array(Organization), total: z.number() }).openapi('OrganizationList');
export const OrgDeleted = z.object({ orgId: z.string(), deleted: z.boolean() }).openapi('OrganizationDeleted');
export const OrgMembers = z.object({ orgId: z.string(), maxAuthorizedRenters: z.number(), data: z.array(OrgMember) }).openapi('OrganizationMembers');
export const AddOrgMemberBody = z.object({ customerId: zCustomerId(), renterId: zId('rnt_01J0000000000000000000000') }).openapi('AddOrganizationMember');
export const OrgMembershipBody = z
  .object({
    customerId: zCustomerId(),
    tierId: zId('mtr_01J0000000000000000000000'),
    billingCycle: z.enum(BILLING_CYCLES),
    paymentMethodId: zText(255).min(1).optional().openapi({ description: 'Card charged for the organization (required when the price is not 0)' }),
    staffId: zText(128).optional(),
    notes: zText(4000).optional(),
  })
  .openapi('CreateOrganizationMembership');
