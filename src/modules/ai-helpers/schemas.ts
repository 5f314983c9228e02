import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';

const AI_REQUESTS = ['emailEnhancement', 'socialMediaPost', 'bookingSidekick', 'businessAudit'] as const;

const url = () => z.string().trim().min(1).max(2048).openapi({ example: 'https://www.example-marina.com/boats' });
/** A document: base64 (or a data: URL) or an http(s) URL; 5 MiB at most once decoded. */
const document = () =>
  z
    .string()
    .min(1)
    .max(7_200_000)
    .openapi({ description: 'Base64 (optionally a `data:` URL) or an http(s) URL; at most 5 MiB once decoded', example: 'data:text/plain;base64,...' });

export const AssistBody = z
  .object({
    what: z.enum(AI_REQUESTS).openapi({ description: `The helper: ${AI_REQUESTS.join(', ')}` }),
    message: z.string().max(20_000).optional().openapi({ description: 'The e-mail to improve, the question, or the topic' }),
    prompt: z.string().max(4000).optional().openapi({ description: 'What a social media post is about' }),
    businessName: z.string().trim().max(200).optional(),
    businessType: z.string().trim().max(100).optional().openapi({ example: 'boat rental' }),
    businessLocation: z.string().trim().max(200).optional().openapi({ example: 'Miami, FL' }),
    bookings: z.array(z.record(z.string(), z.unknown())).max(500).optional().openapi({ description: 'Bookings the sidekick answers about' }),
    websiteUrl: z.string().trim().max(2048).optional(),
    businessData: z.record(z.string(), z.unknown()).optional().openapi({ description: 'rating, reviewCount, hasOnlineBooking, socialLinks, photoCount, ...' }),
  })
  .openapi('AiRequest');

export const AiAnswer = z
  .object({
    what: z.enum(AI_REQUESTS),
    status: z.enum(['answered', 'cannot_answer']),
    result: z.string().openapi({ description: 'The text (e-mail, post, answer or review)' }),
    reason: z.string().nullable().openapi({ description: 'Why it cannot be answered (null when answered)' }),
    source: z.enum(['model', 'rules']).openapi({ description: '`model` when Workers AI wrote it, `rules` when the deterministic rules did' }),
    model: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).openapi({ description: 'Per helper: the changes made, hashtags, the findings and score, ...' }),
  })
  .openapi('AiAnswer');

export const AuditBody = z
  .object({
    websiteUrl: url(),
    businessData: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('BusinessAuditRequest');

const Finding = z.object({ check: z.string(), status: z.enum(['pass', 'warn', 'fail']), message: z.string() }).openapi('AuditFinding');

export const BusinessAudit = z
  .object({
    auditId: z.string(),
    websiteUrl: z.string(),
    finalUrl: z.string(),
    score: z.number().int().openapi({ description: '0 to 100' }),
    amount: z.number().openapi({ description: 'Dollars charged (4.99)' }),
    amountCents: z.number().int(),
    currency: z.string(),
    paymentIntentId: z.string(),
    createdAt: z.string(),
    report: z.object({
      summary: z.string(),
      summarySource: z.enum(['model', 'rules']),
      findings: z.array(Finding),
      page: z.object({
        url: z.string(),
        redirects: z.array(z.string()),
        bytes: z.number().int(),
        ms: z.number().int(),
        title: z.string().nullable(),
        description: z.string().nullable(),
      }),
      businessData: z.record(z.string(), z.unknown()).nullable(),
    }),
  })
  .openapi('BusinessAudit');

export const AuditChargeList = z
  .object({
    data: z.array(BusinessAudit.omit({ report: true }).openapi('BusinessAuditCharge')),
    total: z.number().int(),
    totalChargedCents: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi('BusinessAuditCharges');

export const ListQuery = z.object({ limit: zLimit(100, 50), offset: zOffset() });

export const ReceiptBody = z.object({ receiptImage: document() }).openapi('ReceiptRequest');
export const ValidateReceiptBody = z
  .object({
    receiptImage: document(),
    inputData: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'What the receipt should show: total (or amount), date, merchant (or vendor), currency' }),
  })
  .openapi('ValidateReceiptRequest');

const ReceiptLineOut = z.object({ description: z.string(), quantity: z.number().nullable(), amountCents: z.number().int(), amount: z.number() });

export const ReceiptData = z
  .object({
    status: z.enum(['extracted', 'partial', 'not_found', 'not_analysed']),
    method: z.enum(['structured_data', 'text_rules', 'pdf_text', 'vision_model', 'none']),
    source: z.enum(['rules', 'model']),
    merchant: z.string().nullable(),
    date: z.string().nullable(),
    currency: z.string().nullable(),
    total: z.number().nullable(),
    totalCents: z.number().int().nullable(),
    subtotalCents: z.number().int().nullable(),
    taxCents: z.number().int().nullable(),
    tipCents: z.number().int().nullable(),
    lines: z.array(ReceiptLineOut),
    missing: z.array(z.string()).openapi({ description: 'Fields the document did not show' }),
    reason: z.string().nullable(),
  })
  .openapi('ReceiptData');

export const ReceiptValidation = z
  .object({
    valid: z.boolean().nullable().openapi({ description: 'null when nothing could be compared' }),
    status: z.enum(['valid', 'invalid', 'unverifiable']),
    checks: z.array(z.object({ field: z.string(), expected: z.unknown(), found: z.unknown(), match: z.boolean().nullable() })),
    message: z.string(),
    receipt: ReceiptData,
  })
  .openapi('ReceiptValidation');

export const LicenseBody = z.object({ image: document() }).openapi('LicenseRequest');

export const LicenseData = z
  .object({
    status: z.enum(['extracted', 'partial', 'not_found', 'not_analysed']),
    method: z.enum(['barcode_aamva', 'mrz', 'vision_model', 'none']),
    source: z.enum(['rules', 'model']),
    name: z.object({ first: z.string().nullable(), middle: z.string().nullable(), last: z.string().nullable(), full: z.string().nullable() }),
    number: z.string().nullable(),
    expiry: z.string().nullable(),
    dateOfBirth: z.string().nullable(),
    issuer: z.string().nullable(),
    documentType: z.string().nullable(),
    expired: z.boolean().nullable(),
    missing: z.array(z.string()),
    reason: z.string().nullable(),
  })
  .openapi('LicenseData');

export const ScrapeBody = z.object({ url: url() }).openapi('ScrapeInventoryRequest');

export const DraftItem = z
  .object({
    name: z.string(),
    type: z.enum(['rental', 'tour']),
    description: z.string().nullable(),
    price: z.number().nullable().openapi({ description: 'As the page states it (in `currency`)' }),
    priceCents: z.number().int().nullable(),
    priceUnit: z.enum(['hour', 'half_day', 'day', 'week', 'person', 'trip']).nullable(),
    currency: z.string().nullable(),
    capacity: z.number().int().nullable(),
    lengthFt: z.number().nullable(),
    images: z.array(z.string()),
    confidence: z.enum(['structured_data', 'page_text']),
    evidence: z.string().openapi({ description: 'Where on the page the draft comes from' }),
  })
  .openapi('DraftInventoryItem');

export const ScrapeResult = z
  .object({
    url: z.string(),
    finalUrl: z.string(),
    title: z.string().nullable(),
    items: z.array(DraftItem),
    counts: z.object({ structuredData: z.number().int(), pageText: z.number().int() }),
    notes: z.string(),
  })
  .openapi('ScrapedInventory');

export const ProxyQuery = z.object({ url: url() });
