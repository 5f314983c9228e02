// Haul services: requests (requests.ts: staff and tenant-portal requests, edit, delete), the states
// and lift capacity (lifecycle.ts: schedule with pricing, confirm, start, complete with the charge
// posted to the reservation, cancel), photos in R2 (photos.ts), reads and lists (queries.ts), the
// view (views.ts).
export {
  getHaulRow,
  getHaulService,
  haulServicesOfRenter,
  haulServicesOfReservation,
  haulStats,
  haulView,
  listHaulServices,
  liftsOf,
  scheduledOn,
} from './queries';
export { createHaulService, deleteHaulService, requestForReservation, updateHaulService } from './requests';
export { cancelHaulService, cancelRow, completeHaulService, confirmHaulService, confirmRow, scheduleHaulService, startHaulService } from './lifecycle';
export { addPhotos, photoFile, type PhotoUpload } from './photos';
export { haulOut, portalHaulOut, type HaulRow } from './views';
export { HaulService as HaulServiceSchema, PortalRequestBody as PortalHaulRequestBody } from './schemas';
