import { defineErrors } from '../../lib/errors';

/** Codes of partner accounts, apps and app review. */
export const partnerErrors = defineErrors({
  invalid_credentials: { status: 401, meaning: 'Partner sign-in with an unknown e-mail or a wrong password' },
  not_ready: { status: 409, meaning: 'The app cannot be sent for review yet; `details` lists what is missing' },
});

export const partnerFail = partnerErrors.fail;
