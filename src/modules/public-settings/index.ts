import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import * as r from './routes';
import { chatMessaging, customCode, publicSettings, socialConversion, tagManager, videoPixel } from './service';

const router = createRouter();

/** 200 with the value, or 204 without a body when it is not configured. */
const orNoContent = (c: Context<AppEnv>, v: object | null) => (v ? c.json(v) : c.body(null, 204));

mount(router, r.publicSettings, async (c, { params }) => c.json(await publicSettings(ctxOf(c), params.customerId)));
mount(router, r.customCode, async (c, { query }) => orNoContent(c, await customCode(ctxOf(c), query.customerId)));
mount(router, r.tagManager, async (c, { query }) => orNoContent(c, await tagManager(ctxOf(c), query.customerId)));
mount(router, r.socialConversion, async (c, { query }) => orNoContent(c, await socialConversion(ctxOf(c), query.customerId)));
mount(router, r.videoPixel, async (c, { query }) => orNoContent(c, await videoPixel(ctxOf(c), query.customerId)));
mount(router, r.chatMessaging, async (c, { query }) => c.json(await chatMessaging(ctxOf(c), query.customerId)));

export default router;
