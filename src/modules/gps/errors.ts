import { defineErrors } from '../../lib/errors';

/** Codes of the GPS integration. */
export const gpsErrors = defineErrors({
  missing_device_key: { status: 401, meaning: 'No device key sent (`Authorization: Bearer gpd_...` or `X-Device-Key`)' },
  invalid_device_key: { status: 401, meaning: 'Unknown device key, or the device was removed' },
});

export const gpsFail = gpsErrors.fail;
