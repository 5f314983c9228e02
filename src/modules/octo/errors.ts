import { defineErrors } from '../../lib/errors';

/**
 * OCTO's own error codes (the OCTO specification's names and statuses: every error is 400 except
 * INTERNAL_SERVER_ERROR). `/octo/v1` renders every error, these and the shared ones, as OCTO's
 * `{error, errorMessage, ...}` body (see `render.ts`); elsewhere they never occur.
 */
export const octoErrors = defineErrors({
  INVALID_PRODUCT_ID: { status: 400, meaning: 'OCTO: the productId is missing, unknown or not offered to the key (body carries `productId`)' },
  INVALID_OPTION_ID: { status: 400, meaning: 'OCTO: the optionId is not an option of the product (body carries `optionId`)' },
  INVALID_UNIT_ID: { status: 400, meaning: 'OCTO: a unitId is not a unit of the option (body carries `unitId`)' },
  INVALID_AVAILABILITY_ID: { status: 400, meaning: 'OCTO: the availabilityId is not a start of the option (body carries `availabilityId`)' },
  INVALID_BOOKING_UUID: {
    status: 400,
    meaning: 'OCTO: unknown booking uuid, an expired reservation, or a uuid reused for another booking (body carries `uuid`)',
  },
  UNPROCESSABLE_ENTITY: { status: 400, meaning: 'OCTO: well-formed but refused (sold out, outside the cancellation policy, missing unit items)' },
});

export const octoFail = octoErrors.fail;

/** The OCTO codes of this module, as thrown with `octoFail`. */
export type OctoCode = keyof typeof octoErrors.table;
