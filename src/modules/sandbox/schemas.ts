import { z } from '@hono/zod-openapi';
import { zId, zLimit, zOffset } from '../../lib/openapi';

const instant = () => z.string().datetime({ offset: true }).openapi({ example: '2027-01-15T09:00:00-05:00', description: 'ISO 8601 with a UTC offset (or Z)' });

export const TestClock = z
  .object({
    id: z.string().openapi({ example: 'clk_01JF3Q9V7N2W8K4T6Y1R5M0A3B' }),
    object: z.literal('test_clock'),
    name: z.string().nullable(),
    status: z.enum(['ready', 'advancing', 'failed']).openapi({
      description: '`advancing` while scheduled work between the old and the new time runs; `ready` when all of it ran; `failed` when a job failed part way',
    }),
    frozenTime: z.string().openapi({ description: 'The operator\'s "now" (UTC): during an advance, the last instant fully processed' }),
    targetTime: z.string().nullable().openapi({ description: 'Where the running advance goes; null when none runs' }),
    customerId: z.string().openapi({ description: "The clock's private sandbox operator (its id starts with `cus_tclk_`)" }),
    failure: z
      .object({ job: z.string(), at: z.string(), error: z.string() })
      .nullable()
      .openapi({ description: 'The last advance that stopped part way: the job that failed, the instant it ran at, the error' }),
    progress: z
      .object({ steps: z.number().int(), ran: z.record(z.string(), z.number().int()) })
      .nullable()
      .openapi({ description: 'Of the last advance: the steps taken and, per job, the steps at which it did work' }),
    createdAt: z.string(),
  })
  .openapi('TestClock');

export const CreatedTestClock = TestClock.extend({
  apiKey: z.string().openapi({ description: "An admin API key of the clock's operator, shown once", example: 'brk_…' }),
}).openapi('CreatedTestClock');

export const CreateBody = z
  .object({
    frozenTime: instant(),
    name: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .openapi('CreateTestClock');

export const AdvanceBody = z.object({ frozenTime: instant() }).strict().openapi('AdvanceTestClock');

export const IdParams = z.object({ id: zId('clk_01JF3Q9V7N2W8K4T6Y1R5M0A3B') });

export const ListQuery = z.object({ limit: zLimit(100, 20), offset: zOffset() });

export const TestClockList = z
  .object({ data: z.array(TestClock), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('TestClockList');

export const Deleted = z.object({ id: z.string(), object: z.literal('test_clock'), deleted: z.literal(true) }).openapi('DeletedTestClock');
