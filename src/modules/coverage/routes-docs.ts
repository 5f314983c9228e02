// Tags and description text shared by the route files (routes-*.ts): the operator checkout and the widget's renter-facing routes
// document the same quote, answers, accept and checkout rules.

export const tags = ['Coverage'];

export const QUOTE_DOC = `Calls \`/quote\` of every offering enabled at the item's location whose licensed countries include the location's and whose
currencies include its currency, in parallel, each within its \`quoteTimeoutMs\` (never more than 5000 ms), with the item and the window only (no
renter identity). A timeout, an error, a premium that is not a JSON number or a reducing deposit effect without its value means no card for that
offering (listed in \`unavailable\` with the reason): **the booking goes on without it**. The question schema is fetched once per version, sanitised
(at most 12 drawable fields of the types text, number, date, checkbox, dropdown, multiselect, address, notice; other types dropped; no HTML; a
pattern with a nested quantifier refuses the schema) and pinned to the quote. A card without questions is \`ready\`; with questions it is \`quoted\`
until the answers are sent. Quotes are valid one hour.`;

export const ANSWERS_DOC = `The answers are checked against the questions pinned to the quote first (required fields, \`pattern\`, \`minAgeYears\` on the rental
date, options; a question whose condition was never met is neither required nor sent): 400 \`validation_failed\` names each field. Then \`/requote\`:
\`accepted\` at the estimate -> \`ready\`; at a lower price -> \`ready\` with the new \`premium\`; at a higher price -> \`needs_acceptance\` (the
checkout refuses to charge it until the renter accepts it); \`declined\` -> \`declined\`, a failure (timeout, error, malformed answer) -> \`failed\`:
the coverage is removed and the booking continues without it. Answers may be sent again while the quote is quoted, ready or awaiting acceptance.
An expired quote: 410 \`expired\`.`;

export const ACCEPT_DOC = `Only for a quote in \`needs_acceptance\`. \`premium\` must be the new price as displayed (else 409 \`coverage_price_changed\` with the
current one); the quote becomes \`ready\` at that price.`;

export const CHECKOUT_DOC = `POST /coreBooking/book with \`coverage: {quoteId}\`: the booking commit every sales path uses, with **one card payment for the
rental plus the premium** (the premium is a \`coverage_premium\` charge on the first rental, in its \`total\` and \`feeTotal\`), the deposit changed by
the coverage's \`depositEffect\` (\`waive\`, \`reduce_to\`, \`reduce_by\`, \`reduce_by_percent\`), and the policy written in the booking's own batch.
\`/bind\` follows from the queue (retried; the operator is flagged within 30 minutes if it still fails); the premium goes to the underwriter's payout
account only after the bind confirms.

**Coverage never blocks the rental**: when the quote is unknown, expired, declined, failed, unanswered or already used, when the booking is not the
quoted item, time and quantity, when it is not paid in full by card now, or when the offering is no longer offered, the booking is placed without coverage and
\`coverage.status\` is \`not_purchased\` with the \`reason\`. The one stop is the spec's rule: a final price above the displayed estimate that the renter
has not accepted answers 409 \`coverage_price_changed\` (accept it with POST .../accept, or book without the coverage). A declined card (402) or a
taken time (409 \`unavailable\`) writes nothing and leaves the quote buyable.`;
