import { defineErrors } from '../../lib/errors';

export const aiErrors = defineErrors({
  integration_not_enabled: { status: 403, meaning: 'The integration is not enabled on the account (`integrations` of PATCH /customer)' },
});
