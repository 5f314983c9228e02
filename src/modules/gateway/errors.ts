import { defineErrors } from '../../lib/errors';

export const gatewayErrors = defineErrors({
  route_not_exposed: {
    status: 403,
    meaning:
      'Gateway default-deny: account and billing, staff administration, integration configuration, file uploads and non-operator surfaces, whatever the scopes',
  },
});

export const gatewayFail = gatewayErrors.fail;
