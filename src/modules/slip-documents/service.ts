// Documents of slip reservations (documents.ts): requirements from the location's settings, files
// uploaded in the tenant portal and attached, public documents announced with a one-time upload
// URL, staff review, the hooks that list them on the reservation and delete them with it.
export {
  announceDocument,
  attachUpload,
  checkFile,
  documentFile,
  documentOut,
  getDocument,
  listDocuments,
  onReservationDeleted,
  onReservationDetail,
  purgeStaleUploads,
  receiveUpload,
  requirementsOf,
  reviewDocument,
  storeUpload,
  type DocumentRow,
} from './documents';
export { Document as DocumentSchema, Requirement as RequirementSchema, Requirements as RequirementsSchema, docType, expiresOn } from './schemas';
export { ACCEPTED_TYPES, MAX_DOCUMENT_BYTES } from './types';
