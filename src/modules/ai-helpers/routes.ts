import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['AI helpers'];

const AI = `Through the AI port: Workers AI when the \`AI\` binding is configured, else deterministic rules (also the fallback when a
model's answer is refused); \`source\` says which wrote the answer.`;
const FETCH = `Pages and images given by URL are fetched with the safe public fetch: http or https only, no credentials in the URL, default
ports, every address of the host (IP literal or DNS answer) public (loopback, private, link-local and metadata, CGNAT, reserved and embedded-IPv4
forms refused), at most 3 redirects each checked again, the content type checked, size and time capped; a refused or unreadable URL answers 400.`;
const DOCUMENT = `The document is base64 (optionally a \`data:\` URL), an http(s) URL, or the text itself; its type is sniffed from its bytes.
${FETCH}`;

export const assist = route({
  method: 'post',
  path: '/ai',
  operationId: 'runAiHelper',
  tags,
  summary: 'E-mail enhancement, social media post, booking sidekick or quick business review',
  body: s.AssistBody,
  ok: s.AiAnswer,
  errors: [403],
  description: `\`what\` picks the helper (any other value answers 400 with the allowed list):

- \`emailEnhancement\`: the e-mail in \`message\` (required), tidied: spacing, repeated punctuation, shouting, sentence capitals, a greeting and a
  sign-off with \`businessName\` when missing; \`details.changes\` lists what changed. A model may reword it but may state no amount the e-mail
  does not.
- \`socialMediaPost\`: a post about \`prompt\` (or \`message\`) for \`businessName\` in \`businessLocation\`, with hashtags made only from the
  business type, location and name.
- \`bookingSidekick\`: answers \`message\` (required) about the \`bookings\` given (how many, by day words or status; the next one; their total
  value; who booked); anything else answers \`status: cannot_answer\` with the reason. Days are the caller's first location's.
- \`businessAudit\`: a quick review of \`businessData\` (rating, reviewCount, hasOnlineBooking, socialLinks, photoCount, websiteUrl); values not
  given are reported as not given. Free; the audit that reads the website is \`POST /ai/business-audit\`.

${AI}`,
});

export const businessAudit = route({
  method: 'post',
  path: '/ai/business-audit',
  operationId: 'createBusinessAudit',
  tags,
  summary: "Audit the operator's website (charged 4.99 dollars per audit)",
  body: s.AuditBody,
  ok: s.BusinessAudit,
  errors: [402, 403, 404],
  idempotent: true,
  description: `Reads \`websiteUrl\` and checks what renters and search engines see (https, title, description, mobile viewport, main heading,
image descriptions, contact links, a way to book online, structured business data, social profiles, page weight, answer time, language,
sharing previews), scores it 0-100 and summarizes what to fix first. Charged 4.99 dollars to the account's default card through the payments
service; the audit, its charge and \`payment.completed\` are recorded together.

Needs the \`payments\` permission. 403 \`integration_not_enabled\` unless the account's \`integrations.businessAudit.enabled\` is true (PATCH
/customer); 404 when the account has no card on file; 400 when the page cannot be read (nothing is charged); 402 when the card is declined.
Honours \`Idempotency-Key\`. ${FETCH}`,
});

export const auditBilling = route({
  method: 'get',
  path: '/ai/business-audit/billing',
  operationId: 'listBusinessAuditCharges',
  tags,
  summary: 'The business audits charged to the account',
  query: s.ListQuery,
  ok: s.AuditChargeList,
  description: `Every paid audit of the caller's account, newest first (\`limit\` default 50, at most 100, \`offset\`), with what was charged
and the total charged (\`totalChargedCents\`). Reports are read with the audit; this list carries the charges.`,
});

export const validateReceipt = route({
  method: 'post',
  path: '/ai/validate-receipt',
  operationId: 'validateReceipt',
  tags,
  summary: 'Read a receipt and compare it with what it should show',
  body: s.ValidateReceiptBody,
  ok: s.ReceiptValidation,
  bodyLimit: 8 * 1024 * 1024,
  description: `Reads the receipt as \`POST /ai/extract-receipt-data\` does and compares it with \`inputData\` (total or amount within a cent,
date, merchant or vendor, currency). \`valid\` is true when every value that could be compared matches, false when one differs, null when none
could be compared (the receipt did not show them, or \`inputData\` gave none). ${DOCUMENT}`,
});

export const extractReceiptData = route({
  method: 'post',
  path: '/ai/extract-receipt-data',
  operationId: 'extractReceiptData',
  tags,
  summary: 'Read the total, date, merchant and lines of a receipt',
  body: s.ReceiptBody,
  ok: s.ReceiptData,
  bodyLimit: 8 * 1024 * 1024,
  description: `Read offline: structured data (a JSON receipt or a schema.org Invoice/Order), text receipts and HTML e-receipts, and the text of
PDFs (merchant, date, line items, subtotal, tax, tip, total, currency). Images are read by Workers AI vision when configured; otherwise
\`status: not_analysed\` and nothing is read from them. Nothing is invented: values not found are null and listed in \`missing\`. Amounts in
cents. ${DOCUMENT}`,
});

export const proxyPage = route({
  method: 'get',
  path: '/ai/proxy-page',
  operationId: 'proxyPage',
  tags,
  summary: "A public page's HTML with every script removed and the selection script added",
  query: s.ProxyQuery,
  produces: 'text/html',
  description: `For picking items on a website: the page at \`url\` with every script of it removed (script elements, inline event handlers,
\`javascript:\` URLs, frames, objects, embeds, refresh and CSP meta tags, script preloads), a \`<base>\` so its links and images resolve to the
site, and Berth's selection script, which outlines the element under the pointer and, on click, posts \`{type: 'berth:select', selector, text,
tag, href, src}\` to the parent window instead of following links (\`{type: 'berth:highlight', selector}\` sent to it outlines an element). The
Content-Security-Policy (header, sandboxed, and a meta tag so it also holds in an \`iframe srcdoc\`) lets only that script run. Fetch it with
your credentials and show it in a sandboxed iframe. ${FETCH}`,
});

export const scrapeInventory = route({
  method: 'post',
  path: '/ai/scrape-inventory',
  operationId: 'scrapeInventory',
  tags,
  summary: 'Draft inventory items from a public web page of boats',
  body: s.ScrapeBody,
  ok: s.ScrapeResult,
  description: `Reads the page at \`url\` and answers draft items for review (nothing is created): first its structured data (schema.org Product,
Vehicle, Boat, Offer, Service, TouristTrip), then its sections (a heading with a boat or tour and a price: "$350 per half day", "up to 8
guests", "24 ft"). Each draft says where it came from (\`confidence\`, \`evidence\`); what the page does not state is null. Create the ones you
keep with \`POST /inventory/setup\`. 401 without operator credentials. ${FETCH}`,
});

export const extractLicense = route({
  method: 'post',
  path: '/ai/extract-license',
  operationId: 'extractLicense',
  tags,
  summary: 'Read the name, number, expiry and date of birth of a driving licence',
  body: s.LicenseBody,
  ok: s.LicenseData,
  bodyLimit: 8 * 1024 * 1024,
  description: `Read offline: the barcode payload of North American licences (AAMVA PDF417 text, as a scanner reads it) and machine-readable zones
of passports and ID cards (MRZ, check digits verified; a zone that fails them is not read). Photos are read by Workers AI vision when
configured; otherwise \`status: not_analysed\`, nothing guessed. \`expired\` compares the expiry with today. ${DOCUMENT}`,
});
