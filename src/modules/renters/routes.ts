import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Renters'];

export const listRenters = route({
  method: 'get',
  path: '/renters',
  operationId: 'listRenters',
  tags,
  summary: "The operator's renters: search, status filter, sorting, pages",
  query: s.ListQuery,
  ok: s.RenterList,
  errors: [403],
  description: `\`search\` matches first or last name, the full name, e-mail, phone (also by digits only) and licence number, case-insensitively.
\`page\` starts at 1; \`limit\` is at most 100 (default 25). \`sortField\` is one of firstName, lastName, email, createdAt (default), updatedAt,
riskScore, balance; \`sortDirection\` asc or desc (default desc). \`includeAccounting=true\` adds \`accounting\` to each renter (balance from the
ledger in cents and dollars). Deleted renters are not listed.`,
});

export const upsertRenter = route({
  method: 'post',
  path: '/renters',
  operationId: 'upsertRenter',
  tags,
  summary: 'Create a renter, or update the one with this e-mail',
  body: s.UpsertBody,
  ok: s.Renter,
  status: 201,
  errors: [403],
  description: `Matched by e-mail (case-insensitive) and \`customerId\`: an existing renter is updated and the answer is **200**; otherwise the renter
is created, the answer is **201** and a \`customer.created\` webhook is sent. On update the names are replaced, \`address\`, \`phone\`, \`dob\` and
\`stripe_customer_id\` replace the stored values, \`additional_info\` and \`id_verifications\` are merged, \`transactions\` and
\`waivers_signed_urls\` are appended (URLs without duplicates). A deleted renter with this e-mail is restored.`,
});

export const exportRenters = route({
  method: 'get',
  path: '/renters/export',
  operationId: 'exportRenters',
  tags,
  summary: 'Export the renters as CSV or JSON',
  query: s.ExportQuery,
  produces: 'text/csv',
  errors: [403],
  description: `Same filters and sorting as \`GET /renters\`, without pages. \`format\` is csv (default) or json. CSV has a header row with the
columns id, firstName, lastName, email, phone, address, dob, status, riskScore, licenseNumber, loyaltyPoints, payment_customer_id,
waivers_signed_urls, createdAt, updatedAt (plus balance and balanceCents with \`includeAccounting=true\`); objects and arrays are written as JSON;
cells that look like spreadsheet formulas are prefixed with an apostrophe. The body streams page by page, so large exports start at once. Needs the
\`renters\` permission (admins and managers have it).`,
});

export const searchSuggestions = route({
  method: 'get',
  path: '/renters/search-suggestions',
  operationId: 'suggestRenters',
  tags,
  summary: 'Renters matching a partial name, e-mail or phone (type-ahead)',
  query: s.SuggestQuery,
  ok: z.object({ query: z.string(), data: z.array(s.Suggestion) }),
  errors: [403],
  description: '`query` needs at least 2 characters (400 otherwise). At most `limit` (default 10, max 25) suggestions, by last name.',
});

export const journalEntries = route({
  method: 'get',
  path: '/renters/journal-entries/{id}',
  operationId: 'listRenterJournalEntries',
  tags,
  summary: "A renter's non-deleted journal (ledger) entries",
  params: s.IdParam,
  ok: z.object({ renterId: z.string(), balanceCents: z.number().int(), balance: z.number(), data: z.array(s.JournalEntry) }),
  errors: [404],
  description: `Entries in the order they occurred. \`amountCents\` is signed from the renter's point of view (positive: a charge; negative: a payment
or credit); \`amount\` is the same in dollars. Entries with \`affectsBalance=false\` are memo entries (deposit holds, platform fees) and do not count
in \`balance\`. Deleted renters keep their journal.`,
});

export const getRenter = route({
  method: 'get',
  path: '/renters/{id}',
  operationId: 'getRenter',
  tags,
  summary: 'A renter with its accounting',
  params: s.IdParam,
  ok: s.Renter,
  errors: [404],
  description:
    'Includes `accounting`: balance (cents and dollars), total charges and credits in cents, the number of journal entries and the time of the last one.',
});

export const patchRenter = route({
  method: 'patch',
  path: '/renters/{id}',
  operationId: 'updateRenter',
  tags,
  summary: 'Update a renter, add a note, append transactions',
  params: s.IdParam,
  body: s.PatchBody,
  ok: s.Renter,
  errors: [404, 409],
  description: `\`add_note: true\` with a \`note\` object appends the note to \`notes\` (with \`id\`, \`createdAt\` and the author added).
\`transactions\` are appended; \`additional_info\` is merged; other fields replace. A body with no valid field answers 400 \`no_changes\`; an e-mail
that another renter of the operator has answers 409 \`already_exists\`.`,
});

export const deleteRenter = route({
  method: 'delete',
  path: '/renters/{id}',
  operationId: 'deleteRenter',
  tags,
  summary: 'Delete a renter (and its customer at the payment provider)',
  params: s.IdParam,
  ok: z.object({ success: z.boolean(), id: z.string(), deletedAt: z.string(), paymentCustomerDeleted: z.boolean() }),
  errors: [403, 404],
  description: `The renter disappears from lists and reads (404 afterwards); its journal entries are kept, and a later \`POST /renters\` with the same
e-mail restores it. Its customer at the payment provider is deleted. Needs the \`renters\` permission (admins and managers have it).`,
});

export const attachPaymentMethod = route({
  method: 'post',
  path: '/renters/{id}/payment-method',
  operationId: 'addRenterPaymentMethod',
  tags,
  summary: 'Attach a payment method to a renter and make it the default',
  params: s.IdParam,
  body: s.PaymentMethodBody,
  ok: z.object({ renterId: z.string(), payment_customer_id: z.string(), paymentMethod: s.PaymentMethod }),
  errors: [404],
  description: `Creates the renter's customer at the payment provider on first use. An unknown or unusable payment method answers 400
\`invalid_payment_method\`. Offline, the simulator takes test tokens such as \`pm_card_visa\`.`,
});

export const listPaymentMethods = route({
  method: 'get',
  path: '/renters/{id}/payment-methods',
  operationId: 'listRenterPaymentMethods',
  tags,
  summary: "A renter's saved payment methods",
  params: s.IdParam,
  ok: z.object({ renterId: z.string(), payment_customer_id: z.string().nullable(), data: z.array(s.PaymentMethod) }),
  errors: [404],
  description: '`isDefault` marks the default method. A renter without a payment-provider customer has none.',
});

export const owingRenters = route({
  method: 'get',
  path: '/owing/renters',
  operationId: 'listOwingRenters',
  tags,
  summary: 'Renters who owe at least 1 dollar',
  query: s.OwingQuery,
  ok: z.object({
    asOfDate: z.string(),
    thresholdCents: z.number().int(),
    total: z.number().int(),
    totalOwedCents: z.number().int(),
    totalOwed: z.number(),
    data: z.array(
      z.object({
        renterId: z.string(),
        firstName: z.string(),
        lastName: z.string(),
        email: z.string(),
        phone: z.string().nullable(),
        status: z.string(),
        deleted: z.boolean(),
        balanceCents: z.number().int(),
        balance: z.number(),
      }),
    ),
  }),
  errors: [403],
  description: `Balances count the non-deleted ledger entries that affect the balance and occurred up to the end of \`asOfDate\` (a UTC date) or up to
the given instant (default now). Largest balances first; deleted renters who still owe are included with \`deleted: true\`.`,
});
