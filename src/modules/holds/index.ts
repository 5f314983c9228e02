import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.hold, async (c, { body }) => {
  const { hold, created } = await svc.holdAsset(ctxOf(c), body);
  return c.json({ ...hold, created }, created ? 201 : 200);
});

export default router;
