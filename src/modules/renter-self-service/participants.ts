/**
 * Participants of a booking: the renter adds, renames and removes the people of their booking, up
 * to its party size, until check-in (pending and confirmed bookings), each with their own waiver
 * status. Party size: the booking's `participants` (tour tickets, or the party given at booking),
 * else the item's capacity per unit times the units booked. The cap and the status are checked
 * inside each write (conditional SQL), so parallel additions or a check-in racing an edit cannot
 * break them. A participant's waiver is signed: linked to a signature of the operator whose signer
 * has the participant's name, or found among the booking's signed waivers by name.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { bookingParticipants } from '../../db/schema/renter-self-service';
import { getBookingRow, type BookingRow } from '../bookings/service';
import { loadItemContext } from '../availability/service';
import { signatureInfo } from '../waivers/service';
import { renterFail } from './errors';
import { asRenter, guardRefused, rentalById, rentalOnItsClock } from './queries';
import { nowIso } from '../../lib/clock';
import { requireSession } from './sessions';

type ParticipantRow = typeof bookingParticipants.$inferSelect;
const changes = (r: unknown) => Number((r as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0);
const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

interface SignedWaiver {
  signatureId?: string;
  signerName?: string;
  signedAt?: string;
}

function waiverOf(p: ParticipantRow, signed: SignedWaiver[]) {
  if (p.waiverSignatureId) return { status: 'signed' as const, signatureId: p.waiverSignatureId, signedAt: p.waiverSignedAt };
  const name = norm(`${p.firstName} ${p.lastName}`);
  const hit = signed.find((w) => typeof w.signerName === 'string' && norm(w.signerName) === name);
  return hit?.signatureId
    ? { status: 'signed' as const, signatureId: hit.signatureId, signedAt: hit.signedAt ?? null }
    : { status: 'missing' as const, signatureId: null, signedAt: null };
}

const participantOut = (p: ParticipantRow, signed: SignedWaiver[]) => ({
  participantId: p.id,
  rentalId: p.rentalId,
  firstName: p.firstName,
  lastName: p.lastName,
  email: p.email,
  dob: p.dob,
  waiver: waiverOf(p, signed),
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

/** The most people the booking is for. */
export async function partySizeOf(ctx: Ctx, b: BookingRow): Promise<number> {
  if (b.participants && b.participants > 0) return b.participants;
  const item = await loadItemContext(ctx.db, b.itemId, b.customerId).catch(() => null);
  const capacity = item?.item.model.capacity ?? 1;
  return Math.max(1, capacity * Math.max(1, b.quantity));
}

const editable = (b: BookingRow) => b.status === 'pending' || b.status === 'confirmed';
const closed = (b: BookingRow) =>
  new ApiError('invalid_state', `Participants can be changed until check-in; this booking is ${b.status.replace('_', '-')}`, { extra: { status: b.status } });
/** Inside a write: the booking is still before check-in. */
const stillEditable = (b: BookingRow) =>
  sql`EXISTS (SELECT 1 FROM bookings WHERE id = ${b.id} AND customer_id = ${b.customerId} AND status IN ('pending', 'confirmed'))`;

async function view(ctx: Ctx, b: BookingRow) {
  const rows = await ctx.db
    .select()
    .from(bookingParticipants)
    .where(and(eq(bookingParticipants.customerId, b.customerId), eq(bookingParticipants.rentalId, b.id)))
    .orderBy(asc(bookingParticipants.createdAt), asc(bookingParticipants.id))
    .all();
  const signed = (((b.extendedData ?? {}) as { signedWaivers?: unknown }).signedWaivers ?? []) as SignedWaiver[];
  const list = rows.map((r) => participantOut(r, Array.isArray(signed) ? signed : []));
  const partySize = await partySizeOf(ctx, b);
  return {
    rentalId: b.id,
    transactionId: b.transactionId,
    status: b.status,
    partySize,
    editable: editable(b),
    participants: list,
    waiversSigned: list.filter((p) => p.waiver.status === 'signed').length,
    spotsLeft: Math.max(0, partySize - list.length),
  };
}

/** The booking of a renter's call, checked against its session, with the renter's context on the operator's clock. */
async function renterBooking(ctx0: Ctx, rentalId: string, token: string | null | undefined) {
  const { b, ctx } = await rentalOnItsClock(ctx0, rentalId);
  const session = await requireSession(ctx, token, b, 'manage');
  return { b, rctx: asRenter(ctx, b, `renter:${session.id}`) };
}

