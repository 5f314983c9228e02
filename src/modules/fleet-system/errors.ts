import { defineErrors } from '../../lib/errors';

/** Codes of the fleet-software integration. */
export const fleetErrors = defineErrors({
  fleetsys_not_connected: { status: 400, meaning: 'The fleet system is not connected (POST /fleetsys/connect first)' },
  fleetsys_connection_failed: { status: 400, meaning: 'The fleet system refused the credentials or could not be reached; nothing was saved' },
  fleetsys_refused: { status: 400, meaning: 'The fleet system refused the request; `message` carries its reason' },
  fleetsys_mapping_missing: { status: 400, meaning: 'An inventory item (or asset) of the booking has no fleet product mapping' },
});

export const fleetFail = fleetErrors.fail;
