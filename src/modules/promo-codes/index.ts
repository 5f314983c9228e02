import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { balanceOf, createCode, deleteCode, listCodes, searchCodes, updateCode } from './codes';
import { chargeSavedCard, confirmGiftCardPayment, createGiftCardIntent, giftCardWebhook, sendGiftCardEmail } from './purchase';
import { affiliateStats, useCode } from './use';
import { limitAbuse } from '../../lib/abuse';

const router = createRouter();

mount(router, r.listCodes, async (c, { query }) => c.json(await listCodes(ctxOf(c), query)));
mount(router, r.createCode, async (c, { body }) => c.json(await createCode(ctxOf(c), body), 201));
mount(router, r.updateCode, async (c, { body }) => c.json(await updateCode(ctxOf(c), body)));
mount(router, r.deleteCode, async (c, { query }) => c.json(await deleteCode(ctxOf(c), query)));
mount(router, r.searchCodes, async (c, { query }) => c.json(await searchCodes(ctxOf(c), query)));
mount(router, r.balance, async (c, { query }) => c.json(await balanceOf(ctxOf(c), query)));
mount(router, r.useCode, async (c, { body }) => c.json(await useCode(ctxOf(c), body)));
mount(router, r.affiliateStats, async (c, { params, query }) => c.json(await affiliateStats(ctxOf(c), params.affiliateId, query)));
mount(router, r.createIntent, async (c, { body }) => {
  await limitAbuse(c, 'gift-card-purchase', { operator: body.customerId, target: body.paymentMethodId ?? body.giftCardCode });
  return c.json(await createGiftCardIntent(ctxOf(c), body));
});
mount(router, r.confirmPayment, async (c, { body }) => {
  const out = await confirmGiftCardPayment(ctxOf(c), body);
  return c.json(out, out.created ? 201 : 200);
});
mount(router, r.webhook, async (c) => c.json(await giftCardWebhook(ctxOf(c), await c.req.text(), c.req.header('stripe-signature'))));
mount(router, r.sendEmail, async (c, { body }) => {
  await limitAbuse(c, 'gift-card-email', { operator: body.customerId, target: body.giftCardCode });
  return c.json(await sendGiftCardEmail(ctxOf(c), body));
});
mount(router, r.chargeSavedCard, async (c, { body }) => {
  await limitAbuse(c, 'gift-card-saved-card', { operator: body.customerId, target: body.paymentMethodId });
  return c.json(await chargeSavedCard(ctxOf(c), body));
});

export default router;
