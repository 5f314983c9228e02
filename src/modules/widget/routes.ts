import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Booking widget'];

export const page = route({
  method: 'get',
  path: '/widget',
  operationId: 'getWidgetPage',
  tags,
  access: 'none',
  security: [],
  summary: 'The booking widget page (HTML; embed it with /widget.js)',
  query: s.PageQuery,
  produces: 'text/html',
  description: `The renter-facing booking page. Embed it on any site with an async \`script\` element whose \`src\` is
\`{base_url}/widget.js\`, with \`data-customer="cus_..."\` (optional \`data-item\`, \`data-date\`, \`data-location\`,
\`data-ref\`, \`data-height\`): the script opens this page in an iframe that reserves its height, then follows the height of its content both ways (growing and shrinking with each step). Deep links:
\`?customer=&item=&date=YYYY-MM-DD&location=&ref=\` open an item's calendar at a date; \`?pass=<rentalId>\` is the renter's booking page (pass, coverage),
\`?manage=<rentalId>\` its cancellation. Flow: items, month calendar (open, nearly full and sold-out days), times in the location's zone (labelled),
party, add-ons, protection plan (when offered), promo or gift code, coverage (the underwriter's card and questions, when the location offers
coverage), renter details, waiver (when the location has one), payment (the simulator's
test card form offline; the provider's payment element when configured), confirmation with the wallet pass and an \`.ics\`. A sold-out time offers
the waitlist. The page posts \`berth:*\` messages to the embedding page (\`berth:step\`, \`berth:booking.completed\`, \`berth:resize\`, ...) and
records the funnel (POST /public/widget/events). Scripts and styles are this deployment's static files; the page's Content-Security-Policy allows
scripts from Berth's origin only.`,
});

export const catalog = route({
  method: 'get',
  path: '/public/widget/catalog',
  operationId: 'getWidgetCatalog',
  tags: ['Public'],
  access: 'public',
  summary: "The operator's bookable items for the widget (prices, lengths, tiers, add-ons)",
  query: s.CatalogQuery,
  ok: s.Catalog,
  errors: [404],
  description: `Public items of the operator (optionally of one location) with their starting price, rental lengths, fare tiers and add-ons, the
locations with their time zones, the widget's look and how payments are taken (\`simulator\` with its test card numbers offline, \`stripe\` with the
publishable key when configured). No renter data. Read through a D1 session (\`X-D1-Bookmark\`). Unknown operator or location: 404. No credentials
needed.`,
});

export const quote = route({
  method: 'post',
  path: '/public/widget/quote',
  operationId: 'quoteWidgetOrder',
  tags: ['Public'],
  access: 'public',
  summary: "The server's price of a widget order and whether its time is still free",
  body: s.QuoteBody,
  ok: s.Quote,
  errors: [404, 409],
  description: `Prices the order exactly as the checkout will (rental or tickets, add-ons, promo or gift code, taxes, tip; dollars) and checks the
time with the widget's rules (minimum notice, advance window) without reserving anything: \`available\` false with \`reasons\` when it is taken or
closed. A gift card (\`promoCode\` naming one, or \`giftCardCode\`) does not lower the total: \`giftCard.applied\` says what it pays and \`amountDue\`
what the card is charged. An unknown, expired or inapplicable code answers 400 \`invalid_promo_code\`; a tour time that is not a departure
409 \`unavailable\`; a private or unknown item 404. No credentials needed.`,
});

export const checkout = route({
  method: 'post',
  path: '/public/widget/checkout',
  operationId: 'checkoutWidgetOrder',
  tags: ['Public'],
  access: 'public',
  status: 201,
  summary: 'Book and pay from the widget',
  body: s.CheckoutBody,
  ok: s.CheckoutResult,
  errors: [402, 404, 409],
  description: `Places the booking through the booking commit every sales path uses (source \`widget\`: minimum notice and advance window enforced,
checked and reserved in the item's lock, the full price charged to \`paymentMethodId\`, one D1 batch) and answers its reference, a renter token for
managing participants and documents (24 hours; it cannot cancel) and the links to the pass, the wallet save link, the \`.ics\` and the manage page.
\`expectedTotal\` (the total the renter saw) must match the server's price within a cent (400 \`price_mismatch\` with the breakdown). \`refAffiliate\`
is stored on the booking (\`extendedData.refAffiliate\`); \`waiverSignatureIds\` (waivers signed in the widget with POST /inHouseWaiver/waiver/sign)
are attached to the booking. A gift card (\`promoCode\` naming one, or \`giftCardCode\`) pays what its balance covers, spent atomically in the
booking's batch (a \`gift_card\` payment in the ledger, given back to the card if the whole order is cancelled); the card pays the rest.

**Coverage.** \`coverage.quoteId\` names the coverage card the renter chose (POST /public/coverage/quotes, its questions answered and a higher
price accepted): the premium is paid in the same card payment as the rental (\`expectedTotal\` stays the rental's total without it), the deposit
follows the coverage's deposit effect, the policy is written in the booking's batch and bound from the queue; \`coverage\` in the answer says
whether it was bought and why not (an expired, declined, failed or unanswered quote, another item or time, an offering no longer offered: the
booking goes ahead without it). The one stop: a final price above the displayed estimate that the renter has not accepted answers 409
\`coverage_price_changed\` and books nothing (accept it with POST /public/coverage/quotes/{quoteId}/accept, or book without the coverage).
\`links.coverage\` reads the policy's status and document on the renter's booking page.

Declined card: 402 \`payment_failed\` and nothing is written; taken time: 409 \`unavailable\`. The answer carries \`X-D1-Bookmark\` (the
primary's bookmark after the write): send it back on the next reads so the renter sees their booking at once. No credentials needed.`,
});

export const events = route({
  method: 'post',
  path: '/public/widget/events',
  operationId: 'recordWidgetEvent',
  tags: ['Public'],
  access: 'public',
  summary: "Record a step of the widget's funnel",
  body: s.EventBody,
  ok: s.EventAccepted,
  status: 201,
  errors: [404, 429],
  description: `\`event\`: view, date_chosen, slot_chosen, checkout or waitlist (\`booked\` is recorded by the checkout itself), with the visit's random
\`sessionId\`, the item, date and time picked, the affiliate \`ref\` and the embedding host. For the widget metrics; no personal data. At most 120
events per client IP a minute (429). Unknown operator: 404. No credentials needed.`,
});
