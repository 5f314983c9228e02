import { defineErrors } from '../../lib/errors';

/** Codes of the tour-marketplace supplier API (`/ota/*`). */
export const marketplaceErrors = defineErrors({
  missing_marketplace_key: { status: 401, meaning: 'No marketplace API key sent (header `exp-api-key`, or `data.ApiKey` for /ota/api)' },
  invalid_marketplace_key: { status: 401, meaning: 'The marketplace API key is unknown' },
  marketplace_inactive: { status: 403, meaning: "The operator's marketplace configuration is inactive: supplier calls are refused" },
  unknown_request_type: { status: 400, meaning: 'The /ota/api `requestType` is missing or unknown' },
  unknown_product_option: { status: 404, meaning: 'The product option is not one of the operator’s public items' },
});

export const marketplaceFail = marketplaceErrors.fail;
