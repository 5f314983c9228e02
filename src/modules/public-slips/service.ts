// Public slip pages (anonymous): maps, units, availability, prices, location configuration and the
// waitlist (pages.ts), bookings and their documents (booking.ts), the operator of a location or
// unit (queries.ts), the public unit view (views.ts).
export { calculatePrice, joinWaitlist, locationInfo, publicAvailability, publicDetail, publicList, publicMaps } from './pages';
export { book, bookingDocuments, submitDocumentMetadata, uploadDocumentFile } from './booking';
