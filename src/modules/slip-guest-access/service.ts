// The slip guest access module's face (the logic is in passes.ts, queries.ts, views.ts; its jobs and
// reservation hooks are listed in module.ts). Other modules use it for:
// - the tenant portal's guest passes: passesOfReservation, getPassRow, addPass, revokeRow
// - the portal's schemas: PassSchema, PassListSchema, TenantPassBody
// - the seed: createPass
export { getPassRow, passesOfReservation } from './queries';
export { addPass, createPass, revokeRow } from './passes';
export { Pass as PassSchema, PassList as PassListSchema, TenantCreateBody as TenantPassBody } from './schemas';
