/**
 * `POST /ai/business-audit` (4.99 dollars per audit) and `GET /ai/business-audit/billing`.
 *
 * The audit reads the operator's website through the safe public fetch and checks what renters and
 * search engines see: https, title and description, mobile viewport, one main heading, image
 * descriptions, contact links, an online booking path, structured business data, social profiles,
 * page weight and answer time, language and sharing previews. The AI port writes the summary from
 * those findings (the rules write it offline). Order of the checks: the `payments` permission, the
 * integration (403 when `integrations.businessAudit.enabled` is not true), a card on file (404),
 * the page (400 when it cannot be read: nothing is charged), then the charge through the payments
 * service (402 when declined), recorded with the report and `payment.completed` in one batch.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { ai, answered } from '../../adapters/ai';
import { fetchPublic } from '../../adapters/http';
import { PaymentError } from '../../adapters/payments';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso, stopwatch } from '../../lib/clock';
import { aiBusinessAudits } from '../../db/schema/ai-helpers';
import { getOwnCustomer, listPaymentMethods } from '../customers/service';
import { collectPayment } from '../payments/service';
import { aiErrors } from './errors';
import { pageFacts, type PageFacts } from './html';
import { auditOut } from './views';

/** Spec, Limits: 4.99 dollars per audit. */
export const AUDIT_PRICE_CENTS = 499;

export interface AuditFinding {
  check: string;
  status: 'pass' | 'warn' | 'fail';
  message: string;
}

const SOCIAL = /(facebook\.com|instagram\.com|tiktok\.com|youtube\.com|twitter\.com|x\.com|linkedin\.com|tripadvisor\.)/i;
const BOOKING = /\b(book now|book online|reserve|reservations?|check availability|book a (boat|tour|rental))\b/i;

export function auditChecks(f: PageFacts, page: { url: string; bytes: number; ms: number }): AuditFinding[] {
  const out: AuditFinding[] = [];
  const add = (check: string, ok: boolean | 'warn', pass: string, fix: string) =>
    out.push({ check, status: ok === 'warn' ? 'warn' : ok ? 'pass' : 'fail', message: ok === true ? pass : fix });
  add('https', page.url.startsWith('https://'), 'The site is served over https.', 'Serve the site over https: browsers mark plain http as not secure.');
  const t = f.title ?? '';
  add(
    'title',
    !t ? false : t.length < 10 || t.length > 70 ? 'warn' : true,
    `Title: "${t}".`,
    t ? `The title is ${t.length} characters; 10 to 70 show fully in search results.` : 'The page has no title.',
  );
  const d = f.description ?? '';
  add(
    'description',
    !d ? false : d.length < 50 || d.length > 160 ? 'warn' : true,
    'The meta description has a good length.',
    d ? `The meta description is ${d.length} characters; 50 to 160 read best in search results.` : 'Add a meta description (what you rent, where).',
  );
  add('mobile', f.viewport, 'The page is set up for phones (viewport).', 'Add a viewport meta tag: most renters book on a phone.');
  const h1 = f.headings.filter((h) => h.level === 1).length;
  add('main_heading', h1 === 1 ? true : h1 === 0 ? false : 'warn', 'One main heading.', h1 ? `${h1} main headings; use one.` : 'Add one main heading (h1).');
  const missingAlt = f.images.filter((i) => !i.alt || !i.alt.trim()).length;
  add(
    'image_descriptions',
    !f.images.length ? 'warn' : missingAlt / f.images.length <= 0.1 ? true : 'warn',
    `${f.images.length} images, described.`,
    f.images.length ? `${missingAlt} of ${f.images.length} images have no description (alt).` : 'No images: show your boats.',
  );
  const phone = f.links.some((l) => /^tel:/i.test(l)) || /\+?\d[\d ().-]{8,}\d/.test(f.text);
  const mail = f.links.some((l) => /^mailto:/i.test(l));
  add(
    'contact',
    phone && mail ? true : phone || mail ? 'warn' : false,
    'A phone number and an e-mail link.',
    phone ? 'Add an e-mail link.' : mail ? 'Show a phone number (a tap-to-call link).' : 'No phone number or e-mail link found.',
  );
  const bookable = BOOKING.test(f.text) || f.links.some((l) => /book|reserv|widget/i.test(l));
  add('online_booking', bookable, 'Renters can find a way to book.', 'No way to book online found: add the booking widget.');
  const types = f.jsonLd.flatMap((x) => {
    const t2 = (x as { '@type'?: unknown })?.['@type'];
    return Array.isArray(t2) ? t2.map(String) : t2 ? [String(t2)] : [];
  });
  add(
    'structured_data',
    types.some((x) => /LocalBusiness|Organization|Store|Product|TouristTrip|BoatRental|Rental/i.test(x)),
    `Structured data: ${types.join(', ')}.`,
    'Add structured data (schema.org LocalBusiness) so search engines show hours, location and reviews.',
  );
  const social = [...new Set(f.links.filter((l) => SOCIAL.test(l)).map((l) => new URL(l).hostname.replace(/^www\./, '')))];
  add(
    'social_profiles',
    social.length >= 2 ? true : social.length ? 'warn' : false,
    `Links to ${social.join(', ')}.`,
    social.length ? 'Link more social profiles.' : 'No links to social profiles.',
  );
  add(
    'page_weight',
    page.bytes <= 1_500_000 ? true : 'warn',
    `The page is ${Math.round(page.bytes / 1024)} KiB.`,
    `The page is ${Math.round(page.bytes / 1024)} KiB of HTML; keep it light for phones.`,
  );
  add('speed', page.ms <= 2000 ? true : 'warn', `The page answered in ${page.ms} ms.`, `The page took ${page.ms} ms to answer.`);
  add('language', Boolean(f.lang), `Language: ${f.lang}.`, 'Declare the page language (lang).');
  add(
    'sharing_preview',
    Boolean(f.og['og:title'] && f.og['og:image']),
    'Links shared on social media show a preview.',
    'Add og:title and og:image for link previews.',
  );
  return out;
}

