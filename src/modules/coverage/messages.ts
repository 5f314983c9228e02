/**
 * Message requests: the underwriter asks Berth to e-mail the renter of a policy (it never names an
 * address). Signed like Berth's calls to it, with the same secret: `X-Service-Offering`,
 * `X-Service-Timestamp` (Unix seconds, within 300 s) and `X-Service-Signature` (hex HMAC-SHA256 of
 * `{timestamp}.{raw body}`; either secret during a rotation overlap). Four categories only; the
 * recipient comes from the policy's booking; the plain text is escaped into Berth's template with the
 * offering's support address as reply-to; one message per category per policy (a retry is a no-op);
 * refused (403 `offering_disabled`) as soon as the operator no longer offers the coverage there.
 */
import { nowIso } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import type { Context } from 'hono';
import { and, eq } from 'drizzle-orm';
import type { AppEnv, Ctx, Principal } from '../../lib/context';
import { ctxOf } from '../../lib/context';
import { ApiError, notFound, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { AuthScheme } from '../../lib/openapi';
import { commit } from '../../lib/commit';
import { emailStmt } from '../../adapters/messages';
import { OFFERING_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySigned } from '../../adapters/underwriter';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { coverageMessages, coveragePolicies, coverageQuotes } from '../../db/schema/coverage';
import { getBookingRow } from '../bookings/service';
import { coverageFail } from './errors';
import { activeSecrets } from './secrets';
import { CONTROL } from './questions';
import { getOffering, isEnabledAt, operatorAccount } from './queries';
import type { MessageCategory } from './types';
import type { PolicyRow } from './views';

/** Message requests per minute per offering. */
export const MESSAGE_RATE_LIMIT = 300;

async function authenticateUnderwriter(c: Context<AppEnv>): Promise<Record<string, string>> {
  const offeringId = c.req.header(OFFERING_HEADER);
  const timestamp = c.req.header(TIMESTAMP_HEADER);
  const signature = c.req.header(SIGNATURE_HEADER);
  if (!offeringId || !timestamp || !signature)
    throw new ApiError('unauthenticated', `Sign the request: ${OFFERING_HEADER}, ${TIMESTAMP_HEADER} and ${SIGNATURE_HEADER} are required`);
  const ctx = ctxOf(c);
  const offering = await getOffering(ctx, offeringId.slice(0, 128));
  if (!offering) throw new ApiError('unauthenticated', 'Unknown offering');
  const body = await c.req.text();
  const refused = await verifySigned(await activeSecrets(ctx, offering.id), timestamp, signature, body);
  if (refused) throw new ApiError('unauthenticated', refused);
  const principal: Principal = {
    kind: 'partner',
    credentialId: `offering:${offering.id}`,
    userId: null,
    customerId: null,
    role: null,
    permissions: [],
    plan: 'standard',
    partnerId: offering.partnerId,
    subject: offering.id,
    name: offering.name,
  };
  c.set('principal', principal);
  return enforceRateLimit(c, principal.credentialId, MESSAGE_RATE_LIMIT);
}

/** The underwriter's own signature scheme (message requests). */
export const underwriterAuth: AuthScheme = {
  security: [{ UnderwriterSignature: [] }],
  middleware: async (c, next) => {
    const headers = await authenticateUnderwriter(c);
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  },
};

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const plain = (s: string) => s.replace(CONTROL, '');
const oneLine = (s: string) => plain(s).replace(/\s+/g, ' ').trim();

const DEFAULT_SUBJECTS: Record<MessageCategory, string> = {
  policy_issued: 'Your coverage policy is issued',
  policy_document: 'Your coverage policy document',
  policy_cancelled: 'Your coverage policy is cancelled',
  claim_update: 'An update on your claim',
};

async function policyFor(ctx: Ctx, offeringId: string, input: { policyNumber?: string; quoteId?: string }): Promise<PolicyRow> {
  let row: PolicyRow | undefined;
  if (input.policyNumber)
    row = await ctx.db
      .select()
      .from(coveragePolicies)
      .where(and(eq(coveragePolicies.offeringId, offeringId), eq(coveragePolicies.policyNumber, input.policyNumber)))
      .get();
  else if (input.quoteId)
    row = (
      await ctx.db
        .select({ p: coveragePolicies })
        .from(coveragePolicies)
        .innerJoin(coverageQuotes, eq(coverageQuotes.id, coveragePolicies.quoteId))
        .where(and(eq(coveragePolicies.offeringId, offeringId), eq(coverageQuotes.underwriterQuoteId, input.quoteId)))
        .get()
    )?.p;
  if (!row) throw notFound('Policy');
  return row;
}

export async function requestMessage(
  ctx: Ctx,
  input: { policyNumber?: string; quoteId?: string; category: MessageCategory; subject?: string; text: string },
): Promise<{ status: 200 | 201; body: { messageId: string; policyId: string; category: MessageCategory; duplicate: boolean; createdAt: string } }> {
  const offeringId = ctx.principal.subject!;
  const offering = (await getOffering(ctx, offeringId))!;
  const policy = await policyFor(ctx, offeringId, input);
  if (!(await isEnabledAt(ctx, policy.customerId, policy.locationId, offeringId)))
    throw coverageFail('offering_disabled', 'The operator no longer offers this coverage at this location: messages to its renters have stopped');
  const existing = async () =>
    ctx.db
      .select()
      .from(coverageMessages)
      .where(and(eq(coverageMessages.policyId, policy.id), eq(coverageMessages.category, input.category)))
      .get();
  const dup = await existing();
  if (dup) return { status: 200, body: { messageId: dup.messageId, policyId: policy.id, category: input.category, duplicate: true, createdAt: dup.createdAt } };

  // The renter's operator (its clock: a sandbox test clock's time) from here on.
  const octx: Ctx = { ...(await onOperatorClock(ctx, policy.customerId)), principal: { ...ctx.principal, customerId: policy.customerId } };
  const b = await getBookingRow(octx, policy.rentalId ?? '');
  const info = (b.customerInfo ?? {}) as { email?: string; firstName?: string };
  if (!info.email) throw new ApiError('invalid_state', 'The booking of this policy has no renter e-mail address');
  const operator = await operatorAccount(ctx, policy.customerId);
  const subject = oneLine(input.subject ?? DEFAULT_SUBJECTS[input.category]).slice(0, 150);
  const text = plain(input.text);
  const footer = `${offering.name} covers your booking ${b.transactionId} with ${operator.name}. Reply to this e-mail to reach ${offering.name} (${offering.supportEmail}).`;
  const body = `Hello ${oneLine(info.firstName ?? '')},\n\n${text}\n\n--\n${footer}`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><p>Hello ${escapeHtml(oneLine(info.firstName ?? ''))},</p><div style="white-space:pre-wrap">${escapeHtml(text)}</div><hr><p style="color:#555;font-size:13px">${escapeHtml(footer)}</p></body></html>`;
  const msg = emailStmt(octx, {
    customerId: policy.customerId,
    to: info.email,
    subject: `${oneLine(offering.name).slice(0, 60)}: ${subject}`,
    body,
    html,
    replyTo: offering.supportEmail,
    template: `coverage.${input.category}`,
    metadata: { policyId: policy.id, offeringId, category: input.category, rentalId: b.id },
  });
  const createdAt = nowIso(octx);
  try {
    await commit(
      octx,
      [
        ctx.db
          .insert(coverageMessages)
          .values({ id: newId('cms'), customerId: policy.customerId, policyId: policy.id, category: input.category, messageId: msg.id, createdAt }),
        msg.stmt,
      ],
      {
        audit: {
          action: 'coverage.message',
          targetType: 'coverage_policy',
          targetId: policy.id,
          customerId: policy.customerId,
          details: { category: input.category },
        },
      },
    );
  } catch (err) {
    // A concurrent request of the same category won: this one is the no-op retry.
    const won = isUniqueViolation(err) ? await existing() : undefined;
    if (!won) throw err;
    return { status: 200, body: { messageId: won.messageId, policyId: policy.id, category: input.category, duplicate: true, createdAt: won.createdAt } };
  }
  return { status: 201, body: { messageId: msg.id, policyId: policy.id, category: input.category, duplicate: false, createdAt } };
}
