// The module's route declarations, one file per sub-resource; this file is the entry point index.ts imports.
// The order the routes are mounted in (static segments before /memberships/{membershipId}) is index.ts's.
export * from './routes-tiers';
export * from './routes-organizations';
export * from './routes-memberships';
export * from './routes-billing';
export * from './routes-portal';
