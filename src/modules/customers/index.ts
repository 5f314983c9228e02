import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { getOwnCustomer } from './queries';
import {
  addPaymentMethod,
  cancelSubscription,
  createCustomer,
  createPaymentCustomer,
  createSetupIntent,
  getSubscription,
  listPaymentMethods,
  reactivateSubscription,
  updateCustomer,
} from './service';
import { customerOut } from './views';

const router = createRouter();

mount(router, r.getCustomer, async (c) => c.json(customerOut(await getOwnCustomer(ctxOf(c)))));
mount(router, r.updateCustomer, async (c, { body }) => c.json(await updateCustomer(ctxOf(c), body)));
mount(router, r.createCustomer, async (c, { body }) => c.json(await createCustomer(ctxOf(c), body), 201));
mount(router, r.createStripeCustomer, async (c) => c.json(await createPaymentCustomer(ctxOf(c))));
mount(router, r.addPaymentMethod, async (c, { body }) => c.json(await addPaymentMethod(ctxOf(c), body.paymentMethodId)));
mount(router, r.createSetupIntent, async (c) => c.json(await createSetupIntent(ctxOf(c))));
mount(router, r.listPaymentMethods, async (c) => c.json(await listPaymentMethods(ctxOf(c))));
mount(router, r.getSubscription, async (c) => c.json(await getSubscription(ctxOf(c))));
mount(router, r.cancelSubscription, async (c) => c.json(await cancelSubscription(ctxOf(c))));
mount(router, r.reactivateSubscription, async (c) => c.json(await reactivateSubscription(ctxOf(c))));

export default router;
