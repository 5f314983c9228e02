import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import { defineModule } from '../lib/module';
import { benchRoutes } from './bench';
import { devRoutes } from './seed-route';

const router = new Hono<AppEnv>();
router.route('/', devRoutes);
router.route('/', benchRoutes);

/** Development-only routes, mounted by src/dev.ts alone. */
export const devModule = defineModule({ name: 'dev', router });
