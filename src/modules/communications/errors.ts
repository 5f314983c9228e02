import { defineErrors } from '../../lib/errors';

export const commsErrors = defineErrors({
  invalid_phone_number: { status: 400, meaning: 'The phone number cannot be parsed, or is not a valid number for its country' },
  sms_unavailable: { status: 400, meaning: 'SMS cannot be sent to numbers of that country (see the list in `POST /communication/validate-phone`)' },
});
