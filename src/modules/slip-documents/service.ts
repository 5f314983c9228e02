// Documents of slip reservations (documents.ts): files uploaded in the tenant portal and attached,
// public documents announced with a one-time upload URL, staff review, the hooks that list them on
// the reservation and delete them with it. Reads, lists and the requirements (from the location's
// settings) in queries.ts, the view in views.ts.
export { getDocument, getDocumentRow, listDocuments, requirementsOf } from './queries';
export { documentOut, type DocumentRow } from './views';
export {
  announceDocument,
  attachUpload,
  checkFile,
  documentFile,
  onReservationDeleted,
  onReservationDetail,
  nextStaleUpload,
  purgeStaleUploads,
  receiveUpload,
  reviewDocument,
  storeUpload,
} from './documents';
export { Document as DocumentSchema, Requirement as RequirementSchema, Requirements as RequirementsSchema, docType, expiresOn } from './schemas';
export { ACCEPTED_TYPES, MAX_DOCUMENT_BYTES } from './types';
