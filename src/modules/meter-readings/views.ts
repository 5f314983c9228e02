import type { z } from '@hono/zod-openapi';
import type { meterReadings } from '../../db/schema/meter-readings';
import type * as s from './schemas';
import { UTILITY_UNIT, type FlagReason } from './types';

export type ReadingRow = typeof meterReadings.$inferSelect;

export function readingOut(m: ReadingRow): z.output<typeof s.Reading> {
  return {
    id: m.id,
    customerId: m.customerId,
    locationId: m.locationId,
    slipId: m.slipId,
    utility: m.utility,
    unit: UTILITY_UNIT[m.utility],
    meterId: m.meterId,
    reading: m.reading,
    digits: m.digits,
    readAt: m.readAt,
    previousReadingId: m.previousReadingId,
    previousValue: m.previousValue,
    usage: m.usage,
    rollover: m.rollover,
    flagged: m.flagged,
    flagReasons: m.flagReasons as FlagReason[],
    reviewedAt: m.reviewedAt,
    reviewedBy: m.reviewedBy,
    billed: m.billed,
    billedAt: m.billedAt,
    billingId: m.billingId,
    billingReference: m.billingReference,
    reservationId: m.reservationId,
    chargedCents: m.chargedCents,
    notes: m.notes,
    readBy: m.readBy,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}
