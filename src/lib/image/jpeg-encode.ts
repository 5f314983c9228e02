/**
 * Baseline JPEG encoder (ITU T.81 with the example Huffman tables of its Annex K): YCbCr with
 * 4:2:0 chroma, IJG quality scaling, JFIF header, no metadata (so no EXIF location leaves Berth).
 */
import type { Pixels } from './raster';
import { AAN_SCALE, ZIGZAG } from './jpeg-decode';

const STD_LUMA_Q = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103,
  77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const STD_CHROMA_Q = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

const DC_LUMA_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_CHROMA_BITS = [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_LUMA_BITS = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d];
const AC_CHROMA_BITS = [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77];
/** AC symbols `run << 4 | size`, `size` from `from` to 10 (the regular tail of the Annex K tables). */
const span = (run: number, from: number) => Array.from({ length: 10 - from + 1 }, (_, i) => (run << 4) | (from + i));
export const AC_LUMA_VALUES = [
  0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42,
  0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35,
  0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67,
  0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98,
  0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
  0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4,
  0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
];
export const AC_CHROMA_VALUES = [
  0x00,
  0x01,
  0x02,
  0x03,
  0x11,
  0x04,
  0x05,
  0x21,
  0x31,
  0x06,
  0x12,
  0x41,
  0x51,
  0x07,
  0x61,
  0x71,
  0x13,
  0x22,
  0x32,
  0x81,
  0x08,
  0x14,
  0x42,
  0x91,
  0xa1,
  0xb1,
  0xc1,
  0x09,
  0x23,
  0x33,
  0x52,
  0xf0,
  0x15,
  0x62,
  0x72,
  0xd1,
  0x0a,
  0x16,
  0x24,
  0x34,
  0xe1,
  0x25,
  0xf1,
  0x17,
  0x18,
  0x19,
  0x1a,
  0x26,
  0x27,
  0x28,
  0x29,
  0x2a,
  0x35,
  0x36,
  0x37,
  0x38,
  0x39,
  0x3a,
  ...[
    span(4, 3),
    span(5, 3),
    span(6, 3),
    span(7, 3),
    span(8, 2),
    span(9, 2),
    span(10, 2),
    span(11, 2),
    span(12, 2),
    span(13, 2),
    span(14, 2),
    span(15, 2),
  ].flat(),
];

interface Codes {
  code: Uint16Array;
  size: Uint8Array;
}

function codesOf(bits: number[], values: number[]): Codes {
  const code = new Uint16Array(256);
  const size = new Uint8Array(256);
  let c = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < bits[len - 1]; i++, k++, c++) {
      code[values[k]] = c;
      size[values[k]] = len;
    }
    c <<= 1;
  }
  return { code, size };
}

const DC_LUMA = codesOf(DC_LUMA_BITS, DC_VALUES);
const DC_CHROMA = codesOf(DC_CHROMA_BITS, DC_VALUES);
const AC_LUMA = codesOf(AC_LUMA_BITS, AC_LUMA_VALUES);
const AC_CHROMA = codesOf(AC_CHROMA_BITS, AC_CHROMA_VALUES);

/** Quantization table for `quality` (1..100), in natural order. */
function scaled(std: number[], quality: number): Uint8Array {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const s = q < 50 ? 5000 / q : 200 - q * 2;
  return Uint8Array.from(std, (v) => Math.min(255, Math.max(1, Math.floor((v * s + 50) / 100))));
}