export const scoreOf = (findings: AuditFinding[]) =>
  Math.round((100 * findings.reduce((s, x) => s + (x.status === 'pass' ? 1 : x.status === 'warn' ? 0.5 : 0), 0)) / findings.length);

function integrationEnabled(integrations: Record<string, unknown> | null | undefined): boolean {
  const v = integrations?.businessAudit;
  return v === true || (typeof v === 'object' && v !== null && (v as { enabled?: unknown }).enabled === true);
}

export async function businessAudit(ctx: Ctx, input: { websiteUrl: string; businessData?: Record<string, unknown> }) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'payments');
  const customer = await getOwnCustomer(ctx);
  if (!integrationEnabled(customer.integrations))
    throw aiErrors.fail('integration_not_enabled', 'The business audit is not enabled: set integrations.businessAudit.enabled with PATCH /customer');
  const cards = customer.paymentCustomerId ? (await listPaymentMethods(ctx)).data : [];
  const card = cards.find((c) => c.isDefault) ?? cards[0];
  if (!card || !customer.paymentCustomerId)
    throw new ApiError('not_found', 'No payment method on file to charge the audit to: add one with POST /customer/payment-method');

  const elapsed = stopwatch(); // how long the page took to load: real time
  const page = await fetchPublic(ctx.env, input.websiteUrl, { field: 'websiteUrl', accept: ['text/html', 'application/xhtml+xml'], maxBytes: 3 * 1024 * 1024 });
  const ms = elapsed();
  const html = new TextDecoder().decode(page.body);
  const facts = await pageFacts(html, page.url);
  const findings = auditChecks(facts, { url: page.url, bytes: page.body.byteLength, ms });
  const score = scoreOf(findings);
  const name = typeof input.businessData?.businessName === 'string' ? input.businessData.businessName : (customer.businessName ?? customer.name);
  const strengths = findings.filter((x) => x.status === 'pass').map((x) => x.check.replace(/_/g, ' '));
  const fixes = findings.filter((x) => x.status !== 'pass');
  const rulesSummary = `${name}: ${score}/100. ${strengths.length ? `Good: ${strengths.join(', ')}.` : ''} ${
    fixes.length ? `Fix first: ${fixes.map((x) => x.message).join(' ')}` : 'Nothing to fix.'
  }`.trim();
  const summary = await ai(ctx.env).answer({
    type: 'business_audit',
    message: `Summarize this website audit of ${name} for its owner: the score, what is good, and what to fix first.`,
    facts: [{ label: 'Score', value: `${score}/100` }, ...findings.map((x) => ({ label: x.check, value: `${x.status}: ${x.message}` }))],
    fallback: () => answered(rulesSummary, ['audit']),
    length: 'long',
  });
  const auditId = newId('bau');
  const report = {
    summary: summary.answer,
    summarySource: summary.source,
    findings,
    page: { url: page.url, redirects: page.redirects, bytes: page.body.byteLength, ms, title: facts.title, description: facts.description },
    businessData: input.businessData ?? null,
  };
  try {
    return await collectPayment(
      ctx,
      {
        mode: 'charge',
        customerId,
        kind: 'business_audit',
        data: { auditId, websiteUrl: input.websiteUrl },
        intent: {
          amount: AUDIT_PRICE_CENTS,
          currency: 'usd',
          customerId: customer.paymentCustomerId,
          paymentMethodId: card.id,
          description: 'Berth business audit',
          metadata: { kind: 'business_audit', berthCustomerId: customerId, auditId },
          idempotencyKey: `audit_${auditId}`,
        },
      },
      async (paid, commitMoney) => {
        const row = {
          id: auditId,
          customerId,
          websiteUrl: input.websiteUrl,
          finalUrl: page.url,
          amount: AUDIT_PRICE_CENTS,
          currency: 'usd',
          paymentIntentId: paid!.reference ?? auditId,
          paymentMethodId: card.id,
          score,
          report,
          createdAt: nowIso(ctx),
        };
        await commitMoney([ctx.db.insert(aiBusinessAudits).values(row)], {
          audit: { action: 'ai.business_audit', targetType: 'ai_business_audit', targetId: auditId, details: { websiteUrl: input.websiteUrl, score } },
        });
        return auditOut(row);
      },
    );
  } catch (err) {
    if (err instanceof PaymentError)
      throw err.code === 'provider_error' ? new ApiError('payment_provider_error', err.message) : new ApiError('payment_failed', err.message);
    throw err;
  }
}

export async function listAuditCharges(ctx: Ctx, q: { limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  const [rows, totals] = await Promise.all([
    ctx.db
      .select()
      .from(aiBusinessAudits)
      .where(eq(aiBusinessAudits.customerId, customerId))
      .orderBy(desc(aiBusinessAudits.createdAt), desc(aiBusinessAudits.id))
      .limit(q.limit)
      .offset(q.offset)
      .all(),
    ctx.db
      .select({ n: sql<number>`count(*)`, cents: sql<number>`coalesce(sum(${aiBusinessAudits.amount}), 0)` })
      .from(aiBusinessAudits)
      .where(eq(aiBusinessAudits.customerId, customerId))
      .get(),
  ]);
  return {
    data: rows.map((r) => {
      const { report: _report, ...charge } = auditOut(r);
      return charge;
    }),
    total: Number(totals?.n ?? 0),
    totalChargedCents: Number(totals?.cents ?? 0),
    limit: q.limit,
    offset: q.offset,
  };
}
