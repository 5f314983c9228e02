/**
 * wallet-pass-a: an Apple Wallet pass file (.pkpass): a zip of pass.json, icons, manifest.json (the
 * SHA-1 of every file) and `signature`, a detached PKCS #7 (CMS) signature of the manifest made with
 * the pass type certificate and key and carrying Apple's WWDR intermediate certificate. Built only
 * when APPLE_PASS_CERT_PEM, APPLE_PASS_KEY_PEM, APPLE_WWDR_CERT_PEM, APPLE_PASS_TYPE_ID and
 * APPLE_TEAM_ID are configured; otherwise the download answers 501 (the spec's "not configured").
 */
import type { Env } from '../../env';
import { iconPng, zipStored } from './png';
import { signDetached } from './cms';
import { passTimes, type PassData } from './passes';

export interface ApplePassConfig {
  certPem: string;
  keyPem: string;
  wwdrPem: string;
  passTypeId: string;
  teamId: string;
}

export function applePassConfig(env: Env): ApplePassConfig | null {
  const { APPLE_PASS_CERT_PEM: certPem, APPLE_PASS_KEY_PEM: keyPem, APPLE_WWDR_CERT_PEM: wwdrPem, APPLE_PASS_TYPE_ID: passTypeId, APPLE_TEAM_ID: teamId } = env;
  return certPem && keyPem && wwdrPem && passTypeId && teamId ? { certPem, keyPem, wwdrPem, passTypeId, teamId } : null;
}

const enc = new TextEncoder();

/** The DER bytes of the first PEM block of a kind. */
export function pemToDer(pem: string, label: string): Uint8Array {
  const m = new RegExp(`-----BEGIN ${label}-----([\\s\\S]+?)-----END ${label}-----`).exec(pem);
  if (!m) throw new Error(`no ${label} in the PEM`);
  const s = atob(m[1].replace(/\s+/g, ''));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

const toHex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
const hexRgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

/** A detached CMS SignedData over `content`, signed with SHA-256 and RSA PKCS #1 v1.5, the pass and WWDR certificates included. */
export async function detachedSignature(content: Uint8Array, cfg: Pick<ApplePassConfig, 'certPem' | 'keyPem' | 'wwdrPem'>): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('pkcs8', pemToDer(cfg.keyPem, 'PRIVATE KEY'), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  return signDetached(content, { signerCert: pemToDer(cfg.certPem, 'CERTIFICATE'), chain: [pemToDer(cfg.wwdrPem, 'CERTIFICATE')], key });
}

/** The pass.json of a booking (an event ticket with the check-in QR code). */
export function passJson(p: PassData, cfg: Pick<ApplePassConfig, 'passTypeId' | 'teamId'>) {
  const t = passTimes(p);
  return {
    formatVersion: 1,
    passTypeIdentifier: cfg.passTypeId,
    teamIdentifier: cfg.teamId,
    serialNumber: p.rentalId,
    organizationName: p.businessName,
    description: `${p.itemName} booking`,
    logoText: p.businessName,
    foregroundColor: 'rgb(255, 255, 255)',
    labelColor: 'rgb(220, 235, 245)',
    backgroundColor: `rgb(${hexRgb(p.color).join(', ')})`,
    relevantDate: p.startTime,
    expirationDate: p.validUntil,
    voided: p.status === 'cancelled',
    barcodes: [{ format: 'PKBarcodeFormatQR', message: p.checkInToken, messageEncoding: 'iso-8859-1', altText: p.rentalId }],
    ...(p.coordinates
      ? { locations: [{ latitude: p.coordinates.latitude, longitude: p.coordinates.longitude, relevantText: `${p.itemName} at ${p.locationName}` }] }
      : {}),
    eventTicket: {
      primaryFields: [{ key: 'item', label: 'BOOKING', value: p.itemName }],
      secondaryFields: [
        { key: 'date', label: 'DATE', value: t.day },
        { key: 'time', label: 'TIME', value: t.time },
      ],
      auxiliaryFields: [
        { key: 'name', label: 'NAME', value: p.renterName },
        { key: 'party', label: 'PARTY', value: String(p.partySize) },
      ],
      backFields: [
        { key: 'location', label: 'Location', value: `${p.locationName}\n${p.address}` },
        { key: 'phone', label: 'Phone', value: p.phoneNumber },
        { key: 'reference', label: 'Booking reference', value: p.rentalId },
      ],
    },
  };
}

/** The signed .pkpass bytes. */
export async function buildPkpass(p: PassData, cfg: ApplePassConfig): Promise<Uint8Array<ArrayBuffer>> {
  const rgb = hexRgb(p.color);
  const files: Record<string, Uint8Array> = {
    'pass.json': enc.encode(JSON.stringify(passJson(p, cfg))),
    'icon.png': iconPng(29, rgb, [255, 255, 255]),
    'icon@2x.png': iconPng(58, rgb, [255, 255, 255]),
    'logo.png': iconPng(50, rgb, [255, 255, 255]),
  };
  const manifest: Record<string, string> = {};
  for (const [name, bytes] of Object.entries(files)) manifest[name] = toHex(await crypto.subtle.digest('SHA-1', bytes));
  const manifestBytes = enc.encode(JSON.stringify(manifest));
  const signature = await detachedSignature(manifestBytes, cfg);
  return zipStored({ ...files, 'manifest.json': manifestBytes, signature });
}
