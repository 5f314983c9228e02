import { route } from '../../lib/openapi';
import * as s from './schemas';
import { CID, tags } from './routes-docs';

// ------------------------------------------------------------------------------------------------
// Organizations

export const listOrgs = route({
  method: 'get',
  path: '/memberships/organizations',
  operationId: 'listOrganizations',
  tags,
  summary: 'Organizations with their authorized renters and membership',
  description: CID,
  query: s.CustomerQuery,
  ok: s.OrgList,
  errors: [403],
});

export const createOrg = route({
  method: 'post',
  path: '/memberships/organizations',
  operationId: 'createOrganization',
  tags,
  status: 201,
  summary: 'Create an organization',
  description: `\`maxAuthorizedRenters\` (default 10) caps the renters who share the organization's membership. Needs the \`memberships\` permission. ${CID}`,
  body: s.CreateOrgBody,
  ok: s.Organization,
  errors: [403],
});

export const getOrg = route({
  method: 'get',
  path: '/memberships/organizations/{orgId}',
  operationId: 'getOrganization',
  tags,
  summary: 'An organization',
  description: CID,
  params: s.OrgParams,
  query: s.CustomerQuery,
  ok: s.Organization,
  errors: [403, 404],
});

export const updateOrg = route({
  method: 'patch',
  path: '/memberships/organizations/{orgId}',
  operationId: 'updateOrganization',
  tags,
  summary: 'Update an organization',
  description: `\`maxAuthorizedRenters\` cannot go below the renters already authorized (400). ${CID}`,
  params: s.OrgParams,
  body: s.UpdateOrgBody,
  ok: s.Organization,
  errors: [403, 404],
});

export const deleteOrg = route({
  method: 'delete',
  path: '/memberships/organizations/{orgId}',
  operationId: 'deleteOrganization',
  tags,
  summary: 'Delete an organization without a live membership',
  description: `Refused with 400 \`organization_in_use\` while the organization has a membership that is not canceled. Its authorized renters are removed with it. ${CID}`,
  params: s.OrgParams,
  query: s.CustomerQuery,
  ok: s.OrgDeleted,
  errors: [403, 404],
});

export const addOrgMember = route({
  method: 'post',
  path: '/memberships/organizations/{orgId}/members',
  operationId: 'addOrganizationMember',
  tags,
  summary: 'Authorize a renter to use the organization membership',
  description: `400 \`already_member\` when the renter is already authorized; 400 \`member_limit_reached\` at \`maxAuthorizedRenters\` (enforced by the insert itself, so parallel adds never exceed it); 404 unknown organization or renter. Answers the authorized renters. ${CID}`,
  params: s.OrgParams,
  body: s.AddOrgMemberBody,
  ok: s.OrgMembers,
  errors: [403, 404],
});

export const listOrgMembers = route({
  method: 'get',
  path: '/memberships/organizations/{orgId}/members',
  operationId: 'listOrganizationMembers',
  tags,
  summary: 'Authorized renters of an organization',
  description: CID,
  params: s.OrgParams,
  query: s.CustomerQuery,
  ok: s.OrgMembers,
  errors: [403, 404],
});

export const removeOrgMember = route({
  method: 'delete',
  path: '/memberships/organizations/{orgId}/members/{renterId}',
  operationId: 'removeOrganizationMember',
  tags,
  summary: 'Remove an authorized renter',
  description: `404 when the renter is not authorized. ${CID}`,
  params: s.OrgMemberParams,
  query: s.CustomerQuery,
  ok: s.OrgMembers,
  errors: [403, 404],
});

export const createOrgMembership = route({
  method: 'post',
  path: '/memberships/organizations/{orgId}/membership',
  operationId: 'createOrganizationMembership',
  tags,
  status: 201,
  summary: "Open the organization's membership",
  description: `The tier must list \`organization\` in \`allowedMemberTypes\` (400 \`tier_not_for_organizations\`); an organization has one live membership (400 \`already_member\`). The first period is charged with \`paymentMethodId\` (400 \`payment_declined\` on a decline, nothing written). Its authorized renters get the tier's benefits at checkout. ${CID}`,
  params: s.OrgParams,
  body: s.OrgMembershipBody,
  ok: s.Membership,
  errors: [403, 404],
});
