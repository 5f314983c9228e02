import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Inventory records'];

const ANALYSIS = `A check-in (\`RecordType\` checkin, check-in or check_in) whose \`Details\` has \`photos\` (or \`images\`) gets
\`Details.conditionAnalysis\`: an offline, rule-based comparison with the check-out record before it (same \`RentalId\`, else same \`AssetId\`, else
the item): fuel lower than at check-out (\`fuelLevel\`), engine-hour meter going back (\`engineHours\`), damages not in the check-out report
(\`damages\`), damage words in \`notes\`, fewer photos than at check-out. The photos themselves are not inspected.`;

export const listRecords = route({
  method: 'get',
  path: '/boatRecords',
  operationId: 'listBoatRecords',
  tags,
  summary: "An item's condition records, newest first (optionally of one RecordType)",
  query: s.ListQuery,
  ok: s.RecordPage,
  errors: [404],
  description: 'Pages of `limit` records (default 100, at most 500) with an opaque `nextToken`; an unknown or foreign `inventoryId` answers 404.',
});

export const createRecord = route({
  method: 'post',
  path: '/boatRecords',
  operationId: 'createBoatRecord',
  tags,
  summary: 'Add a condition record (check-out, check-in, damage, fuel, ...)',
  body: s.CreateBody,
  ok: s.BoatRecord,
  status: 201,
  errors: [404, 409],
  description: `\`timestamp\` is the record's sort key within the item (defaults to now); a second record at the same instant answers 409
\`already_exists\`. ${ANALYSIS}`,
});

export const updateRecord = route({
  method: 'patch',
  path: '/boatRecords',
  operationId: 'updateBoatRecord',
  tags,
  summary: 'Merge Updates into the Details of a record',
  body: s.UpdateBody,
  ok: s.BoatRecord,
  errors: [404],
  description: `The record is named by \`inventoryId\` and \`timestamp\`. Each key of \`Updates\` replaces the same key of \`Details\`; a key set to
null is removed. A check-in with photos is analysed again.`,
});

export const deleteRecord = route({
  method: 'delete',
  path: '/boatRecords',
  operationId: 'deleteBoatRecord',
  tags,
  summary: 'Delete a condition record',
  body: s.DeleteBody,
  ok: s.DeleteResult,
  errors: [403, 404],
  description: "Needs the `inventory` permission (admins and managers have it), because records are evidence of the boat's condition.",
});

export const rundownRecords = route({
  method: 'get',
  path: '/boatRecords/rundownRecords',
  operationId: 'listBoatRecordRundown',
  tags,
  summary: 'Rundown of all records of an item, newest first, paginated',
  query: s.RundownQuery,
  ok: s.RecordPage,
  errors: [404],
  description:
    '`limit` defaults to 20 (at most 100). `nextToken` is opaque and URL-safe; a token that was not issued for this item answers 400 `invalid_cursor`.',
});
