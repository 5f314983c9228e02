/**
 * A contract's way to its signature: sent (and resent) to the renter with a signing link, signed
 * (by staff, with the e-mailed token, or in the tenant portal) onto a signed PDF, voided, and its
 * signed PDF regenerated.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { nowDate, nowIso } from '../../lib/clock';
import { formatCalendarRange } from '../../lib/local-time';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { randomString } from '../../lib/ids';
import { base64Decode, sha256Hex } from '../../lib/crypto';
import { loadPdfFonts } from '../../lib/pdf-fonts';
import { slipContracts } from '../../db/schema/slip-contracts';
import { emailStmt } from '../../adapters/messages';
import { getLocationInTenant } from '../locations/service';
import { contractStateStmts, getReservationRow, type ReservationRow } from '../slip-reservations/service';
import type * as s from './schemas';
import { buildSignedPdf, type SignatureRecord } from './pdf';
import { commitContract, pdfKey } from './contracts';
import { getContractRow } from './queries';
import { contractOut, type ContractRow } from './views';

function signLinkMail(ctx: Ctx, c: ContractRow, r: ReservationRow, to: string, token: string, baseUrl: string, message?: string) {
  const link = `${baseUrl}/slip-portal/reservations/${r.id}/contract?contractId=${c.id}&token=${token}`;
  return emailStmt(ctx, {
    to,
    subject: `Please sign: ${c.title}`,
    body: [
      `Hello ${r.renter.firstName},`,
      `please read and sign the contract for your slip reservation ${r.reservationNumber} (${formatCalendarRange(r.arrivalDate, r.departureDate)}).`,
      message ?? '',
      `Sign here: ${link}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    template: 'slip_contract.sign_request',
    customerId: c.customerId,
    metadata: { contractId: c.id, slipReservationId: r.id, link },
  }).stmt;
}

async function newToken() {
  const token = randomString(40);
  return { token, hash: await sha256Hex(token) };
}

/**
 * A contract sent for signature to `to`: its patch (status `sent`, a new signing token valid
 * `expiresInDays`, one more send) and the e-mail with the signing link.
 */
export async function sendingOf(ctx: Ctx, c: ContractRow, r: ReservationRow, o: { to: string; expiresInDays: number; message?: string; baseUrl: string }) {
  const { token, hash } = await newToken();
  const now = nowDate(ctx);
  const expires = new Date(now.getTime() + o.expiresInDays * 86_400_000).toISOString();
  const patch: Partial<ContractRow> = {
    status: 'sent',
    sentAt: now.toISOString(),
    sentTo: o.to,
    signTokenHash: hash,
    signTokenExpiresAt: expires,
    sendCount: c.sendCount + 1,
    updatedAt: now.toISOString(),
  };
  return { patch, expires, mail: signLinkMail(ctx, c, r, o.to, token, o.baseUrl, o.message) };
}

export async function sendContract(ctx: Ctx, input: z.output<typeof s.SendBody>, baseUrl: string) {
  requirePermission(ctx, 'marina');
  const c = await getContractRow(ctx, input.contractId);
  if (c.status !== 'generated' && c.status !== 'sent') throw new ApiError('invalid_state', `A ${c.status} contract cannot be sent for signature`);
  const r = await getReservationRow(ctx, c.reservationId);
  const to = input.email ?? r.renter.email;
  const { patch, expires, mail } = await sendingOf(ctx, c, r, { to, expiresInDays: input.expiresInDays, message: input.message, baseUrl });
  await commitContract(
    ctx,
    [
      ctx.db
        .update(slipContracts)
        .set(patch)
        .where(and(eq(slipContracts.id, c.id), eq(slipContracts.customerId, c.customerId))),
      mail,
      ...(r.contractStatus !== 'sent' || r.contractId !== c.id ? contractStateStmts(ctx, r, { status: 'sent', contractId: c.id }) : []),
    ],
    { audit: { action: 'slip_contract.send', targetType: 'slip_contract', targetId: c.id, details: { to, expires } } },
  );
  return contractOut({ ...c, ...patch });
}

