import { route } from '../../lib/openapi';
import * as s from './schemas';
import { ACCEPT_DOC, ANSWERS_DOC, CHECKOUT_DOC, QUOTE_DOC, tags } from './routes-docs';

// ---------------------------------------------------------------------------------------------
// Operator checkout

export const quote = route({
  method: 'post',
  path: '/coverage/quotes',
  operationId: 'quoteCoverage',
  tags,
  summary: 'Coverage cards for an item and a time (operator checkout)',
  description: QUOTE_DOC,
  body: s.QuoteBody,
  ok: s.QuoteResult,
  errors: [404, 409],
});
export const getQuote = route({
  method: 'get',
  path: '/coverage/quotes/{quoteId}',
  operationId: 'getCoverageQuote',
  tags,
  summary: 'One coverage card with its pinned questions',
  params: s.QuoteParams,
  ok: s.Quote,
  errors: [404],
  description: "Another operator's quote answers 404.",
});

export const answers = route({
  method: 'post',
  path: '/coverage/quotes/{quoteId}/answers',
  operationId: 'answerCoverageQuestions',
  tags,
  summary: "The renter's answers: validated, then /requote",
  description: ANSWERS_DOC,
  params: s.QuoteParams,
  body: s.AnswersBody,
  ok: s.Quote,
  errors: [404, 409, 410],
});

export const accept = route({
  method: 'post',
  path: '/coverage/quotes/{quoteId}/accept',
  operationId: 'acceptCoveragePrice',
  tags,
  summary: 'The renter explicitly accepts a higher final price',
  description: ACCEPT_DOC,
  params: s.QuoteParams,
  body: s.AcceptBody,
  ok: s.Quote,
  errors: [404, 409, 410],
});

export const checkout = route({
  method: 'post',
  path: '/coverage/checkout',
  operationId: 'checkoutWithCoverage',
  tags,
  idempotent: true,
  status: 201,
  summary: 'Place a booking with the chosen coverage: one payment for rental plus premium',
  description: CHECKOUT_DOC,
  body: s.CheckoutBody,
  ok: s.CheckoutResult,
  errors: [402, 403, 404, 409],
});
