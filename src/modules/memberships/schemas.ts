// The module's zod schemas, one file per sub-resource; this file is the entry point every importer uses.
export {
  zCustomerId,
  CustomerQuery,
  CustomerBody,
  MembershipParams,
  TierParams,
  OrgParams,
  OrgMemberParams,
  FamilyParams,
  InvoiceParams,
} from './schemas-fields';
export * from './schemas-tiers';
export * from './schemas-memberships';
export * from './schemas-billing';
export * from './schemas-organizations';
export * from './schemas-portal';