export async function listParticipants(ctx: Ctx, rentalId: string, token: string | null | undefined) {
  const { b } = await renterBooking(ctx, rentalId, token);
  return view(ctx, b);
}

/** GET /coreBooking/{rentalId}/participants: the operator's view (check-in). */
export async function operatorParticipants(ctx: Ctx, rentalId: string) {
  return view(ctx, await getBookingRow(ctx, rentalId));
}

export interface ParticipantInput {
  firstName: string;
  lastName: string;
  email?: string;
  dob?: string;
}

export async function addParticipant(ctx: Ctx, rentalId: string, token: string | null | undefined, input: ParticipantInput) {
  const { b, rctx } = await renterBooking(ctx, rentalId, token);
  if (!editable(b)) throw closed(b);
  const partySize = await partySizeOf(ctx, b);
  const id = newId('bpt');
  const now = nowIso(rctx);
  try {
    await commit(
      rctx,
      [
        // The guard: the rental id is NULL (the batch aborts) when the party is full or the booking is past check-in.
        ctx.db.insert(bookingParticipants).values({
          id,
          customerId: b.customerId,
          rentalId:
            sql`(SELECT ${b.id} WHERE (SELECT count(*) FROM booking_participants WHERE customer_id = ${b.customerId} AND rental_id = ${b.id}) < ${partySize} AND ${stillEditable(b)})` as unknown as string,
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email ?? null,
          dob: input.dob ?? null,
          createdAt: now,
          updatedAt: now,
        }),
      ],
      { audit: { action: 'booking.participant_add', targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { participantId: id } } },
    );
  } catch (err) {
    if (!guardRefused(err, 'booking_participants.rental_id')) throw err;
    const fresh = await rentalById(ctx, b.id);
    if (!editable(fresh)) throw closed(fresh);
    throw renterFail('party_full', `This booking is for ${partySize} ${partySize === 1 ? 'person' : 'people'}; remove someone first`, { extra: { partySize } });
  }
  return view(ctx, b);
}

async function participantOf(ctx: Ctx, b: BookingRow, participantId: string) {
  const p = await ctx.db
    .select()
    .from(bookingParticipants)
    .where(and(eq(bookingParticipants.id, participantId), eq(bookingParticipants.rentalId, b.id), eq(bookingParticipants.customerId, b.customerId)))
    .get();
  if (!p) throw notFound('Participant');
  return p;
}

export async function updateParticipant(ctx: Ctx, rentalId: string, participantId: string, token: string | null | undefined, input: Partial<ParticipantInput>) {
  const { b, rctx } = await renterBooking(ctx, rentalId, token);
  if (!editable(b)) throw closed(b);
  const p = await participantOf(ctx, b, participantId);
  const renamed = (input.firstName !== undefined && input.firstName !== p.firstName) || (input.lastName !== undefined && input.lastName !== p.lastName);
  const set = {
    ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
    ...(input.lastName !== undefined ? { lastName: input.lastName } : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.dob !== undefined ? { dob: input.dob } : {}),
    // A waiver covers the person who signed it: a new name needs its own waiver.
    ...(renamed ? { waiverSignatureId: null, waiverSignedAt: null } : {}),
    updatedAt: nowIso(rctx),
  };
  const { results } = await commit(
    rctx,
    [
      ctx.db
        .update(bookingParticipants)
        .set(set)
        .where(and(eq(bookingParticipants.id, p.id), eq(bookingParticipants.customerId, b.customerId), stillEditable(b))),
    ],
    {
      audit: {
        action: 'booking.participant_update',
        targetType: 'booking',
        targetId: b.id,
        customerId: b.customerId,
        details: { participantId: p.id, renamed },
      },
    },
  );
  if (changes(results[0]) !== 1) throw closed(await rentalById(ctx, b.id));
  return view(ctx, b);
}

