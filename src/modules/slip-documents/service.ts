// The slip documents module's face (the logic is in documents.ts, queries.ts, views.ts; its job and
// reservation hooks are listed in module.ts). Other modules use it for:
// - documents of the tenant portal and public bookings: requirementsOf, storeUpload, attachUpload, announceDocument, receiveUpload
// - their schemas and limits: DocumentSchema, RequirementsSchema, docType, expiresOn, MAX_DOCUMENT_BYTES
export { requirementsOf } from './queries';
export { announceDocument, attachUpload, receiveUpload, storeUpload } from './documents';
export { Document as DocumentSchema, Requirements as RequirementsSchema, docType, expiresOn } from './schemas';
export { MAX_DOCUMENT_BYTES } from './types';
