import { defineErrors } from '../../lib/errors';

export const documentErrors = defineErrors({
  document_type_not_accepted: { status: 400, meaning: 'The uploaded file is not a PDF, JPEG, PNG, WebP or HEIC by its content (magic bytes)' },
  upload_size_mismatch: { status: 400, meaning: 'The uploaded file is not the size declared when the upload URL was made' },
});
