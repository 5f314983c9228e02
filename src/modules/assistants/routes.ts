import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Public'];
const AI = `Answered through the AI helper: Workers AI when the \`AI\` binding is configured (instructed to use only the operator's data; an answer
that states an amount not in that data is replaced by the deterministic one), otherwise deterministic rules over the same data. Prices come only from
the operator's inventory pricing, never invented. What the data does not answer is \`status: cannot_answer\` with a \`reason\` and who to contact. At
most 30 questions per client IP a minute (429). No credentials needed.`;

export const sidekick = route({
  method: 'post',
  path: '/public/customer-sidekick',
  operationId: 'askBookingSidekick',
  tags,
  access: 'public',
  summary: "Answer a renter's question about their booking",
  body: s.SidekickBody,
  ok: s.SidekickAnswer,
  errors: [404, 429],
  description: `From that booking's data only: time and place in the location's zone, total, paid and due, party size, add-ons, waiver status,
and whether and with what refund it can be cancelled now. The question and the outcome are logged in the booking's activity. Unknown booking: 404.
${AI}`,
});

export const concierge = route({
  method: 'post',
  path: '/public/boat-concierge',
  operationId: 'askFleetConcierge',
  tags,
  access: 'public',
  summary: "Answer a visitor's question about an operator's boats, tours and availability",
  body: s.ConciergeBody,
  ok: s.ConciergeAnswer,
  errors: [404, 429],
  description: `From the operator's public items (optionally of one \`locationId\`): what there is, for how many people, the starting prices, and
with a date (\`selectedDate\`, a YYYY-MM-DD in the message, or "today"/"tomorrow" in the location's zone) what is open that day. \`items\` lists the
items the answer is about (those named in the message, else all). Unknown operator or location: 404. ${AI}`,
});
