/**
 * A detached CMS (PKCS #7) SignedData signature, DER-encoded by hand: the few structures an Apple
 * Wallet pass needs (RFC 5652), with WebCrypto's RSA PKCS #1 v1.5 over SHA-256. Certificates are
 * carried as they are; only the signer's issuer name and serial number are read from its DER. Kept
 * small on purpose (a general ASN.1 library would add hundreds of KiB to the Worker bundle).
 */
import { wallClock } from '../../lib/clock';

const OID = {
  data: '2a864886f70d010701', // 1.2.840.113549.1.7.1
  signedData: '2a864886f70d010702', // 1.2.840.113549.1.7.2
  sha256: '608648016503040201', // 2.16.840.1.101.3.4.2.1
  rsaEncryption: '2a864886f70d010101', // 1.2.840.113549.1.1.1
  contentType: '2a864886f70d010903', // 1.2.840.113549.1.9.3
  messageDigest: '2a864886f70d010904', // 1.2.840.113549.1.9.4
  signingTime: '2a864886f70d010905', // 1.2.840.113549.1.9.5
} as const;

const hex = (h: string) => Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16)));

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** One DER TLV. */
function tlv(tag: number, ...content: Uint8Array[]): Uint8Array {
  const body = concat(content);
  const n = body.length;
  let len: Uint8Array;
  if (n < 0x80) len = Uint8Array.of(n);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    len = Uint8Array.of(0x80 | bytes.length, ...bytes);
  }
  return concat([Uint8Array.of(tag), len, body]);
}

const seq = (...c: Uint8Array[]) => tlv(0x30, ...c);
const oid = (h: string) => tlv(0x06, hex(h));
const int = (v: number) => tlv(0x02, Uint8Array.of(v));
const nul = () => Uint8Array.of(0x05, 0x00);
const octets = (b: Uint8Array) => tlv(0x04, b);
const algorithm = (h: string) => seq(oid(h), nul());

/** DER orders the elements of a SET OF by their encodings. */
function setOf(tag: number, items: Uint8Array[]): Uint8Array {
  const sorted = [...items].sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  });
  return tlv(tag, ...sorted);
}

/** UTCTime `YYMMDDHHMMSSZ`. */
function utcTime(d: Date): Uint8Array {
  const p = (n: number) => String(n).padStart(2, '0');
  const s = `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  return tlv(0x17, new TextEncoder().encode(s));
}

/** The TLVs directly inside a constructed TLV starting at `at`. */
function children(der: Uint8Array, at = 0): { tag: number; start: number; end: number }[] {
  const read = (pos: number) => {
    const tag = der[pos];
    let len = der[pos + 1];
    let head = 2;
    if (len & 0x80) {
      const k = len & 0x7f;
      len = 0;
      for (let i = 0; i < k; i++) len = len * 256 + der[pos + 2 + i];
      head += k;
    }
    return { tag, start: pos, body: pos + head, end: pos + head + len };
  };
  const outer = read(at);
  const out: { tag: number; start: number; end: number }[] = [];
  for (let pos = outer.body; pos < outer.end;) {
    const c = read(pos);
    out.push({ tag: c.tag, start: c.start, end: c.end });
    pos = c.end;
  }
  return out;
}

/** The issuer Name and serial number of a certificate (DER), as their raw TLVs. */
export function issuerAndSerial(cert: Uint8Array): { issuer: Uint8Array; serial: Uint8Array } {
  const tbs = children(cert)[0];
  const fields = children(cert, tbs.start);
  const i = fields[0].tag === 0xa0 ? 1 : 0; // [0] EXPLICIT version
  const serial = fields[i];
  const issuer = fields[i + 2];
  if (serial?.tag !== 0x02 || issuer?.tag !== 0x30) throw new Error('not an X.509 certificate');
  return { serial: cert.slice(serial.start, serial.end), issuer: cert.slice(issuer.start, issuer.end) };
}

/**
 * A detached SignedData over `content`: SHA-256 digest, signed attributes (content type, signing
 * time, message digest), RSA PKCS #1 v1.5 signature by `key`, the certificates included as given.
 */
export async function signDetached(content: Uint8Array, o: { signerCert: Uint8Array; chain: Uint8Array[]; key: CryptoKey; now?: Date }): Promise<Uint8Array> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', content));
  const attrs = [
    seq(oid(OID.contentType), setOf(0x31, [oid(OID.data)])),
    // Real time: the signing time is checked by Apple's devices against their own clocks.
    seq(oid(OID.signingTime), setOf(0x31, [utcTime(o.now ?? new Date(wallClock.now()))])),
    seq(oid(OID.messageDigest), setOf(0x31, [octets(digest)])),
  ];
  // The signature covers the attributes encoded as a SET (tag 0x31); in the SignerInfo they are [0] IMPLICIT.
  const signed = setOf(0x31, attrs);
  const signature = new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', o.key, signed));
  const { issuer, serial } = issuerAndSerial(o.signerCert);
  const signerInfo = seq(
    int(1),
    seq(issuer, serial),
    algorithm(OID.sha256),
    concat([Uint8Array.of(0xa0), signed.subarray(1)]),
    algorithm(OID.rsaEncryption),
    octets(signature),
  );
  const signedData = seq(int(1), setOf(0x31, [algorithm(OID.sha256)]), seq(oid(OID.data)), tlv(0xa0, o.signerCert, ...o.chain), setOf(0x31, [signerInfo]));
  return seq(oid(OID.signedData), tlv(0xa0, signedData));
}