export async function resendContract(ctx: Ctx, input: { contractId: string; message?: string }, baseUrl: string) {
  const c = await getContractRow(ctx, input.contractId);
  if (c.status !== 'sent' && c.status !== 'generated') throw new ApiError('invalid_state', `A ${c.status} contract cannot be resent`);
  return await sendContract(ctx, { contractId: c.id, email: c.sentTo ?? undefined, message: input.message, expiresInDays: 14 }, baseUrl);
}

function parseSignature(sig: string, name: string): SignatureRecord['signature'] {
  const m = /^data:(image\/png|image\/jpeg);base64,([A-Za-z0-9+/=\s]+)$/.exec(sig);
  if (!m) {
    if (sig.length > 200)
      throw new ApiError('validation_failed', 'A typed signature is at most 200 characters', { details: [{ field: 'signature', message: 'too long' }] });
    return { type: 'typed', text: sig.trim() || name };
  }
  let bytes: Uint8Array;
  try {
    bytes = base64Decode(m[2].replace(/\s/g, ''));
  } catch {
    throw new ApiError('validation_failed', 'The signature image is not valid base64', { details: [{ field: 'signature', message: 'invalid base64' }] });
  }
  return { type: 'drawn', mime: m[1] as 'image/png' | 'image/jpeg', bytes };
}

/**
 * Signs a contract: checks the stored PDF still hashes to what was generated, adds the signature
 * page and stores the signed PDF. `via` says who recorded it: staff (POST /slip-contracts/sign), the
 * renter with the e-mailed token (the tenant portal passes `token`), or the renter signed in to the
 * tenant portal (`renterPortal`: the portal checked the session owns the reservation; only a
 * contract sent for signature can be signed that way).
 */
export async function signContract(
  ctx: Ctx,
  input: z.output<typeof s.SignBody> & { token?: string; renterPortal?: boolean },
  meta: { ip: string | null; userAgent: string | null },
) {
  if (!input.token && !input.renterPortal) requirePermission(ctx, 'marina');
  const c = await getContractRow(ctx, input.contractId);
  if (c.status === 'signed') throw new ApiError('invalid_state', 'The contract is already signed');
  if (c.status === 'voided') throw new ApiError('invalid_state', 'The contract was voided');
  if (input.renterPortal && !input.token && c.status !== 'sent') throw new ApiError('invalid_state', 'The marina has not sent this contract for signature yet');
  if (input.token) {
    if (!c.signTokenHash || (await sha256Hex(input.token)) !== c.signTokenHash) throw new ApiError('forbidden', 'The signing link is not valid');
    if (c.signTokenExpiresAt && c.signTokenExpiresAt < nowIso(ctx)) throw new ApiError('expired', 'The signing link has expired; ask the marina to resend it');
  }
  const obj = await ctx.env.FILES.get(c.pdfKey);
  if (!obj) throw new ApiError('invalid_state', 'The contract PDF is missing; generate the contract again');
  const original = new Uint8Array(await obj.arrayBuffer());
  const sha = await sha256Hex(original);
  if (sha !== c.documentSha256) throw new ApiError('invalid_state', 'The stored contract does not match what was generated; generate it again');
  const [r, loc] = await Promise.all([getReservationRow(ctx, c.reservationId), getLocationInTenant(ctx, c.locationId)]);
  const signature = parseSignature(input.signature, input.signerName);
  const signedAt = nowIso(ctx);
  const record: SignatureRecord = {
    timezone: loc.timezone,
    signerName: input.signerName,
    signerEmail: input.signerEmail ?? null,
    signedAt,
    ip: meta.ip,
    userAgent: meta.userAgent,
    documentSha256: sha,
    signature,
  };
  await loadPdfFonts(ctx.env.ASSETS);
  let signed: Uint8Array;
  try {
    signed = await buildSignedPdf(original, c.id, record);
  } catch (err) {
    throw new ApiError('validation_failed', `The signature image cannot be read: ${(err as Error).message}`, {
      details: [{ field: 'signature', message: 'unreadable image' }],
    });
  }
  const key = pdfKey(c, 'signed');
  await ctx.env.FILES.put(key, signed, { httpMetadata: { contentType: 'application/pdf' }, customMetadata: { documentSha256: sha } });
  const patch: Partial<ContractRow> = {
    status: 'signed',
    signedAt,
    signerName: input.signerName,
    signerEmail: input.signerEmail ?? null,
    signatureType: signature.type,
    signature: signature.type === 'typed' ? signature.text : input.signature,
    signerIp: meta.ip,
    signerUserAgent: meta.userAgent,
    signedVia: input.token ? 'renter_link' : input.renterPortal ? 'renter_portal' : 'staff',
    signedPdfKey: key,
    signTokenHash: null,
  };
  await commitContract(
    ctx,
    [
      ctx.db
        .update(slipContracts)
        .set(patch)
        .where(and(eq(slipContracts.id, c.id), eq(slipContracts.customerId, c.customerId), inArray(slipContracts.status, ['generated', 'sent']))),
      ...contractStateStmts(ctx, r, { status: 'signed', contractId: c.id, signedAt }),
    ],
    {
      audit: {
        action: 'slip_contract.sign',
        targetType: 'slip_contract',
        targetId: c.id,
        details: { signerName: input.signerName, sha256: sha, ip: meta.ip, via: patch.signedVia },
      },
    },
  );
  return contractOut({ ...c, ...patch, updatedAt: signedAt });
}