export async function removeParticipant(ctx: Ctx, rentalId: string, participantId: string, token: string | null | undefined) {
  const { b, rctx } = await renterBooking(ctx, rentalId, token);
  if (!editable(b)) throw closed(b);
  const p = await participantOf(ctx, b, participantId);
  const { results } = await commit(
    rctx,
    [ctx.db.delete(bookingParticipants).where(and(eq(bookingParticipants.id, p.id), eq(bookingParticipants.customerId, b.customerId), stillEditable(b)))],
    { audit: { action: 'booking.participant_remove', targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { participantId: p.id } } },
  );
  if (changes(results[0]) !== 1) throw closed(await rentalById(ctx, b.id));
  return view(ctx, b);
}

/** Links a signed waiver (POST /inHouseWaiver/waiver/sign) to a participant: the operator's, signed by someone of that name. */
export async function linkParticipantWaiver(
  ctx: Ctx,
  rentalId: string,
  participantId: string,
  token: string | null | undefined,
  input: { signatureId: string },
) {
  const { b, rctx } = await renterBooking(ctx, rentalId, token);
  if (!editable(b)) throw closed(b);
  const p = await participantOf(ctx, b, participantId);
  const sig = await signatureInfo(ctx, input.signatureId, '').catch(() => null);
  if (!sig || sig.customerId !== b.customerId) throw renterFail('waiver_mismatch', "This waiver is not one of this operator's signed waivers");
  if (norm(`${sig.firstName} ${sig.lastName}`) !== norm(`${p.firstName} ${p.lastName}`))
    throw renterFail('waiver_mismatch', `This waiver was signed by ${sig.firstName} ${sig.lastName}, not by ${p.firstName} ${p.lastName}`);
  const { results } = await commit(
    rctx,
    [
      ctx.db
        .update(bookingParticipants)
        .set({ waiverSignatureId: sig.signatureId, waiverSignedAt: sig.signedAt, updatedAt: nowIso(rctx) })
        .where(and(eq(bookingParticipants.id, p.id), eq(bookingParticipants.customerId, b.customerId), stillEditable(b))),
    ],
    {
      audit: {
        action: 'booking.participant_waiver',
        targetType: 'booking',
        targetId: b.id,
        customerId: b.customerId,
        details: { participantId: p.id, signatureId: sig.signatureId },
      },
    },
  );
  if (changes(results[0]) !== 1) throw closed(await rentalById(ctx, b.id));
  return view(ctx, b);
}

/**
 * The people and waivers of some bookings of an operator (the daily manifest), by rental id: the named
 * participants with their waiver status, then the signers of the booking's waivers who are not among
 * them (signed); `people` is the party (the booking's `participants`, else at least the names and
 * signatures known, at least one), `signed` the waivers signed and `missing` the rest of the party.
 */
export async function waiversOfRentals(ctx: Ctx, customerId: string, rentals: Pick<BookingRow, 'id' | 'participants' | 'extendedData'>[]) {
  const rows: ParticipantRow[] = [];
  for (let i = 0; i < rentals.length; i += 90) {
    const ids = rentals.slice(i, i + 90).map((b) => b.id);
    rows.push(
      ...(await ctx.db
        .select()
        .from(bookingParticipants)
        .where(and(eq(bookingParticipants.customerId, customerId), inArray(bookingParticipants.rentalId, ids)))
        .orderBy(asc(bookingParticipants.createdAt), asc(bookingParticipants.id))
        .all()),
    );
  }
  return new Map(
    rentals.map((b) => {
      const raw = ((b.extendedData ?? {}) as { signedWaivers?: unknown }).signedWaivers;
      const signedList = (Array.isArray(raw) ? raw : []) as SignedWaiver[];
      const named = rows.filter((r) => r.rentalId === b.id).map((p) => ({ name: `${p.firstName} ${p.lastName}`.trim(), waiver: waiverOf(p, signedList) }));
      const used = new Set(named.map((p) => p.waiver.signatureId).filter(Boolean));
      const others = signedList
        .filter((w) => w.signatureId && !used.has(w.signatureId))
        .map((w) => ({ name: typeof w.signerName === 'string' ? w.signerName : 'Signer', waiver: { status: 'signed' as const } }));
      const people = [...named.map((p) => ({ name: p.name, waiver: p.waiver.status })), ...others.map((p) => ({ name: p.name, waiver: p.waiver.status }))];
      const signed = people.filter((p) => p.waiver === 'signed').length;
      const party = Math.max(b.participants ?? 0, people.length, 1);
      return [b.id, { people: party, participants: people, signed, missing: party - signed }];
    }),
  );
}
