import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

export const RentalParams = z.object({ rentalId: zId('bk_01J0000000000000000000000') });

export const PassData = z
  .object({
    rentalId: z.string(),
    reference: z.string().openapi({ description: "The booking's one public reference (its id), as the e-mails and the manage page show it" }),
    transactionId: z.string(),
    status: z.string(),
    businessName: z.string(),
    itemName: z.string(),
    locationName: z.string(),
    address: z.string(),
    phoneNumber: z.string(),
    coordinates: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
    timezone: z.string().openapi({ description: "The location's IANA zone; the local date and times are in it" }),
    localDate: z.string(),
    localStartTime: z.string(),
    localEndTime: z.string(),
    when: z.string().openapi({ description: "The date and times as people read them, in the location's zone", example: 'Sat 12 Dec 2026, 10:00–14:00 EST' }),
    startTime: z.string(),
    endTime: z.string(),
    validUntil: z.string().openapi({ description: 'The check-in code is valid until then (a day after the booking ends)' }),
    renterName: z.string().openapi({ description: 'First name and last initial' }),
    partySize: z.number().int(),
    color: z.string(),
    barcode: z.object({
      format: z.literal('QR'),
      message: z.string().openapi({ description: 'The signed check-in code the QR code encodes' }),
      svg: z.string().openapi({ description: 'The QR code as an SVG document' }),
    }),
    download: z.object({
      available: z.boolean().openapi({ description: 'false when the pass certificates are not configured (the download answers 501)' }),
      url: z.string(),
      contentType: z.literal('application/vnd.apple.pkpass'),
    }),
  })
  .openapi('WalletPass');

export const SaveLink = z
  .object({
    rentalId: z.string(),
    provider: z.enum(['google_wallet', 'berth']).openapi({ description: "google_wallet when configured, else Berth's own pass page" }),
    configured: z.boolean(),
    saveUrl: z.string(),
  })
  .openapi('WalletSaveLink');

export const ScanBody = z
  .object({
    token: z
      .string()
      .trim()
      .min(10)
      .max(300)
      .openapi({ description: "The text of the pass's QR code", example: 'bci1.bk_01J0000000000000000000000.1893456000.AbCdEfGhIjKlMnOpQrStUv' }),
    notes: z.string().trim().max(500).optional(),
  })
  .openapi('ScanCheckIn');

export const ScanResult = z
  .object({
    rentalId: z.string(),
    transactionId: z.string(),
    status: z.string(),
    alreadyCheckedIn: z.boolean(),
    checkedInAt: z.string().nullable(),
  })
  .openapi('ScanCheckInResult');
