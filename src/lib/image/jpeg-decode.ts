/**
 * JPEG decoder (ITU T.81): baseline and extended sequential and progressive Huffman JPEGs with
 * 8-bit samples, one (grey) or three (YCbCr, or RGB with an Adobe marker) components, any chroma
 * subsampling and restart intervals; the EXIF orientation is read from APP1. Arithmetic coding,
 * 12-bit samples, lossless and CMYK files are refused as unsupported.
 *
 * Memory: a sequential file is decoded one MCU row at a time straight into its component planes
 * (about 1.5 bytes per pixel for 4:2:0 colour); a progressive file keeps every coefficient (2 bytes
 * per sample) until its last scan, so it is held to the decode budget (raster.ts).
 */
import { checkBudget, ImageError, type Raster } from './raster';

export const ZIGZAG = new Uint8Array([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22,
  15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

const corrupt = (what: string) => new ImageError('corrupt', `The JPEG is damaged or truncated (${what})`);

// ---------------------------------------------------------------------------------------------
// Huffman tables and the bit reader

const FAST_BITS = 9;

interface Huffman {
  /** (length << 8 | value) of codes up to FAST_BITS long, indexed by the next FAST_BITS bits; 0 = longer code. */
  fast: Uint16Array;
  maxcode: Int32Array;
  mincode: Int32Array;
  valptr: Int32Array;
  values: Uint8Array;
}

function buildHuffman(counts: Uint8Array, values: Uint8Array): Huffman {
  const maxcode = new Int32Array(18).fill(-1);
  const mincode = new Int32Array(17);
  const valptr = new Int32Array(17);
  const fast = new Uint16Array(1 << FAST_BITS);
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    const n = counts[len - 1];
    valptr[len] = k;
    mincode[len] = code;
    for (let i = 0; i < n; i++, code++, k++) {
      if (code >= 1 << len) throw corrupt('Huffman table');
      if (len <= FAST_BITS) {
        const shift = FAST_BITS - len;
        const entry = (len << 8) | values[k];
        for (let j = 0; j < 1 << shift; j++) fast[(code << shift) | j] = entry;
      }
    }
    if (n) maxcode[len] = code - 1;
    code <<= 1;
  }
  maxcode[17] = 0x7fffffff;
  return { fast, maxcode, mincode, valptr, values };
}

class BitReader {
  private buf = 0;
  private cnt = 0;
  /** A marker (0xFF followed by neither 0x00 nor fill) stopped the entropy-coded data at `pos`. */
  private atMarker = false;

  constructor(
    private readonly data: Uint8Array,
    public pos: number,
  ) {}

  private fill(): void {
    const d = this.data;
    while (this.cnt <= 24) {
      let b = 0;
      if (!this.atMarker && this.pos < d.length) {
        b = d[this.pos];
        if (b === 0xff) {
          let next = d[this.pos + 1];
          while (next === 0xff) next = d[++this.pos + 1];
          if (next === 0) this.pos += 2;
          else {
            this.atMarker = true;
            b = 0;
          }
        } else this.pos++;
      }
      this.buf = ((this.buf << 8) | b) >>> 0;
      this.cnt += 8;
    }
  }

  bits(n: number): number {
    if (this.cnt < n) this.fill();
    this.cnt -= n;
    return (this.buf >>> this.cnt) & ((1 << n) - 1);
  }

  bit(): number {
    return this.bits(1);
  }

  /** Receive-and-extend (F.2.2.1): `s` bits as a signed value. */
  extend(s: number): number {
    if (s === 0) return 0;
    const v = this.bits(s);
    return v < 1 << (s - 1) ? v - (1 << s) + 1 : v;
  }

  decode(h: Huffman): number {
    if (this.cnt < 16) this.fill();
    const e = h.fast[(this.buf >>> (this.cnt - FAST_BITS)) & ((1 << FAST_BITS) - 1)];
    if (e) {
      this.cnt -= e >> 8;
      return e & 0xff;
    }
    const peek = (this.buf >>> (this.cnt - 16)) & 0xffff;
    for (let len = FAST_BITS + 1; len <= 16; len++) {
      const code = peek >>> (16 - len);
      if (code <= h.maxcode[len]) {
        this.cnt -= len;
        return h.values[h.valptr[len] + code - h.mincode[len]];
      }
    }
    throw corrupt('bad Huffman code');
  }

  /** The position of the next marker, after the bits of the scan (padding and stuffed bytes skipped). */
  nextMarker(): number {
    this.buf = 0;
    this.cnt = 0;
    const d = this.data;
    let p = this.pos;
    if (!this.atMarker) while (p + 1 < d.length && !(d[p] === 0xff && d[p + 1] !== 0 && d[p + 1] !== 0xff)) p++;
    return p;
  }

  /** Skips the RSTn marker expected after a restart interval. */
  restart(): void {
    const p = this.nextMarker();
    const d = this.data;
    if (p + 1 < d.length && d[p + 1] >= 0xd0 && d[p + 1] <= 0xd7) {
      this.pos = p + 2;
      this.atMarker = false;
    } else {
      this.pos = p;
      this.atMarker = true;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Frame and components

interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  /** Blocks across and down, padded to whole MCUs. */
  bw: number;
  bh: number;
  /** Blocks actually covering the image (a non-interleaved scan stops there). */
  bwImage: number;
  bhImage: number;
  /** Coefficients: every block (progressive), or one band of `v` block rows (sequential). */
  coeff: Int16Array;
  /** Samples after the inverse DCT, bw*8 wide. */
  plane: Uint8Array;
  pred: number;
  dc?: Huffman;
  ac?: Huffman;
}

interface Frame {
  width: number;
  height: number;
  progressive: boolean;
  comps: Component[];
  hmax: number;
  vmax: number;
  mcusX: number;
  mcusY: number;
}

// ---------------------------------------------------------------------------------------------
// Inverse DCT: the AAN float algorithm (Arai, Agui, Nakajima), as in the IJG's jidctflt.c; the
// quantization table is prescaled by the AAN factors. Columns whose AC terms are all zero are cheap.

/** AAN scale factors: 1 for k = 0, else cos(k pi / 16) * sqrt(2). */
export const AAN_SCALE = [1.0, 1.387039845, 1.306562965, 1.175875602, 1.0, 0.785694958, 0.5411961, 0.275899379];

/** A natural-order quantization table multiplied by the AAN factors of its row and column, over 8. */
function aanTable(q: Uint16Array): Float32Array {
  const t = new Float32Array(64);
  for (let v = 0; v < 8; v++) for (let u = 0; u < 8; u++) t[v * 8 + u] = (q[v * 8 + u] * AAN_SCALE[v] * AAN_SCALE[u]) / 8;
  return t;
}

const blk = new Float32Array(64);
const ws = new Float32Array(64);

/** One 8-point inverse AAN transform, from `src[s + k * step]` to `dst[d + k * step]` (k = 0..7). */
function idct8(src: Float32Array, s: number, dst: Float32Array, d: number, step: number): void {
  let t0 = src[s];
  let t1 = src[s + 2 * step];
  let t2 = src[s + 4 * step];
  let t3 = src[s + 6 * step];
  let t10 = t0 + t2;
  let t11 = t0 - t2;
  const t13 = t1 + t3;
  let t12 = (t1 - t3) * 1.414213562 - t13;
  t0 = t10 + t13;
  t3 = t10 - t13;
  t1 = t11 + t12;
  t2 = t11 - t12;
  let t4 = src[s + step];
  let t5 = src[s + 3 * step];
  let t6 = src[s + 5 * step];
  let t7 = src[s + 7 * step];
  const z13 = t6 + t5;
  const z10 = t6 - t5;
  const z11 = t4 + t7;
  const z12 = t4 - t7;
  t7 = z11 + z13;
  t11 = (z11 - z13) * 1.414213562;
  const z5 = (z10 + z12) * 1.847759065;
  t10 = 1.0823922 * z12 - z5;
  t12 = -2.61312593 * z10 + z5;
  t6 = t12 - t7;
  t5 = t11 - t6;
  t4 = t10 + t5;
  dst[d] = t0 + t7;
  dst[d + 7 * step] = t0 - t7;
  dst[d + step] = t1 + t6;
  dst[d + 6 * step] = t1 - t6;
  dst[d + 2 * step] = t2 + t5;
  dst[d + 5 * step] = t2 - t5;
  dst[d + 4 * step] = t3 + t4;
  dst[d + 3 * step] = t3 - t4;
}

/** Dequantizes and inverse-transforms the block at `coeff[off..off+64)` into `out` (stride `stride`). */
function idctBlock(coeff: Int16Array, off: number, q: Float32Array, out: Uint8Array, outOff: number, stride: number): void {
  for (let i = 0; i < 64; i++) blk[i] = coeff[off + i] * q[i];
  for (let c = 0; c < 8; c++) {
    if (blk[8 + c] === 0 && blk[16 + c] === 0 && blk[24 + c] === 0 && blk[32 + c] === 0 && blk[40 + c] === 0 && blk[48 + c] === 0 && blk[56 + c] === 0) {
      ws[c] = ws[8 + c] = ws[16 + c] = ws[24 + c] = ws[32 + c] = ws[40 + c] = ws[48 + c] = ws[56 + c] = blk[c];
    } else idct8(blk, c, ws, c, 8);
  }
  for (let r = 0; r < 8; r++) idct8(ws, r * 8, blk, r * 8, 1);
  for (let r = 0; r < 8; r++) for (let x = 0; x < 8; x++) out[outOff + r * stride + x] = clamp(blk[r * 8 + x]);
}

const clamp = (v: number) => {
  const p = v + 128.5;
  return p < 0 ? 0 : p > 255 ? 255 : p;
};

// ---------------------------------------------------------------------------------------------
// Scans

interface ScanState {
  bits: BitReader;
  ss: number;
  se: number;
  ah: number;
  al: number;
  eobrun: number;
}

function decodeBaseline(s: ScanState, c: Component, blk: Int16Array, off: number): void {
  const b = s.bits;
  const t = b.decode(c.dc!);
  c.pred += t ? b.extend(t) : 0;
  blk[off] = c.pred;
  for (let k = 1; k < 64;) {
    const rs = b.decode(c.ac!);
    const size = rs & 15;
    const run = rs >> 4;
    if (size === 0) {
      if (run !== 15) break;
      k += 16;
      continue;
    }
    k += run;
    if (k > 63) throw corrupt('coefficient index');
    blk[off + ZIGZAG[k]] = b.extend(size);
    k++;
  }
}

function decodeDcFirst(s: ScanState, c: Component, blk: Int16Array, off: number): void {
  const t = s.bits.decode(c.dc!);
  c.pred += t ? s.bits.extend(t) : 0;
  blk[off] = c.pred * (1 << s.al);
}

function decodeDcRefine(s: ScanState, _c: Component, blk: Int16Array, off: number): void {
  if (s.bits.bit()) blk[off] |= 1 << s.al;
}

function decodeAcFirst(s: ScanState, c: Component, blk: Int16Array, off: number): void {
  if (s.eobrun > 0) {
    s.eobrun--;
    return;
  }
  const b = s.bits;
  for (let k = s.ss; k <= s.se;) {
    const rs = b.decode(c.ac!);
    const size = rs & 15;
    const run = rs >> 4;
    if (size === 0) {
      if (run < 15) {
        s.eobrun = (1 << run) - 1 + (run ? b.bits(run) : 0);
        break;
      }
      k += 16;
      continue;
    }
    k += run;
    if (k > 63) throw corrupt('coefficient index');
    blk[off + ZIGZAG[k]] = b.extend(size) * (1 << s.al);
    k++;
  }
}

function decodeAcRefine(s: ScanState, c: Component, blk: Int16Array, off: number): void {
  const b = s.bits;
  const p1 = 1 << s.al;
  const m1 = -1 << s.al;
  let k = s.ss;
  const refine = (z: number) => {
    if (b.bit() && (blk[z] & p1) === 0) blk[z] += blk[z] >= 0 ? p1 : m1;
  };
  if (s.eobrun === 0) {
    for (; k <= s.se; k++) {
      const rs = b.decode(c.ac!);
      let run = rs >> 4;
      let value = 0;
      if (rs & 15) value = b.bit() ? p1 : m1;
      else if (run !== 15) {
        s.eobrun = (1 << run) + (run ? b.bits(run) : 0);
        break;
      }
      while (k <= s.se) {
        const z = off + ZIGZAG[k];
        if (blk[z] !== 0) refine(z);
        else if (--run < 0) break;
        k++;
      }
      if (value && k <= 63) blk[off + ZIGZAG[k]] = value;
    }
  }
  if (s.eobrun > 0) {
    for (; k <= s.se; k++) {
      const z = off + ZIGZAG[k];
      if (blk[z] !== 0) refine(z);
    }
    s.eobrun--;
  }
}

// ---------------------------------------------------------------------------------------------
// The file

const be16 = (d: Uint8Array, i: number) => (d[i] << 8) | d[i + 1];

/** EXIF orientation (tag 0x0112 of IFD0) from an APP1 payload starting with `Exif\0\0`; 1 when absent. */
function exifOrientation(d: Uint8Array, start: number, end: number): number {
  const t = start + 6;
  if (end - t < 8) return 1;
  const le = d[t] === 0x49;
  const u16 = (i: number) => (le ? d[i] | (d[i + 1] << 8) : (d[i] << 8) | d[i + 1]);
  const u32 = (i: number) =>
    le ? (d[i] | (d[i + 1] << 8) | (d[i + 2] << 16)) + d[i + 3] * 2 ** 24 : d[i] * 2 ** 24 + ((d[i + 1] << 16) | (d[i + 2] << 8) | d[i + 3]);
  const ifd = t + u32(t + 4);
  if (ifd + 2 > end) return 1;
  const n = u16(ifd);
  for (let i = 0; i < n; i++) {
    const e = ifd + 2 + i * 12;
    if (e + 12 > end) break;
    if (u16(e) === 0x0112) {
      const o = u16(e + 8);
      return o >= 1 && o <= 8 ? o : 1;
    }
  }
  return 1;
}

/** Decodes a JPEG; the raster reads rows in the stored orientation (see `orientation`). */
export function decodeJpeg(d: Uint8Array): Raster {
  if (d[0] !== 0xff || d[1] !== 0xd8) throw corrupt('no SOI');
  const quant: Uint16Array[] = [];
  const dcTables: Huffman[] = [];
  const acTables: Huffman[] = [];
  let frame: Frame | null = null;
  let restartInterval = 0;
  let orientation = 1;
  let adobeTransform = -1;
  let jfif = false;
  let p = 2;
  let done = false;
  let scans = 0;

  while (!done) {
    while (p < d.length && d[p] !== 0xff) p++;
    while (p < d.length && d[p] === 0xff) p++;
    if (p >= d.length) {
      if (frame) break; // truncated after some scans: show what was decoded
      throw corrupt('no image data');
    }
    const marker = d[p++];
    if (marker === 0xd9) break;
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    const len = be16(d, p);
    const end = p + len;
    if (len < 2 || end > d.length) {
      if (frame) break;
      throw corrupt('segment length');
    }
    const q = p + 2;
    switch (marker) {
      case 0xe0:
        if (d[q] === 0x4a && d[q + 1] === 0x46 && d[q + 2] === 0x49 && d[q + 3] === 0x46) jfif = true;
        break;
      case 0xe1:
        if (d[q] === 0x45 && d[q + 1] === 0x78 && d[q + 2] === 0x69 && d[q + 3] === 0x66 && d[q + 4] === 0) orientation = exifOrientation(d, q, end);
        break;
      case 0xee:
        if (d[q] === 0x41 && d[q + 1] === 0x64 && d[q + 2] === 0x6f && d[q + 3] === 0x62 && d[q + 4] === 0x65) adobeTransform = d[q + 11];
        break;
      case 0xdb: {
        let i = q;
        while (i < end) {
          const pq = d[i] >> 4;
          const tq = d[i] & 15;
          i++;
          const t = new Uint16Array(64);
          for (let k = 0; k < 64; k++) {
            t[ZIGZAG[k]] = pq ? be16(d, i + k * 2) : d[i + k];
          }
          i += pq ? 128 : 64;
          quant[tq] = t;
        }
        break;
      }
      case 0xc4: {
        let i = q;
        while (i < end) {
          const tc = d[i] >> 4;
          const th = d[i] & 15;
          const counts = d.subarray(i + 1, i + 17);
          const total = counts.reduce((a, b) => a + b, 0);
          const h = buildHuffman(counts, d.subarray(i + 17, i + 17 + total));
          if (tc === 0) dcTables[th] = h;
          else acTables[th] = h;
          i += 17 + total;
        }
        break;
      }
      case 0xdd:
        restartInterval = be16(d, q);
        break;
      case 0xc0:
      case 0xc1:
      case 0xc2: {
        if (frame) throw corrupt('two frames');
        if (d[q] !== 8) throw new ImageError('unsupported', `${d[q]}-bit JPEGs are not supported; save the photo as an ordinary 8-bit JPEG`);
        frame = readFrame(d, q, marker === 0xc2);
        break;
      }
      case 0xc3:
      case 0xc5:
      case 0xc6:
      case 0xc7:
      case 0xc9:
      case 0xca:
      case 0xcb:
      case 0xcd:
      case 0xce:
      case 0xcf:
        throw new ImageError('unsupported', 'Lossless, hierarchical and arithmetic-coded JPEGs are not supported; save the photo as an ordinary JPEG');
      case 0xda: {
        if (!frame) throw corrupt('scan before frame');
        p = readScan(d, q, frame, quant, dcTables, acTables, restartInterval);
        scans++;
        continue;
      }
      default:
        break;
    }
    p = end;
    if (p >= d.length) done = true;
  }
  if (!frame || !scans) throw corrupt('no image data');
  const f = frame;
  if (f.progressive) {
    for (const c of f.comps) {
      if (!quant[c.tq]) throw corrupt('missing quantization table');
      const qt = aanTable(quant[c.tq]);
      const stride = c.bw * 8;
      for (let by = 0; by < c.bh; by++)
        for (let bx = 0; bx < c.bw; bx++) idctBlock(c.coeff, (by * c.bw + bx) * 64, qt, c.plane, by * 8 * stride + bx * 8, stride);
      c.coeff = new Int16Array(0);
    }
  }
  const rgb = f.comps.length === 3 && (adobeTransform === 0 || (!jfif && adobeTransform < 0 && f.comps[0].id === 82 && f.comps[1].id === 71));
  return planesRaster(f, orientation, rgb);
}

function readFrame(d: Uint8Array, q: number, progressive: boolean): Frame {
  const height = be16(d, q + 1);
  const width = be16(d, q + 3);
  const n = d[q + 5];
  if (n !== 1 && n !== 3) throw new ImageError('unsupported', `JPEGs with ${n} colour components (CMYK) are not supported; save the photo in RGB`);
  if (!height) throw new ImageError('unsupported', 'JPEGs whose height is given after the first scan (DNL) are not supported');
  const raw = [];
  for (let i = 0; i < n; i++) {
    const o = q + 6 + i * 3;
    raw.push({ id: d[o], h: Math.max(1, d[o + 1] >> 4), v: Math.max(1, d[o + 1] & 15), tq: d[o + 2] });
  }
  const hmax = Math.max(...raw.map((c) => c.h));
  const vmax = Math.max(...raw.map((c) => c.v));
  const mcusX = Math.ceil(width / (8 * hmax));
  const mcusY = Math.ceil(height / (8 * vmax));
  let bytes = 0;
  const sizes = raw.map((c) => {
    const bw = mcusX * c.h;
    const bh = mcusY * c.v;
    bytes += bw * bh * 64 * (progressive ? 3 : 1) + (progressive ? 0 : bw * c.v * 64 * 2);
    return { bw, bh };
  });
  checkBudget(width, height, bytes);
  const comps: Component[] = raw.map((c, i) => {
    const { bw, bh } = sizes[i];
    return {
      ...c,
      bw,
      bh,
      bwImage: Math.ceil(Math.ceil((width * c.h) / hmax) / 8),
      bhImage: Math.ceil(Math.ceil((height * c.v) / vmax) / 8),
      coeff: new Int16Array(progressive ? bw * bh * 64 : bw * c.v * 64),
      plane: new Uint8Array(bw * bh * 64),
      pred: 0,
    };
  });
  return { width, height, progressive, comps, hmax, vmax, mcusX, mcusY };
}

/** Reads one scan (SOS header and its entropy-coded data); answers the position of the marker after it. */
function readScan(d: Uint8Array, q: number, f: Frame, quant: Uint16Array[], dcTables: Huffman[], acTables: Huffman[], restartInterval: number): number {
  const n = d[q];
  const comps: Component[] = [];
  for (let i = 0; i < n; i++) {
    const id = d[q + 1 + i * 2];
    const c = f.comps.find((x) => x.id === id);
    if (!c) throw corrupt('scan component');
    c.dc = dcTables[d[q + 2 + i * 2] >> 4];
    c.ac = acTables[d[q + 2 + i * 2] & 15];
    comps.push(c);
  }
  const o = q + 1 + n * 2;
  const s: ScanState = { bits: new BitReader(d, q - 2 + be16(d, q - 2)), ss: d[o], se: d[o + 1], ah: d[o + 2] >> 4, al: d[o + 2] & 15, eobrun: 0 };
  let decode: (s: ScanState, c: Component, blk: Int16Array, off: number) => void;
  if (!f.progressive) decode = decodeBaseline;
  else if (s.ss === 0) decode = s.ah === 0 ? decodeDcFirst : decodeDcRefine;
  else decode = s.ah === 0 ? decodeAcFirst : decodeAcRefine;
  for (const c of comps) {
    if (decode === decodeBaseline || decode === decodeDcFirst) {
      if (!c.dc) throw corrupt('missing DC table');
    }
    if ((decode === decodeBaseline || decode === decodeAcFirst || decode === decodeAcRefine) && !c.ac) throw corrupt('missing AC table');
    c.pred = 0;
  }
  const sequential = !f.progressive;
  const flushBand = (c: Component, bandRow: number, rows: number) => {
    if (!quant[c.tq]) throw corrupt('missing quantization table');
    const qt = aanTable(quant[c.tq]);
    const stride = c.bw * 8;
    for (let r = 0; r < rows; r++) {
      const by = bandRow + r;
      if (by >= c.bh) break;
      for (let bx = 0; bx < c.bw; bx++) idctBlock(c.coeff, (r * c.bw + bx) * 64, qt, c.plane, by * 8 * stride + bx * 8, stride);
    }
    c.coeff.fill(0);
  };
  let untilRestart = restartInterval;
  const tick = () => {
    if (!restartInterval) return;
    if (untilRestart === 0) {
      s.bits.restart();
      for (const c of comps) c.pred = 0;
      s.eobrun = 0;
      untilRestart = restartInterval;
    }
    untilRestart--;
  };
  if (comps.length === 1) {
    const c = comps[0];
    for (let by = 0; by < c.bhImage; by++) {
      for (let bx = 0; bx < c.bwImage; bx++) {
        tick();
        const off = sequential ? bx * 64 : (by * c.bw + bx) * 64;
        decode(s, c, c.coeff, off);
      }
      if (sequential) flushBand(c, by, 1);
    }
  } else {
    for (let my = 0; my < f.mcusY; my++) {
      for (let mx = 0; mx < f.mcusX; mx++) {
        tick();
        for (const c of comps) {
          for (let y = 0; y < c.v; y++) {
            for (let x = 0; x < c.h; x++) {
              const bx = mx * c.h + x;
              const off = sequential ? (y * c.bw + bx) * 64 : ((my * c.v + y) * c.bw + bx) * 64;
              decode(s, c, c.coeff, off);
            }
          }
        }
      }
      if (sequential) for (const c of comps) flushBand(c, my * c.v, c.v);
    }
  }
  return s.bits.nextMarker();
}

function planesRaster(f: Frame, orientation: number, rgb: boolean): Raster {
  const { width, hmax, vmax } = f;
  const comps = f.comps;
  const xmap = comps.map((c) => {
    const m = new Int32Array(width);
    for (let x = 0; x < width; x++) m[x] = Math.floor((x * c.h) / hmax);
    return m;
  });
  return {
    width,
    height: f.height,
    alpha: false,
    orientation,
    row(y, out) {
      if (comps.length === 1) {
        const c = comps[0];
        const line = y * c.bw * 8;
        for (let x = 0; x < width; x++) {
          const v = c.plane[line + x];
          out[x * 4] = v;
          out[x * 4 + 1] = v;
          out[x * 4 + 2] = v;
          out[x * 4 + 3] = 255;
        }
        return;
      }
      const [a, b, cc] = comps;
      const la = Math.floor((y * a.v) / vmax) * a.bw * 8;
      const lb = Math.floor((y * b.v) / vmax) * b.bw * 8;
      const lc = Math.floor((y * cc.v) / vmax) * cc.bw * 8;
      const [xa, xb, xc] = xmap;
      for (let x = 0; x < width; x++) {
        const Y = a.plane[la + xa[x]];
        const Cb = b.plane[lb + xb[x]];
        const Cr = cc.plane[lc + xc[x]];
        let r: number, g: number, bl: number;
        if (rgb) {
          r = Y;
          g = Cb;
          bl = Cr;
        } else {
          r = Y + 1.402 * (Cr - 128);
          g = Y - 0.344136 * (Cb - 128) - 0.714136 * (Cr - 128);
          bl = Y + 1.772 * (Cb - 128);
        }
        out[x * 4] = r < 0 ? 0 : r > 255 ? 255 : r + 0.5;
        out[x * 4 + 1] = g < 0 ? 0 : g > 255 ? 255 : g + 0.5;
        out[x * 4 + 2] = bl < 0 ? 0 : bl > 255 ? 255 : bl + 0.5;
        out[x * 4 + 3] = 255;
      }
    },
  };
}
