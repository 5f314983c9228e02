import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Sandbox test clocks'];

const WHO = `Called with an admin API key of a **sandbox** operator (a live operator's key answers 403 \`not_sandbox\`); a clock is seen by the
operator that created it and by the clock's own operator, every other caller gets 404.`;

export const createTestClock = route({
  method: 'post',
  path: '/sandbox/test-clocks',
  operationId: 'createTestClock',
  tags,
  access: 'admin',
  summary: 'Create a test clock and its private sandbox operator, seeded with the demo data',
  body: s.CreateBody,
  ok: s.CreatedTestClock,
  status: 201,
  errors: [403],
  description: `Creates a clock frozen at \`frozenTime\` and a fresh private sandbox operator whose "now" is the clock: Demo Marina's
rentals, tours, bookings, renters, marina, point of sale, memberships and widget data, written as of that time. The answer carries the
operator's \`customerId\` and an admin \`apiKey\` (shown once): call the API with it and everything (availability "today", bookings,
reminders, renewals) reads the clock's time. Time moves only when you advance the clock. \`frozenTime\` more than two years before or
after the caller's "now" answers 400 \`invalid_time\`. ${WHO}`,
});

export const listTestClocks = route({
  method: 'get',
  path: '/sandbox/test-clocks',
  operationId: 'listTestClocks',
  tags,
  access: 'admin',
  summary: 'List test clocks',
  query: s.ListQuery,
  ok: s.TestClockList,
  errors: [403],
  description: `The caller's test clocks, newest first. ${WHO}`,
});

export const getTestClock = route({
  method: 'get',
  path: '/sandbox/test-clocks/{id}',
  operationId: 'getTestClock',
  tags,
  access: 'admin',
  summary: 'Read a test clock (poll it while it advances)',
  params: s.IdParams,
  ok: s.TestClock,
  errors: [403, 404],
  description: `The clock with its \`status\`: poll it after an advance until it is \`ready\` (or \`failed\`). ${WHO}`,
});

export const advanceTestClock = route({
  method: 'post',
  path: '/sandbox/test-clocks/{id}/advance',
  operationId: 'advanceTestClock',
  tags,
  access: 'admin',
  summary: 'Move a test clock forward; scheduled work due in between runs, in time order',
  params: s.IdParams,
  body: s.AdvanceBody,
  ok: s.TestClock,
  errors: [403, 404, 409],
  description: `Moves the clock to \`frozenTime\`. The clock answers \`advancing\` at once; every piece of scheduled work of its operator due in
between then runs at its own instant, in time order: scheduled messages, reminders and message delivery retries; membership renewals,
dunning retries, period-end cancellations and automatic resumes; installments; expiries of holds, waitlist and slip offers, bill holds,
OCTO and marketplace holds and guest passes; cart recovery; coverage bind, cancel and reschedule retries and the operator's flag; webhook
delivery retries; GPS overdue alerts; daily accounting exports; location purges. Each step goes to the earliest instant at which a job has
work (so a three-month advance takes a few dozen steps, not 26,000 five-minute ticks). When all of it has run the clock is \`ready\` at
\`frozenTime\`, and \`progress\` says how many steps ran and which jobs did work. If a job fails part way, the clock stays at the last
instant it fully processed, with \`status: failed\` and \`failure\` naming the job, the instant and the error; advance again to go on.

Errors: a time before the clock's current time (or equal to it), or more than two years after it, answers 400 \`invalid_time\`; a clock
still advancing answers 409 \`clock_advancing\`. ${WHO}

**Example: a monthly membership over three months.** With the clock's \`apiKey\`: create a monthly tier and \`POST /memberships\` a member
paying with the test card \`pm_card_visa\`. Advance three months and poll until \`ready\`: \`GET /memberships/{id}/invoices\` shows three renewal
invoices, each paid on its renewal date, and \`GET /outbox/messages\` the three receipts sent at those instants. Then the member's card
declines (\`pm_card_chargeDeclined\`, set in the member portal with \`POST /public/memberships/portal/card\`): advance past the next renewal
and the renewal fails, the dunning e-mails go out 1, 3 and 5 days apart, each saying when the next attempt is, and after the last the
membership is \`past_due\` (its benefits paused) until the member pays.`,
});

export const deleteTestClock = route({
  method: 'delete',
  path: '/sandbox/test-clocks/{id}',
  operationId: 'deleteTestClock',
  tags,
  access: 'admin',
  summary: "Delete a test clock and its operator's data",
  params: s.IdParams,
  ok: s.Deleted,
  errors: [403, 404],
  description: `Deletes the clock and its private operator with every record of it; the operator's API keys stop working at once. ${WHO}`,
});
