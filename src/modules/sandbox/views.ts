import type { z } from '@hono/zod-openapi';
import type { testClocks } from '../../db/schema/sandbox';
import type { TestClock } from './schemas';

export type TestClockRow = typeof testClocks.$inferSelect;

export function testClockOut(r: TestClockRow): z.output<typeof TestClock> {
  return {
    id: r.id,
    object: 'test_clock',
    name: r.name,
    status: r.status,
    frozenTime: r.frozenTime,
    targetTime: r.targetTime,
    customerId: r.operatorId,
    failure: r.failure ?? null,
    progress: r.progress ?? null,
    createdAt: r.createdAt,
  };
}