/** Forward DCT (AAN float, as the IJG's jfdctflt.c) of the 8x8 samples at `src[off]` (stride `stride`) into `out`, unscaled. */
function fdct(src: Float32Array, off: number, stride: number, out: Float32Array): void {
  for (let pass = 0; pass < 2; pass++) {
    for (let k = 0; k < 8; k++) {
      // Pass 0: rows of src into out; pass 1: columns of out in place.
      const from = pass === 0 ? src : out;
      const base = pass === 0 ? off + k * stride : k;
      const step = pass === 0 ? 1 : 8;
      const to = pass === 0 ? k * 8 : k;
      const d0 = from[base];
      const d1 = from[base + step];
      const d2 = from[base + 2 * step];
      const d3 = from[base + 3 * step];
      const d4 = from[base + 4 * step];
      const d5 = from[base + 5 * step];
      const d6 = from[base + 6 * step];
      const d7 = from[base + 7 * step];
      const t0 = d0 + d7;
      const t7 = d0 - d7;
      const t1 = d1 + d6;
      const t6 = d1 - d6;
      const t2 = d2 + d5;
      const t5 = d2 - d5;
      const t3 = d3 + d4;
      const t4 = d3 - d4;
      let t10 = t0 + t3;
      const t13 = t0 - t3;
      let t11 = t1 + t2;
      let t12 = t1 - t2;
      out[to] = t10 + t11;
      out[to + 4 * step] = t10 - t11;
      const z1 = (t12 + t13) * 0.707106781;
      out[to + 2 * step] = t13 + z1;
      out[to + 6 * step] = t13 - z1;
      t10 = t4 + t5;
      t11 = t5 + t6;
      t12 = t6 + t7;
      const z5 = (t10 - t12) * 0.382683433;
      const z2 = 0.5411961 * t10 + z5;
      const z4 = 1.306562965 * t12 + z5;
      const z3 = t11 * 0.707106781;
      const z11 = t7 + z3;
      const z13 = t7 - z3;
      out[to + 5 * step] = z13 + z2;
      out[to + 3 * step] = z13 - z2;
      out[to + step] = z11 + z4;
      out[to + 7 * step] = z11 - z4;
    }
  }
}

class Writer {
  buf = new Uint8Array(1 << 16);
  len = 0;
  private acc = 0;
  private nbits = 0;

