import { route } from '../../lib/openapi';
import * as s from './schemas';
import { ACCEPT_DOC, ANSWERS_DOC, CHECKOUT_DOC, QUOTE_DOC } from './routes-docs';

const ptags = ['Coverage at checkout (renter)'];

// ---------------------------------------------------------------------------------------------
// Renter-facing (the widget)

export const publicQuote = route({
  method: 'post',
  path: '/public/coverage/quotes',
  operationId: 'quotePublicCoverage',
  tags: ptags,
  access: 'public',
  summary: 'Coverage cards for a public item of an operator (the widget)',
  description: `${QUOTE_DOC}\n\nFor public items of \`customerId\` only (anything else 404). No credentials needed; the quote id is what later calls need.`,
  body: s.PublicQuoteBody,
  ok: s.QuoteResult,
  errors: [404, 409],
});
export const publicGetQuote = route({
  method: 'get',
  path: '/public/coverage/quotes/{quoteId}',
  operationId: 'getPublicCoverageQuote',
  tags: ptags,
  access: 'public',
  summary: 'One coverage card with its questions (the widget)',
  params: s.QuoteParams,
  ok: s.Quote,
  errors: [404],
  description: 'No credentials needed: the quote id is the capability.',
});
export const publicAnswers = route({
  method: 'post',
  path: '/public/coverage/quotes/{quoteId}/answers',
  operationId: 'answerPublicCoverageQuestions',
  tags: ptags,
  access: 'public',
  summary: "The renter's answers (the widget)",
  description: ANSWERS_DOC,
  params: s.QuoteParams,
  body: s.AnswersBody,
  ok: s.Quote,
  errors: [404, 409, 410],
});
export const publicAccept = route({
  method: 'post',
  path: '/public/coverage/quotes/{quoteId}/accept',
  operationId: 'acceptPublicCoveragePrice',
  tags: ptags,
  access: 'public',
  summary: 'The renter accepts the higher price (the widget)',
  description: ACCEPT_DOC,
  params: s.QuoteParams,
  body: s.AcceptBody,
  ok: s.Quote,
  errors: [404, 409, 410],
});
export const publicCheckout = route({
  method: 'post',
  path: '/public/coverage/checkout',
  operationId: 'checkoutPublicWithCoverage',
  tags: ptags,
  access: 'public',
  idempotent: true,
  status: 201,
  summary: 'Book and pay from the widget with the chosen coverage',
  description: `${CHECKOUT_DOC}\n\nThe widget's form: a public item of \`customerId\`, the renter, the card (\`paymentMethodId\`), paid in full. No
credentials needed.`,
  body: s.PublicCheckoutBody,
  ok: s.PublicCheckoutResult,
  errors: [402, 404, 409],
});
export const publicCoverage = route({
  method: 'get',
  path: '/public/coverage',
  operationId: 'getPublicCoverage',
  tags: ptags,
  access: 'public',
  summary: "The coverage of an order on the renter's booking page",
  description: `By the order's \`TransactionId\`: each policy's status in words (\`issued\` with the policy number and the https document link;
\`not_issued_yet\`: "the policy has not issued yet"; \`not_covered\`; \`cancelled\`), the underwriter and its support address. An order without
coverage answers an empty list; an unknown order 404. No credentials needed.`,
  query: s.PublicCoverageQuery,
  ok: s.PublicCoverage,
  errors: [404],
});
