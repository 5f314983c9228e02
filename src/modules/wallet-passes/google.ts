/**
 * wallet-pass-b: a Google Wallet "save" link, `https://pay.google.com/gp/v/save/<JWT>`, the JWT signed
 * (RS256) with the issuer's service account key and carrying a generic pass object (and its class)
 * with the check-in QR code. Configured by GOOGLE_WALLET_ISSUER_ID, GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL
 * and GOOGLE_WALLET_PRIVATE_KEY_PEM. Without them the save URL is Berth's own pass page
 * (`/widget?pass=<rentalId>`: the QR code, ready to save to the home screen or print).
 */
import { importPKCS8, SignJWT } from 'jose';
import type { Env } from '../../env';
import type { PassData } from './passes';

export interface GoogleWalletConfig {
  issuerId: string;
  serviceAccountEmail: string;
  privateKeyPem: string;
}

export function googleWalletConfig(env: Env): GoogleWalletConfig | null {
  const { GOOGLE_WALLET_ISSUER_ID: issuerId, GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: serviceAccountEmail, GOOGLE_WALLET_PRIVATE_KEY_PEM: privateKeyPem } = env;
  return issuerId && serviceAccountEmail && privateKeyPem ? { issuerId, serviceAccountEmail, privateKeyPem } : null;
}

const text = (value: string) => ({ defaultValue: { language: 'en', value } });

/** The JWT claims of the save link. */
export function saveClaims(p: PassData, cfg: Pick<GoogleWalletConfig, 'issuerId' | 'serviceAccountEmail'>, origin: string) {
  const classId = `${cfg.issuerId}.berth_booking_${p.customerId.replace(/[^\w]/g, '_')}`;
  return {
    iss: cfg.serviceAccountEmail,
    aud: 'google',
    typ: 'savetowallet',
    origins: [origin],
    payload: {
      genericClasses: [{ id: classId }],
      genericObjects: [
        {
          id: `${cfg.issuerId}.${p.rentalId}`,
          classId,
          genericType: 'GENERIC_TYPE_UNSPECIFIED',
          hexBackgroundColor: p.color,
          state: p.status === 'cancelled' ? 'INACTIVE' : 'ACTIVE',
          cardTitle: text(p.businessName),
          header: text(p.itemName),
          subheader: text(p.when),
          textModulesData: [
            { id: 'name', header: 'Name', body: p.renterName },
            { id: 'party', header: 'Party', body: String(p.partySize) },
            { id: 'location', header: 'Location', body: `${p.locationName}, ${p.address}` },
            { id: 'reference', header: 'Booking reference', body: p.rentalId },
          ],
          barcode: { type: 'QR_CODE', value: p.checkInToken, alternateText: p.rentalId },
          validTimeInterval: { start: { date: p.startTime }, end: { date: p.validUntil } },
        },
      ],
    },
  };
}

export async function saveUrl(p: PassData, cfg: GoogleWalletConfig, origin: string): Promise<string> {
  const key = await importPKCS8(cfg.privateKeyPem, 'RS256');
  const jwt = await new SignJWT(saveClaims(p, cfg, origin) as unknown as Record<string, unknown>)
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(key);
  return `https://pay.google.com/gp/v/save/${jwt}`;
}
