import { route } from '../../lib/openapi';
import * as s from './schemas';
import { platformCheckedInService } from '../../middleware/auth';

const tags = ['Promo codes and gift cards'];
const TENANT = "`customerId` is the operator account and must be the caller's (403 otherwise).";

export const listCodes = route({
  method: 'get',
  path: '/promoGiftCards',
  operationId: 'listPromoGiftCards',
  tags,
  summary: "The operator's promo codes and gift cards (one code with promoCode)",
  query: s.ListQuery,
  ok: s.PromoList,
  errors: [403],
  description: `Paginated with \`limit\` and \`offset\`; \`promoCode\` (case-insensitive) narrows the list to that code. ${TENANT}`,
});

export const createCode = route({
  method: 'post',
  path: '/promoGiftCards',
  operationId: 'createPromoGiftCard',
  tags,
  summary: 'Create a promo code or a gift card',
  body: s.CreateBody,
  ok: s.PromoCode,
  status: 201,
  errors: [403, 404, 409],
  description: `\`Details\` must hold exactly one of \`$Discount\` (dollars off per use; for a gift card its value) or \`%Discount\` (percent off, above 0 and at most 100): neither or both, or a percentage outside that range, answers 400 \`invalid_discount\`. \`Details.type: "gift_card"\` makes a gift card with a balance ledger (its \`$Discount\` is the value issued). \`usageLimit\` (or \`Details.usageLimit\`) caps the uses. \`ExpiryDate\` is a date (valid through that day, UTC) or an instant. \`inventoryIds\` and \`locationId\` limit where a booking may use it; \`affiliateId\` must be an affiliate of the operator (400 \`invalid_affiliate\`) and earns its commission on each use. A code that exists for the operator (case-insensitive) answers 409 \`already_exists\`. Needs the \`promotions\` permission (admins and managers have it). ${TENANT}`,
});

export const updateCode = route({
  method: 'patch',
  path: '/promoGiftCards',
  operationId: 'updatePromoGiftCard',
  tags,
  summary: 'Change a code (Updates)',
  body: s.UpdateBody,
  ok: s.PromoCode,
  errors: [403, 404],
  description: `Applies \`Updates\` (\`ExpiryDate\`, \`Details\`, \`inventoryIds\`, \`locationId\`, \`affiliateId\`, \`usageLimit\`, \`active\`; null clears an optional one). An unknown affiliate answers 400 \`invalid_affiliate\`; an unknown code 404; empty \`Updates\` 400 \`no_changes\`; a \`usageLimit\` below the uses already made 400. A gift card's value cannot be changed (its balance is a ledger). ${TENANT}`,
});

export const deleteCode = route({
  method: 'delete',
  path: '/promoGiftCards',
  operationId: 'deletePromoGiftCard',
  tags,
  summary: 'Delete a code',
  query: s.DeleteQuery,
  ok: s.Deleted,
  errors: [403, 404],
  description: `Deletes the code (its past uses stay in the reports). A gift card that still holds a balance answers 400: deactivate it instead. ${TENANT}`,
});

export const searchCodes = route({
  method: 'get',
  path: '/promoGiftCards/search',
  operationId: 'searchPromoGiftCards',
  tags,
  summary: "Find a code across every operator (Berth's platform staff only)",
  query: s.SearchQuery,
  ok: s.SearchResult,
  errors: [401, 403, 429],
  // Any credential, then the role check in the service, so a malformed query answers 400 first.
  access: 'none',
  auth: platformCheckedInService,
  description: `For Berth's own staff (support), a role apart from operators' admins: authenticate with \`x-platform-key\` (the \`PLATFORM_API_KEY\` secret) or a bearer token whose \`roles\` claim holds \`platform_staff\`. Operators' credentials, admins included, answer 403. Answers every operator's code that matches \`promoCode\` case-insensitively (at most 100).`,
});

export const balance = route({
  method: 'get',
  path: '/promoGiftCards/balance',
  operationId: 'getGiftCardBalance',
  tags,
  summary: 'Balance of a gift card (remaining uses of a promo code)',
  query: s.BalanceQuery,
  ok: s.Balance,
  errors: [403, 404],
  description: `A gift card's balance is the sum of its ledger entries (issue or purchase, redemptions, releases), listed newest first. For a promo code \`balance\` is null and \`remainingUses\` tells what is left. \`customerId\` defaults to the caller's operator; another operator's id answers 403, an unknown code 404.`,
});

export const useCode = route({
  method: 'post',
  path: '/promoGiftCards/use',
  operationId: 'usePromoGiftCard',
  tags,
  summary: 'Use a code on an order (atomic; records affiliate commission)',
  body: s.UseBody,
  ok: s.UseResult,
  errors: [403, 404],
  idempotent: true,
  description: `A promo code gives its discount on \`orderAmount\` (dollars) and counts one use; a gift card redeems min(balance, orderAmount). Both are single conditional SQL changes: parallel uses can never pass the usage limit or spend more than the balance. An inactive, expired, used-up or empty code answers 400 \`code_not_usable\` (with the reason for operators); an unknown code 404. The affiliate of the code earns its \`percentageEarned\` of the order after discount (of the redeemed amount for gift cards), recorded on the use. ${TENANT}`,
});

