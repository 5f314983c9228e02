import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.getCustomer, async (c) => c.json(svc.customerOut(await svc.getOwnCustomer(ctxOf(c)))));
mount(router, r.updateCustomer, async (c, { body }) => c.json(await svc.updateCustomer(ctxOf(c), body)));
mount(router, r.createCustomer, async (c, { body }) => c.json(await svc.createCustomer(ctxOf(c), body), 201));
mount(router, r.createStripeCustomer, async (c) => c.json(await svc.createPaymentCustomer(ctxOf(c))));
mount(router, r.addPaymentMethod, async (c, { body }) => c.json(await svc.addPaymentMethod(ctxOf(c), body.paymentMethodId)));
mount(router, r.createSetupIntent, async (c) => c.json(await svc.createSetupIntent(ctxOf(c))));
mount(router, r.listPaymentMethods, async (c) => c.json(await svc.listPaymentMethods(ctxOf(c))));
mount(router, r.getSubscription, async (c) => c.json(await svc.getSubscription(ctxOf(c))));
mount(router, r.cancelSubscription, async (c) => c.json(await svc.cancelSubscription(ctxOf(c))));
mount(router, r.reactivateSubscription, async (c) => c.json(await svc.reactivateSubscription(ctxOf(c))));

export default router;
