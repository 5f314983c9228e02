import { eq } from 'drizzle-orm';
import type { Env } from '../env';
import type { SeedStep } from './types';
import { getDb } from '../db/client';
import { channelConnections, channelKeys } from '../db/schema/channel';
import { sha256Hex } from '../lib/crypto';
import { keyRow } from '../modules/channel/service';

export const DEMO_RESELLER_CONNECTION = 'con_demo_reseller';

/** A partner of Demo Marina holding the sandbox channel key DEMO_CHANNEL_TEST_KEY (a single-operator test key). */
async function seedChannel(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  let wrote = false;
  const existing = await db.select({ id: channelConnections.id }).from(channelConnections).where(eq(channelConnections.id, DEMO_RESELLER_CONNECTION)).get();
  if (!existing) {
    await db.insert(channelConnections).values({
      id: DEMO_RESELLER_CONNECTION,
      customerId: 'cus_demo_marina',
      kind: 'single',
      name: 'Demo Reseller',
      commissionRate: 15,
      offerAllInventory: true,
      status: 'active',
    });
    wrote = true;
  }
  const secret = env.DEMO_CHANNEL_TEST_KEY;
  if (secret) {
    const hash = await sha256Hex(secret);
    if (!(await db.select({ id: channelKeys.id }).from(channelKeys).where(eq(channelKeys.keyHash, hash)).get())) {
      await db.insert(channelKeys).values(await keyRow(secret, { connectionId: DEMO_RESELLER_CONNECTION }));
      wrote = true;
    }
  }
  return wrote;
}

export const channelSeed: SeedStep = { name: 'channel', run: seedChannel };
