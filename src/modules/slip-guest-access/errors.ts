import { defineErrors } from '../../lib/errors';

export const guestAccessErrors = defineErrors({
  guest_pass_not_valid: { status: 409, meaning: 'The guest pass is not valid now (`result` says expired, revoked or not yet valid)' },
  guest_id_not_verified: { status: 409, meaning: "The pass needs the guest's ID checked before check-in (POST .../verify-id)" },
  guest_pass_limit: { status: 409, meaning: 'The reservation has as many active guest passes as allowed' },
});
