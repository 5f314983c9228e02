import { route } from '../../lib/openapi';
import * as s from './schemas';

export const hold = route({
  method: 'post',
  path: '/holdAsset',
  operationId: 'holdAsset',
  tags: ['Availability, holds and drydock'],
  access: 'public',
  status: 201,
  summary: 'Hold one unit of an item for an e-mail for 2 days (waitlist entry)',
  description: `Public (credentials optional; an authenticated operator may only hold its own items: another \`customerId\` is 403). The customer,
item and location must belong together (404 otherwise). Rentals: one asset that is free for the whole two days is kept (409 \`unavailable\` when none
is); tours: one seat on every departure of the next two days that has one. Everyone else sees one unit fewer until the hold expires; a booking by the
same e-mail may use the held unit and consumes the hold. Expired holds stop counting at once and are swept by cron every 5 minutes. Holding again with
the same e-mail answers the existing hold with 200 and \`created: false\`.`,
  body: s.HoldBody,
  ok: s.Hold,
  errors: [403, 404, 409],
});
