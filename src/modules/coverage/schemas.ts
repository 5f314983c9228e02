// The module's zod schemas, one file per audience and sub-resource; this file is the entry point every importer uses.
export * from './schemas-offerings';
export * from './schemas-review';
export * from './schemas-enablements';
export * from './schemas-checkout';
export * from './schemas-policies';
export * from './schemas-public';
export * from './schemas-messages';
