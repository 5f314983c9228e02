import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import { ApiError } from '../lib/errors';
import { timingSafeEqual } from '../lib/crypto';
import { seedSandbox } from '../seed';

/** POST /__dev/seed: in the development entry point only, guarded by DEV_SEED_TOKEN; `npm start` calls it. Not part of the API. */
export const devRoutes = new Hono<AppEnv>();

devRoutes.post('/__dev/seed', async (c) => {
  const token = c.req.header('x-seed-token') ?? '';
  if (!c.env.DEV_SEED_TOKEN || !timingSafeEqual(token, c.env.DEV_SEED_TOKEN)) throw new ApiError('unauthenticated', 'Invalid seed token');
  return c.json({ seeded: await seedSandbox(c.env) });
});
