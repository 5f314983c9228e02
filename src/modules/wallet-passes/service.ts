/**
 * Wallet passes' face: what other code may call, and the pass use cases the router answers with. It
 * defines the pass data with its check-in QR code (walletPass), the Apple Wallet file
 * (wallet-pass-a, 501 unless configured), the Google Wallet save link (wallet-pass-b, or Berth's own
 * pass page) and the booking's calendar file; the operator's check-in by the scanned code is in
 * checkin.ts. Others use it for:
 * - a booking's pass, its Apple file and its save link (tests): loadPass, walletPassFile, walletSaveLink
 */
import type { Ctx } from '../../lib/context';
import { nowMs } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import { applePassConfig, buildPkpass } from './apple';
import { googleWalletConfig, saveUrl } from './google';
import { loadPass, qrSvg } from './passes';
import { walletFail } from './errors';
import { bookingIcs } from './ics';

export { loadPass } from './passes';

export async function walletPass(ctx: Ctx, rentalId: string, origin: string) {
  const p = await loadPass(ctx, rentalId);
  const { customerId: _customerId, checkInToken: token, ...shown } = p;
  return {
    ...shown,
    barcode: { format: 'QR' as const, message: token, svg: qrSvg(token) },
    download: {
      available: applePassConfig(ctx.env) !== null,
      url: `${origin}/public/bookings/${encodeURIComponent(p.rentalId)}/wallet-pass-a/download`,
      contentType: 'application/vnd.apple.pkpass' as const,
    },
  };
}

export async function walletPassFile(ctx: Ctx, rentalId: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; fileName: string }> {
  // The booking first: an unknown booking is 404 whether or not passes are configured.
  const p = await loadPass(ctx, rentalId);
  const cfg = applePassConfig(ctx.env);
  if (!cfg) throw walletFail('wallet_pass_not_configured', 'Apple Wallet passes are not configured on this deployment (pass certificates missing)');
  return { bytes: await buildPkpass(p, cfg), fileName: `booking-${p.rentalId}.pkpass` };
}

export async function walletSaveLink(ctx: Ctx, rentalId: string, origin: string) {
  const p = await loadPass(ctx, rentalId);
  const cfg = googleWalletConfig(ctx.env);
  if (cfg) return { rentalId: p.rentalId, provider: 'google_wallet' as const, configured: true, saveUrl: await saveUrl(p, cfg, origin) };
  return { rentalId: p.rentalId, provider: 'berth' as const, configured: false, saveUrl: `${origin}/widget?pass=${encodeURIComponent(p.rentalId)}` };
}

export async function calendarFile(ctx: Ctx, rentalId: string, origin: string) {
  const p = await loadPass(ctx, rentalId);
  const octx = await onOperatorClock(ctx, p.customerId);
  return { text: bookingIcs(p, origin, nowMs(octx)), fileName: `booking-${p.rentalId}.ics` };
}