export async function voidContract(ctx: Ctx, input: { contractId: string; reason: string }) {
  requirePermission(ctx, 'marina');
  const c = await getContractRow(ctx, input.contractId);
  if (c.status === 'voided') return contractOut(c);
  const r = await getReservationRow(ctx, c.reservationId);
  const now = nowIso(ctx);
  const patch: Partial<ContractRow> = { status: 'voided', voidedAt: now, voidReason: input.reason, signTokenHash: null };
  await commitContract(
    ctx,
    [
      ctx.db
        .update(slipContracts)
        .set(patch)
        .where(and(eq(slipContracts.id, c.id), eq(slipContracts.customerId, c.customerId))),
      ...(r.contractId === c.id ? contractStateStmts(ctx, r, { status: 'none', contractId: null }) : []),
    ],
    { audit: { action: 'slip_contract.void', targetType: 'slip_contract', targetId: c.id, details: { reason: input.reason, was: c.status } } },
  );
  return contractOut({ ...c, ...patch, updatedAt: now });
}

/** Rebuilds the signed PDF from the stored original and the signature record (after a layout or font fix). */
export async function regenerateSignedPdf(ctx: Ctx, input: { contractId: string }) {
  requirePermission(ctx, 'marina');
  const c = await getContractRow(ctx, input.contractId);
  if (c.status !== 'signed' || !c.signedAt) throw new ApiError('invalid_state', 'Only a signed contract has a signed PDF to regenerate');
  const obj = await ctx.env.FILES.get(c.pdfKey);
  if (!obj) throw new ApiError('invalid_state', 'The original contract PDF is missing');
  const original = new Uint8Array(await obj.arrayBuffer());
  const signature: SignatureRecord['signature'] =
    c.signatureType === 'drawn' && c.signature ? parseSignature(c.signature, c.signerName ?? '') : { type: 'typed', text: c.signature ?? c.signerName ?? '' };
  await loadPdfFonts(ctx.env.ASSETS);
  const pdf = await buildSignedPdf(original, c.id, {
    timezone: (await getLocationInTenant(ctx, c.locationId)).timezone,
    signerName: c.signerName ?? '',
    signerEmail: c.signerEmail,
    signedAt: c.signedAt,
    ip: c.signerIp,
    userAgent: c.signerUserAgent,
    documentSha256: c.documentSha256,
    signature,
  });
  const key = pdfKey(c, 'signed');
  await ctx.env.FILES.put(key, pdf, { httpMetadata: { contentType: 'application/pdf' }, customMetadata: { documentSha256: c.documentSha256 } });
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(slipContracts)
        .set({ signedPdfKey: key, pdfRegeneratedAt: now })
        .where(and(eq(slipContracts.id, c.id), eq(slipContracts.customerId, c.customerId))),
    ],
    {
      audit: { action: 'slip_contract.regenerate_pdf', targetType: 'slip_contract', targetId: c.id },
    },
  );
  return contractOut({ ...c, signedPdfKey: key, pdfRegeneratedAt: now, updatedAt: now });
}