export const affiliateStats = route({
  method: 'get',
  path: '/promoGiftCards/affiliate/{affiliateId}',
  operationId: 'getAffiliatePromoAnalytics',
  tags,
  summary: "Uses, revenue and commission of an affiliate's codes",
  params: s.AffiliateParams,
  query: s.AffiliateQuery,
  ok: s.AffiliateStats,
  errors: [403],
  description: `Sums the active uses (released uses of cancelled bookings excluded) of the codes attributed to the affiliate, per code and in total, in dollars. An affiliate the operator does not have answers 400 \`invalid_affiliate\`. ${TENANT}`,
});

const PUBLIC = 'Public (no credentials): `customerId` names the operator selling the card (400 when unknown).';

export const createIntent = route({
  method: 'post',
  path: '/public/gift-card/create-payment-intent',
  operationId: 'createGiftCardPaymentIntent',
  tags,
  summary: 'Start a gift-card purchase (payment intent)',
  access: 'public',
  body: s.CreateIntentBody,
  ok: s.PaymentIntentOut,
  errors: [402],
  idempotent: true,
  description: `Creates a payment intent for \`amount\` dollars (value plus fees) for a card worth \`giftCardAmount\` (defaults to amount) with the code \`giftCardCode\` (at least 6 characters; 400 \`gift_card_code_taken\` when the operator has it). The client confirms the intent with \`clientSecret\` (or send \`paymentMethodId\` to confirm at once), then calls confirm-payment; the provider's webhook issues the card too if the client never comes back. \`connectAccountId\` and \`applicationFeeAmount\` (cents) make a destination charge. ${PUBLIC}`,
});

export const confirmPayment = route({
  method: 'post',
  path: '/public/gift-card/confirm-payment',
  operationId: 'confirmGiftCardPayment',
  tags,
  summary: 'Issue the gift card of a paid intent (exactly once)',
  access: 'public',
  body: s.ConfirmBody,
  ok: s.GiftCardOut,
  status: 201,
  errors: [404, 409],
  idempotent: true,
  description: `Checks the intent at the payment provider (400 \`payment_not_completed\` unless it succeeded) and issues the card once per payment intent: a repeated confirmation, or one after the webhook, answers the same card with \`created: false\`. If another card took the code meanwhile the payment is refunded and the answer is 409 \`already_exists\`. An intent that is not a gift-card purchase answers 404. Fires \`payment.completed\` with the card's ledger entry.`,
});

export const webhook = route({
  method: 'post',
  path: '/public/gift-card/webhook',
  operationId: 'giftCardPaymentWebhook',
  tags,
  summary: "The payment provider's webhook (backup issuing of gift cards)",
  access: 'none',
  ok: s.WebhookResult,
  description: `Verifies the \`Stripe-Signature\` header (HMAC-SHA256 of \`{t}.{raw body}\` with \`STRIPE_WEBHOOK_SECRET\`, 5 minutes tolerance): 400 \`webhook_not_configured\` without a secret, 400 \`invalid_signature\` on a missing, stale or wrong one. On \`payment_intent.succeeded\` of a gift-card purchase it issues the card (at most once, whichever of the webhook and confirm-payment comes first); other events answer 200 \`handled: false\`.`,
});

export const sendEmail = route({
  method: 'post',
  path: '/public/gift-card/send-email',
  operationId: 'sendGiftCardEmail',
  tags,
  summary: 'Queue the gift e-mail of a card',
  access: 'public',
  body: s.SendEmailBody,
  ok: s.GiftCardEmailSent,
  errors: [],
  description: `Queues the e-mail (code, value, message, expiry) to \`recipientEmail\` in the outbox (GET /outbox/messages). The card must exist with that code and value (400 otherwise); an invalid e-mail answers 400. ${PUBLIC}`,
});

export const chargeSavedCard = route({
  method: 'post',
  path: '/public/gift-card/charge-saved-card',
  operationId: 'chargeSavedCardForGiftCard',
  tags,
  summary: 'Buy a gift card with a saved payment method',
  access: 'public',
  body: s.ChargeSavedCardBody,
  ok: s.GiftCardOut,
  errors: [402],
  idempotent: true,
  description: `Charges \`paymentMethodId\` (of \`stripeCustomerId\` when given) \`amount\` dollars and issues a gift card worth \`metadata.giftCardAmount\` (default amount) with \`metadata.giftCardCode\` or a generated code (16 characters of an unambiguous alphabet); \`metadata.recipientEmail\`, \`recipientName\` and \`message\` are kept on the card. A declined card answers 402 and nothing is issued. Fires \`payment.completed\`. ${PUBLIC}`,
});
