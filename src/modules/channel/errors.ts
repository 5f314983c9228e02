import { defineErrors } from '../../lib/errors';

/** Codes of the reseller channel (`/channel/v1`); the channel's error table in `/docs` is generated from these and the shared ones it uses. */
export const channelErrors = defineErrors({
  missing_api_key: { status: 401, meaning: 'No channel key sent' },
  invalid_api_key: { status: 401, meaning: 'Unknown or rotated key (do not retry)' },
  connection_paused: { status: 403, meaning: 'The operator paused the connection, or the channel is paused' },
  unknown_product: { status: 404, meaning: 'The product is not offered to the key (also a line of an availability answer)' },
  booking_in_progress: { status: 409, meaning: 'The same Idempotency-Key is still in flight' },
  idempotency_unavailable: { status: 503, meaning: 'Transient; retry with the same key' },
  inventory_locked: { status: 503, meaning: 'Transient; retry with the same key' },
});

export const channelFail = channelErrors.fail;