  private grow(n: number) {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  byte(b: number) {
    this.grow(1);
    this.buf[this.len++] = b;
  }
  bytes(a: ArrayLike<number>) {
    this.grow(a.length);
    this.buf.set(a, this.len);
    this.len += a.length;
  }
  u16(v: number) {
    this.byte(v >> 8);
    this.byte(v & 255);
  }
  /** Entropy-coded bits, with 0xFF stuffing. */
  bits(value: number, n: number) {
    this.acc = (this.acc << n) | (value & ((1 << n) - 1));
    this.nbits += n;
    while (this.nbits >= 8) {
      const b = (this.acc >> (this.nbits - 8)) & 255;
      this.byte(b);
      if (b === 255) this.byte(0);
      this.nbits -= 8;
    }
    this.acc &= (1 << this.nbits) - 1;
  }
  flushBits() {
    if (this.nbits > 0) this.bits(0x7f, 8 - this.nbits);
  }
}

function writeHuffman(w: Writer, cls: number, id: number, bits: number[], values: number[]) {
  w.u16(0xffc4);
  w.u16(2 + 1 + 16 + values.length);
  w.byte((cls << 4) | id);
  w.bytes(bits);
  w.bytes(values);
}

/** Encodes RGBA pixels (alpha ignored: composite on white first if needed) as a baseline JPEG. */
export function encodeJpeg(p: Pixels, quality = 82): Uint8Array {
  const { width, height, data } = p;
  const ql = scaled(STD_LUMA_Q, quality);
  const qc = scaled(STD_CHROMA_Q, quality);
  const w = new Writer();
  w.u16(0xffd8);
  // JFIF APP0
  w.u16(0xffe0);
  w.u16(16);
  w.bytes([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  // DQT (zigzag order)
  w.u16(0xffdb);
  w.u16(2 + 2 * 65);
  w.byte(0);
  for (let k = 0; k < 64; k++) w.byte(ql[ZIGZAG[k]]);
  w.byte(1);
  for (let k = 0; k < 64; k++) w.byte(qc[ZIGZAG[k]]);
  // SOF0
  w.u16(0xffc0);
  w.u16(17);
  w.byte(8);
  w.u16(height);
  w.u16(width);
  w.byte(3);
  w.bytes([1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  writeHuffman(w, 0, 0, DC_LUMA_BITS, DC_VALUES);
  writeHuffman(w, 1, 0, AC_LUMA_BITS, AC_LUMA_VALUES);
  writeHuffman(w, 0, 1, DC_CHROMA_BITS, DC_VALUES);
  writeHuffman(w, 1, 1, AC_CHROMA_BITS, AC_CHROMA_VALUES);
  // SOS
  w.u16(0xffda);
  w.u16(12);
  w.bytes([3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);

  // Reciprocal quantizers in natural order, with the AAN output scaling folded in.
  const recip = (q: Uint8Array) => Float32Array.from(q, (v, i) => 1 / (v * AAN_SCALE[i >> 3] * AAN_SCALE[i & 7] * 8));
  const rl = recip(ql);
  const rc = recip(qc);
  const Y = new Float32Array(256);
  const Cb = new Float32Array(64);
  const Cr = new Float32Array(64);
  const blk = new Float32Array(64);
  const coef = new Int32Array(64);
  const pred = [0, 0, 0];

  const emitBlock = (r: Float32Array, c: number, dc: Codes, ac: Codes) => {
    for (let i = 0; i < 64; i++) coef[i] = Math.round(blk[i] * r[i]);
    const diff = coef[0] - pred[c];
    pred[c] = coef[0];
    const put = (v: number, codes: Codes, run: number) => {
      const a = v < 0 ? -v : v;
      const size = a === 0 ? 0 : 32 - Math.clz32(a);
      const sym = (run << 4) | size;
      w.bits(codes.code[sym], codes.size[sym]);
      if (size) w.bits(v < 0 ? v - 1 : v, size);
    };
    put(diff, dc, 0);
    let run = 0;
    for (let k = 1; k < 64; k++) {
      const v = coef[ZIGZAG[k]];
      if (v === 0) {
        run++;
        continue;
      }
      while (run > 15) {
        w.bits(ac.code[0xf0], ac.size[0xf0]);
        run -= 16;
      }
      put(v, ac, run);
      run = 0;
    }
    if (run > 0) w.bits(ac.code[0], ac.size[0]);
  };

  for (let my = 0; my < height; my += 16) {
    for (let mx = 0; mx < width; mx += 16) {
      Cb.fill(0);
      Cr.fill(0);
      for (let y = 0; y < 16; y++) {
        const sy = Math.min(height - 1, my + y);
        for (let x = 0; x < 16; x++) {
          const sx = Math.min(width - 1, mx + x);
          const i = (sy * width + sx) * 4;
          const r = data[i];
          const g = data[i + 1];
          const b = data[i + 2];
          Y[y * 16 + x] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
          const ci = (y >> 1) * 8 + (x >> 1);
          Cb[ci] += (-0.168736 * r - 0.331264 * g + 0.5 * b) * 0.25;
          Cr[ci] += (0.5 * r - 0.418688 * g - 0.081312 * b) * 0.25;
        }
      }
      for (const [ox, oy] of [
        [0, 0],
        [8, 0],
        [0, 8],
        [8, 8],
      ]) {
        fdct(Y, oy * 16 + ox, 16, blk);
        emitBlock(rl, 0, DC_LUMA, AC_LUMA);
      }
      fdct(Cb, 0, 8, blk);
      emitBlock(rc, 1, DC_CHROMA, AC_CHROMA);
      fdct(Cr, 0, 8, blk);
      emitBlock(rc, 2, DC_CHROMA, AC_CHROMA);
    }
  }
  w.flushBits();
  w.u16(0xffd9);
  return w.buf.slice(0, w.len);
}
