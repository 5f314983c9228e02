import { route } from '../../lib/openapi';
import * as s from './schemas';

export const getManifest = route({
  method: 'get',
  path: '/manifests/{locationId}',
  operationId: 'getDailyManifest',
  tags: ['Manifests'],
  summary: 'Daily manifest of a location: bookings, people, waivers, check-in, staff, balance due',
  params: s.ManifestParams,
  query: s.ManifestQuery,
  ok: s.Manifest,
  produces: ['application/json', 'text/csv', 'application/pdf'],
  errors: [403, 404],
  description: `The bookings of the location starting on \`date\` (its local date, in its time zone; today there by default), cancelled ones left
out, in start order. Each row: the item, the local start and end, the renter, the people and their waivers (named participants and signers of
the booking's waivers; \`waivers.missing\` is the rest of the party), the check-in state, the assigned staff and the balance due (from the money
view of the ledger). \`format\`: \`json\` (default), \`csv\` (RFC 4180, one row per booking, with \`balanceDueCents\`) or \`pdf\` (printable);
without \`format\` an \`Accept\` of \`text/csv\` or \`application/pdf\` chooses. Needs the \`bookings\` permission (admins and managers hold it).
Another operator's location answers 404.`,
});
