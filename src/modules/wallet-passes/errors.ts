import { defineErrors } from '../../lib/errors';

export const walletErrors = defineErrors({
  wallet_pass_not_configured: { status: 501, meaning: 'The wallet provider certificates or keys are not configured on this deployment' },
  invalid_pass_token: { status: 400, meaning: 'The scanned check-in code is not a valid, unexpired Berth pass code' },
});

export const walletFail = walletErrors.fail;
