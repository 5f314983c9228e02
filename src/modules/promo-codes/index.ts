import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';
import { limitAbuse } from '../../lib/abuse';

const router = createRouter();

mount(router, r.listCodes, async (c, { query }) => c.json(await svc.listCodes(ctxOf(c), query)));
mount(router, r.createCode, async (c, { body }) => c.json(await svc.createCode(ctxOf(c), body), 201));
mount(router, r.updateCode, async (c, { body }) => c.json(await svc.updateCode(ctxOf(c), body)));
mount(router, r.deleteCode, async (c, { query }) => c.json(await svc.deleteCode(ctxOf(c), query)));
mount(router, r.searchCodes, async (c, { query }) => c.json(await svc.searchCodes(ctxOf(c), query)));
mount(router, r.balance, async (c, { query }) => c.json(await svc.balanceOf(ctxOf(c), query)));
mount(router, r.useCode, async (c, { body }) => c.json(await svc.useCode(ctxOf(c), body)));
mount(router, r.affiliateStats, async (c, { params, query }) => c.json(await svc.affiliateStats(ctxOf(c), params.affiliateId, query)));
mount(router, r.createIntent, async (c, { body }) => {
  await limitAbuse(c, 'gift-card-purchase', { operator: body.customerId, target: body.paymentMethodId ?? body.giftCardCode });
  return c.json(await svc.createGiftCardIntent(ctxOf(c), body));
});
mount(router, r.confirmPayment, async (c, { body }) => {
  const out = await svc.confirmGiftCardPayment(ctxOf(c), body);
  return c.json(out, out.created ? 201 : 200);
});
mount(router, r.webhook, async (c) => c.json(await svc.giftCardWebhook(ctxOf(c), await c.req.text(), c.req.header('stripe-signature'))));
mount(router, r.sendEmail, async (c, { body }) => {
  await limitAbuse(c, 'gift-card-email', { operator: body.customerId, target: body.giftCardCode });
  return c.json(await svc.sendGiftCardEmail(ctxOf(c), body));
});
mount(router, r.chargeSavedCard, async (c, { body }) => {
  await limitAbuse(c, 'gift-card-saved-card', { operator: body.customerId, target: body.paymentMethodId });
  return c.json(await svc.chargeSavedCard(ctxOf(c), body));
});

export default router;
