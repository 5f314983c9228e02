// The haul services module's face (the logic is in requests.ts, lifecycle.ts, photos.ts, queries.ts, views.ts).
// Other modules use it for:
// - the tenant portal's haul services: getHaulRow, haulServicesOfReservation, liftsOf, requestForReservation, confirmRow, cancelRow, portalHaulOut
// - the portal's schemas: HaulServiceSchema, PortalHaulRequestBody
// - the seed: createHaulService, scheduleHaulService, confirmHaulService
export { getHaulRow, haulServicesOfReservation, liftsOf } from './queries';
export { createHaulService, requestForReservation } from './requests';
export { cancelRow, confirmHaulService, confirmRow, scheduleHaulService } from './lifecycle';
export { portalHaulOut } from './views';
export { HaulService as HaulServiceSchema, PortalRequestBody as PortalHaulRequestBody } from './schemas';
