/** Voicemail: the recording the provider made, completed by the caller and e-mailed to the location's \`voicemailEmail\`. */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/clock';
import { emailStmt } from '../../adapters/messages';
import { voiceCalls, voicemails } from '../../db/schema/voice';
import { TwiML } from './twiml';
import { voiceFail } from './errors';
import { ivrOf } from './ivr';
import { callOf, locationInCall, type CallRow } from './queries';
import { providerCtx } from './provider';

async function upsertVoicemail(
  ctx: Ctx,
  call: CallRow,
  v: { recordingSid?: string; recordingUrl?: string; duration?: string; status: 'recording' | 'completed' | 'failed' },
) {
  const duration = v.duration && /^\d+$/.test(v.duration) ? Number(v.duration) : null;
  const values = {
    recordingSid: v.recordingSid ?? null,
    recordingUrl: v.recordingUrl ?? null,
    durationSeconds: duration,
    status: v.status,
    updatedAt: nowIso(ctx),
  };
  const set = Object.fromEntries(Object.entries(values).filter(([, x]) => x !== null)) as Partial<typeof values>;
  await ctx.db
    .insert(voicemails)
    .values({
      id: newId('vm'),
      customerId: call.customerId,
      locationId: call.locationId,
      callSid: call.callSid,
      fromNumber: call.fromNumber,
      renterId: call.renterId,
      ...values,
    })
    .onConflictDoUpdate({ target: voicemails.callSid, set });
  return (await ctx.db.select().from(voicemails).where(eq(voicemails.callSid, call.callSid)).get())!;
}

/** POST /communication/voice/handle-recording: the caller finished the message. */
export async function handleRecording(rctx: Ctx, q: { locationId: string }, p: Record<string, string>): Promise<string> {
  const loc = await locationInCall(rctx, q.locationId);
  const ctx = await providerCtx(rctx, loc.customerId);
  const call = p.CallSid ? await callOf(ctx, p.CallSid) : undefined;
  const t = new TwiML();
  if (call && call.locationId === loc.id && p.RecordingUrl) {
    const vm = await upsertVoicemail(ctx, call, {
      recordingSid: p.RecordingSid,
      recordingUrl: p.RecordingUrl,
      duration: p.RecordingDuration,
      status: 'completed',
    });
    const email = ivrOf(loc).voicemailEmail;
    if (email) {
      await ctx.db.batch([
        emailStmt(ctx, {
          customerId: loc.customerId,
          to: email,
          subject: `New voicemail at ${loc.name}`,
          body: `A caller (${call.fromNumber ?? 'unknown number'}) left a message of ${vm.durationSeconds ?? '?'} seconds.\nListen: ${p.RecordingUrl}`,
          template: 'voicemail.received',
          metadata: { voicemailId: vm.id, callSid: call.callSid, locationId: loc.id },
        }).stmt,
      ]);
    }
    await ctx.db
      .update(voiceCalls)
      .set({ status: 'voicemail' })
      .where(and(eq(voiceCalls.callSid, call.callSid), eq(voiceCalls.customerId, call.customerId)));
  }
  return t.say('Thank you for your message. Goodbye.').hangup().toString();
}

/** POST /communication/voice/recording-webhook: the provider's notice that a recording is ready (or failed). */
export async function recordingWebhook(ctx: Ctx, p: Record<string, string>) {
  const missing = ['CallSid', 'RecordingSid'].filter((k) => !p[k]);
  if (missing.length)
    throw new ApiError('validation_failed', `Missing ${missing.join(', ')}`, {
      details: missing.map((k) => ({ field: k, location: 'body', message: `${k} is required` })),
    });
  const call = await callOf(ctx, p.CallSid);
  if (!call) throw voiceFail('unknown_call', 'Unknown CallSid');
  const status = p.RecordingStatus === 'failed' || p.RecordingStatus === 'absent' ? 'failed' : p.RecordingStatus === 'completed' ? 'completed' : 'recording';
  const vm = await upsertVoicemail(await providerCtx(ctx, call.customerId), call, {
    recordingSid: p.RecordingSid,
    recordingUrl: p.RecordingUrl,
    duration: p.RecordingDuration,
    status,
  });
  return { success: true, voicemailId: vm.id, status: vm.status };
}
