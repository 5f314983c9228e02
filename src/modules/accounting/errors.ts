import { defineErrors } from '../../lib/errors';

/** Codes of the accounting integration. */
export const acctErrors = defineErrors({
  accounting_not_connected: { status: 400, meaning: 'The accounting system is not connected (GET /auth/acct/connect first)' },
  accounting_not_ready: { status: 400, meaning: 'Choose the business, the bank account and the GL mappings before exporting' },
});

export const acctFail = acctErrors.fail;
