// Guest passes of slip reservations (passes.ts): codes, windows, verification with a live read of
// the reservation and a throttle on unknown codes, check-in, ID check, revoke, expiry; the hooks
// that revoke passes when their reservation ends and list them on the reservation's detail. Reads
// and lists in queries.ts, the view in views.ts.
export { getPassRow, listPasses, passesOfReservation, passStats } from './queries';
export { passOut, type PassRow } from './views';
export {
  addPass,
  checkInGuest,
  createPass,
  deletePass,
  expireLocationPasses,
  getPass,
  onReservationDeleted,
  onReservationDetail,
  onReservationEnded,
  revokePass,
  revokeRow,
  nextPassExpiry,
  sweepExpiredPasses,
  updatePass,
  verifyCode,
  verifyGuestId,
} from './passes';
export { Pass as PassSchema, PassList as PassListSchema, TenantCreateBody as TenantPassBody } from './schemas';
