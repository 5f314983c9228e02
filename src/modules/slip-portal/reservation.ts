/**
 * What the tenant sees and does on one of their reservations: details, vessel, contract (view and
 * sign), documents (requirements, upload, submit) and the message thread. Every function reads the
 * reservation through `ownReservation` first: another tenant's reservation answers 404.
 */
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { contractPdf, contractsOfReservation, signContract } from '../slip-contracts/service';
import { attachUpload, requirementsOf, storeUpload } from '../slip-documents/service';
import { passesOfReservation } from '../slip-guest-access/service';
import { changeBoat, paymentHistory, recordRenterMessage, renterThread, reservationView } from '../slip-reservations/service';
import { renterOf } from './auth';
import { ownReservation } from './queries';
import type * as s from './schemas';

export async function reservationDetail(ctx: Ctx, id: string) {
  const r = await ownReservation(ctx, id);
  const [view, pays, thread, documents, passes] = await Promise.all([
    reservationView(ctx, r),
    paymentHistory(ctx, r.id),
    renterThread(ctx, r.id, { limit: 20, offset: 0 }),
    requirementsOf(ctx, r),
    passesOfReservation(ctx, r.id, { limit: 100, offset: 0 }),
  ]);
  return { ...view, payments: pays.data, messages: thread.data, documents, guestPasses: passes.data };
}

export async function updateVessel(ctx: Ctx, id: string, input: z.output<typeof s.VesselBody>) {
  return changeBoat(ctx, await ownReservation(ctx, id), input);
}

/** The contract the marina sent (or the signed one); a draft not sent yet is not shown. */
async function currentContract(ctx: Ctx, id: string) {
  const r = await ownReservation(ctx, id);
  const { data } = await contractsOfReservation(ctx, r.id);
  const c =
    data.find((x) => x.id === r.contractId && (x.status === 'sent' || x.status === 'signed')) ?? data.find((x) => x.status === 'sent' || x.status === 'signed');
  if (!c) throw notFound('Contract (none was sent for this reservation yet)');
  return { r, c };
}

export async function viewContract(ctx: Ctx, id: string) {
  const { r, c } = await currentContract(ctx, id);
  return {
    id: c.id,
    reservationId: r.id,
    status: c.status as 'sent' | 'signed',
    title: c.title,
    body: c.body,
    documentSha256: c.documentSha256,
    pdfUrl: `/slip-portal/reservations/${r.id}/contract?format=pdf`,
    sentAt: c.sentAt,
    signedAt: c.signature?.signedAt ?? null,
    signerName: c.signature?.signerName ?? null,
  };
}

export async function contractFile(ctx: Ctx, id: string) {
  const { c } = await currentContract(ctx, id);
  return contractPdf(ctx, c.id);
}

export async function signOwnContract(ctx: Ctx, id: string, input: z.output<typeof s.SignBody>, meta: { ip: string | null; userAgent: string | null }) {
  const { c } = await currentContract(ctx, id);
  if (c.status === 'signed') throw new ApiError('invalid_state', 'The contract is already signed');
  await signContract(
    ctx,
    { contractId: c.id, signerName: input.signerName, signerEmail: input.signerEmail, signature: input.signature, agreed: true, renterPortal: true },
    meta,
  );
  return viewContract(ctx, id);
}

export async function documentsOf(ctx: Ctx, id: string) {
  return requirementsOf(ctx, await ownReservation(ctx, id));
}

export async function submitDocument(ctx: Ctx, id: string, input: z.output<typeof s.AttachBody>) {
  return attachUpload(ctx, await ownReservation(ctx, id), input, 'portal');
}

export async function uploadFile(ctx: Ctx, read: () => Promise<{ bytes: Uint8Array; name: string | null }>) {
  const renterId = renterOf(ctx);
  const file = await read();
  return await storeUpload(ctx, renterId, file);
}

export async function messagesOf(ctx: Ctx, id: string, q: { limit: number; offset: number }) {
  return renterThread(ctx, (await ownReservation(ctx, id)).id, q);
}

export async function sendMessage(ctx: Ctx, id: string, input: z.output<typeof s.MessageBody>) {
  return recordRenterMessage(ctx, (await ownReservation(ctx, id)).id, input);
}
