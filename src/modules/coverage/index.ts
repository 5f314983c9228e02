import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { retryBind } from './bind';
import { voidPolicy } from './cancel';
import { checkoutWithCoverage, publicCheckout } from './checkout';
import { disableOffering, enableOffering, listAvailableOfferings, listEnablements } from './enablements';
import { flagList, resolveFlag } from './flags';
import { requestMessage } from './messages';
import {
  createOffering,
  deleteOffering,
  getOfferingOfPartner,
  listOfferings,
  offeringCalls,
  readiness,
  rotateSecret,
  submitOffering,
  updateOffering,
} from './offerings';
import { connectPayoutAccount, getPayoutAccount } from './payout';
import { policyDetail, policyList, publicCoverage } from './policies';
import { acceptPrice, getQuoteView, quoteForOperator, quoteForWidget, submitAnswers } from './quotes';
import { approveOffering, getForReview, listForReview, rejectOffering } from './review';
import { limitAbuse } from '../../lib/abuse';

const router = createRouter();

// Offerings (partner)
mount(router, r.createOffering, async (c, { body }) => c.json(await createOffering(ctxOf(c), body), 201));
mount(router, r.listOfferings, async (c, { query }) => c.json(await listOfferings(ctxOf(c), query)));
mount(router, r.getOffering, async (c, { params }) => c.json(await getOfferingOfPartner(ctxOf(c), params.offeringId)));
mount(router, r.updateOffering, async (c, { params, body }) => c.json(await updateOffering(ctxOf(c), params.offeringId, body)));
mount(router, r.deleteOffering, async (c, { params }) => c.json(await deleteOffering(ctxOf(c), params.offeringId)));
mount(router, r.rotateSecret, async (c, { params }) => c.json(await rotateSecret(ctxOf(c), params.offeringId)));
mount(router, r.offeringStatus, async (c, { params }) => c.json(await readiness(ctxOf(c), params.offeringId)));
mount(router, r.submitOffering, async (c, { params }) => c.json(await submitOffering(ctxOf(c), params.offeringId)));
mount(router, r.offeringCalls, async (c, { params, query }) => c.json(await offeringCalls(ctxOf(c), params.offeringId, query)));
mount(router, r.connectPayout, async (c, { body }) => c.json(await connectPayoutAccount(ctxOf(c), body)));
mount(router, r.getPayout, async (c) => c.json(await getPayoutAccount(ctxOf(c))));

// Review (platform staff)
mount(router, r.listReview, async (c, { query }) => c.json(await listForReview(ctxOf(c), query)));
mount(router, r.getReview, async (c, { params }) => c.json(await getForReview(ctxOf(c), params.offeringId)));
mount(router, r.approveOffering, async (c, { params, body }) => c.json(await approveOffering(ctxOf(c), params.offeringId, body)));
mount(router, r.rejectOffering, async (c, { params, body }) => c.json(await rejectOffering(ctxOf(c), params.offeringId, body)));

// Operator
mount(router, r.listAvailable, async (c) => c.json(await listAvailableOfferings(ctxOf(c))));
mount(router, r.listEnablements, async (c, { query }) => c.json(await listEnablements(ctxOf(c), query)));
mount(router, r.enable, async (c, { body }) => c.json(await enableOffering(ctxOf(c), body), 201));
mount(router, r.disable, async (c, { params }) => c.json(await disableOffering(ctxOf(c), params.enablementId)));
mount(router, r.quote, async (c, { body }) => c.json(await quoteForOperator(ctxOf(c), body)));
mount(router, r.getQuote, async (c, { params }) => c.json(await getQuoteView(ctxOf(c), params.quoteId, 'operator')));
mount(router, r.answers, async (c, { params, body }) => c.json(await submitAnswers(ctxOf(c), params.quoteId, body.answers, 'operator')));
mount(router, r.accept, async (c, { params, body }) => c.json(await acceptPrice(ctxOf(c), params.quoteId, body.premium, 'operator')));
mount(router, r.checkout, async (c, { body }) => c.json(await checkoutWithCoverage(ctxOf(c), body, { source: 'operator' }), 201));
mount(router, r.listPolicies, async (c, { query }) => c.json(await policyList(ctxOf(c), query)));
mount(router, r.getPolicy, async (c, { params }) => c.json(await policyDetail(ctxOf(c), params.policyId)));
mount(router, r.bindNow, async (c, { params }) => {
  const ctx = ctxOf(c);
  await retryBind(ctx, params.policyId);
  const p = await policyDetail(ctx, params.policyId);
  const { amendments: _a, ...policy } = p;
  return c.json(policy);
});
mount(router, r.voidCoverage, async (c, { params, body }) => {
  const ctx = ctxOf(c);
  await voidPolicy(ctx, params.policyId, body);
  const { amendments: _a, ...policy } = await policyDetail(ctx, params.policyId);
  return c.json(policy);
});
mount(router, r.listFlags, async (c, { query }) => c.json(await flagList(ctxOf(c), query)));
mount(router, r.resolveFlag, async (c, { params, body }) => c.json(await resolveFlag(ctxOf(c), params.flagId, body.resolution)));

// Renter-facing (widget)
mount(router, r.publicQuote, async (c, { body }) => c.json(await quoteForWidget(ctxOf(c), body)));
mount(router, r.publicGetQuote, async (c, { params }) => c.json(await getQuoteView(ctxOf(c), params.quoteId, 'widget')));
mount(router, r.publicAnswers, async (c, { params, body }) => c.json(await submitAnswers(ctxOf(c), params.quoteId, body.answers, 'widget')));
mount(router, r.publicAccept, async (c, { params, body }) => c.json(await acceptPrice(ctxOf(c), params.quoteId, body.premium, 'widget')));
mount(router, r.publicCheckout, async (c, { body }) => {
  await limitAbuse(c, 'coverage-checkout', { operator: body.customerId, target: body.paymentMethodId });
  return c.json(await publicCheckout(ctxOf(c), body), 201);
});
mount(router, r.publicCoverage, async (c, { query }) => c.json(await publicCoverage(ctxOf(c), query.TransactionId)));

// Underwriter -> Berth
mount(router, r.message, async (c, { body }) => {
  const out = await requestMessage(ctxOf(c), body);
  return c.json(out.body, out.status);
});

router.openAPIRegistry.registerComponent('securitySchemes', 'UnderwriterSignature', {
  type: 'apiKey',
  in: 'header',
  name: 'X-Service-Signature',
  description: `Hex HMAC-SHA256 of \`{X-Service-Timestamp}.{raw body}\` with the offering signing secret, sent with \`X-Service-Timestamp\`
(Unix seconds, 300 s tolerance) and \`X-Service-Offering\`.`,
});

export default router;
