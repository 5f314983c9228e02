/** Public vocabulary of slip reservation documents. */
export const DOCUMENT_STATUSES = ['pending_upload', 'submitted', 'approved', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
export const REQUIREMENT_STATUSES = ['missing', 'pending_upload', 'submitted', 'approved', 'rejected', 'expired'] as const;

/** Largest document file (bytes). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** How long a public upload URL works. */
export const UPLOAD_URL_TTL_MS = 30 * 60_000;
export const ACCEPTED_TYPES = 'PDF, JPEG, PNG, WebP or HEIC';
