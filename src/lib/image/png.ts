/**
 * PNG decoder and encoder. zlib (de)compression is the runtime's own (`DecompressionStream` and
 * `CompressionStream` with the `deflate` format, which is zlib-wrapped as PNG needs). The decoder
 * takes every bit depth and colour type, palettes, tRNS transparency and Adam7 interlacing; the
 * encoder writes 8-bit RGB or RGBA with a filter chosen per row.
 */
import { checkBudget, ImageError, type Pixels, type Raster } from './raster';

const corrupt = (what: string) => new ImageError('corrupt', `The PNG is damaged or truncated (${what})`);
const be32 = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]);

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (ISO-HDLC), as PNG chunks and zip entries carry it. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Inflates a zlib stream into exactly `size` bytes (more is an error: the file lies about its size). */
async function inflateInto(chunks: Uint8Array[], size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  let at = 0;
  const stream = new Blob(chunks).stream().pipeThrough(new DecompressionStream('deflate'));
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (at + value.length > size) throw corrupt('more image data than its size');
      out.set(value, at);
      at += value.length;
    }
  } catch (err) {
    if (err instanceof ImageError) throw err;
    if (at < size) throw corrupt('compressed data');
  }
  if (at < size) throw corrupt('image data ends early');
  return out;
}

async function deflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** Reverses the filters of `rows` rows of `rowBytes` bytes (each after its filter byte) in place. */
function unfilter(buf: Uint8Array, start: number, rows: number, rowBytes: number, bpp: number): void {
  let prev = -1;
  for (let y = 0; y < rows; y++) {
    const f = buf[start + y * (rowBytes + 1)];
    const o = start + y * (rowBytes + 1) + 1;
    switch (f) {
      case 0:
        break;
      case 1:
        for (let i = bpp; i < rowBytes; i++) buf[o + i] = (buf[o + i] + buf[o + i - bpp]) & 255;
        break;
      case 2:
        if (prev >= 0) for (let i = 0; i < rowBytes; i++) buf[o + i] = (buf[o + i] + buf[prev + i]) & 255;
        break;
      case 3:
        for (let i = 0; i < rowBytes; i++) {
          const left = i >= bpp ? buf[o + i - bpp] : 0;
          const up = prev >= 0 ? buf[prev + i] : 0;
          buf[o + i] = (buf[o + i] + ((left + up) >> 1)) & 255;
        }
        break;
      case 4:
        for (let i = 0; i < rowBytes; i++) {
          const left = i >= bpp ? buf[o + i - bpp] : 0;
          const up = prev >= 0 ? buf[prev + i] : 0;
          const ul = prev >= 0 && i >= bpp ? buf[prev + i - bpp] : 0;
          buf[o + i] = (buf[o + i] + paeth(left, up, ul)) & 255;
        }
        break;
      default:
        throw corrupt(`filter type ${f}`);
    }
    prev = o;
  }
}

const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

export async function decodePng(d: Uint8Array): Promise<Raster> {
  if (d.length < 33 || be32(d, 0) !== 0x89504e47) throw corrupt('signature');
  let width = 0;
  let height = 0;
  let depth = 0;
  let type = 0;
  let interlace = 0;
  let palette: Uint8Array | null = null;
  let trns: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  for (let p = 8; p + 8 <= d.length;) {
    const len = be32(d, p);
    const name = String.fromCharCode(d[p + 4], d[p + 5], d[p + 6], d[p + 7]);
    const body = d.subarray(p + 8, p + 8 + len);
    if (body.length < len) throw corrupt(`${name} chunk`);
    if (name === 'IHDR') {
      width = be32(body, 0);
      height = be32(body, 4);
      depth = body[8];
      type = body[9];
      interlace = body[12];
    } else if (name === 'PLTE') palette = body;
    else if (name === 'tRNS') trns = body;
    else if (name === 'IDAT') idat.push(body);
    else if (name === 'IEND') break;
    p += 12 + len;
  }
  const channels = ({ 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as Record<number, number>)[type];
  if (!channels || ![1, 2, 4, 8, 16].includes(depth) || (type === 3 && !palette)) throw corrupt('header');
  if (!idat.length) throw corrupt('no image data');
  const bitsPerPixel = channels * depth;
  const bpp = Math.max(1, bitsPerPixel >> 3);
  const rowBytesOf = (w: number) => Math.ceil((w * bitsPerPixel) / 8);

  const passes = interlace ? ADAM7.map(([x0, y0, dx, dy]) => ({ x0, y0, dx, dy, w: Math.ceil((width - x0) / dx), h: Math.ceil((height - y0) / dy) })) : null;
  const rawSize = passes ? passes.reduce((n, ps) => n + (ps.w && ps.h ? ps.h * (rowBytesOf(ps.w) + 1) : 0), 0) : height * (rowBytesOf(width) + 1);
  checkBudget(width, height, rawSize + (passes ? height * (rowBytesOf(width) + 1) : 0));
  let raw = await inflateInto(idat, rawSize);

  if (passes) {
    // De-interlace into one non-interlaced buffer (filter bytes kept as 0).
    const rowBytes = rowBytesOf(width);
    const full = new Uint8Array(height * (rowBytes + 1));
    let at = 0;
    for (const ps of passes) {
      if (!ps.w || !ps.h) continue;
      const rb = rowBytesOf(ps.w);
      unfilter(raw, at, ps.h, rb, bpp);
      for (let y = 0; y < ps.h; y++) {
        const src = at + y * (rb + 1) + 1;
        const dst = (ps.y0 + y * ps.dy) * (rowBytes + 1) + 1;
        for (let x = 0; x < ps.w; x++) {
          const fx = ps.x0 + x * ps.dx;
          if (bitsPerPixel >= 8) {
            full.set(raw.subarray(src + x * bpp, src + x * bpp + bpp), dst + fx * bpp);
          } else {
            const perByte = 8 / bitsPerPixel;
            const v = (raw[src + Math.floor(x / perByte)] >> ((perByte - 1 - (x % perByte)) * bitsPerPixel)) & ((1 << bitsPerPixel) - 1);
            full[dst + Math.floor(fx / perByte)] |= v << ((perByte - 1 - (fx % perByte)) * bitsPerPixel);
          }
        }
      }
      at += ps.h * (rb + 1);
    }
    raw = full;
  } else unfilter(raw, 0, height, rowBytesOf(width), bpp);

  const rowBytes = rowBytesOf(width);
  const maxv = (1 << depth) - 1;
  const sample = (line: number, i: number): number => {
    // The i-th sample of the row, scaled to 8 bits (16-bit: the high byte).
    if (depth === 8) return raw[line + i];
    if (depth === 16) return raw[line + i * 2];
    const perByte = 8 / depth;
    const v = (raw[line + Math.floor(i / perByte)] >> ((perByte - 1 - (i % perByte)) * depth)) & maxv;
    return type === 3 ? v : Math.round((v * 255) / maxv);
  };
  const key16 = (i: number) => (trns ? (trns[i * 2] << 8) | trns[i * 2 + 1] : -1);
  const fullSample = (line: number, i: number) =>
    depth === 16 ? (raw[line + i * 2] << 8) | raw[line + i * 2 + 1] : depth === 8 ? raw[line + i] : sample(line, i);
  const trnsRaw = (v: number) => (depth === 16 || depth === 8 ? v : Math.round((v * maxv) / 255));

  return {
    width,
    height,
    alpha: type === 4 || type === 6 || !!trns,
    orientation: 1,
    row(y, out) {
      const line = y * (rowBytes + 1) + 1;
      for (let x = 0; x < width; x++) {
        const o = x * 4;
        switch (type) {
          case 0: {
            const g = sample(line, x);
            out[o] = out[o + 1] = out[o + 2] = g;
            out[o + 3] = trns && trnsRaw(fullSample(line, x)) === key16(0) ? 0 : 255;
            break;
          }
          case 2: {
            out[o] = sample(line, x * 3);
            out[o + 1] = sample(line, x * 3 + 1);
            out[o + 2] = sample(line, x * 3 + 2);
            out[o + 3] =
              trns && fullSample(line, x * 3) === key16(0) && fullSample(line, x * 3 + 1) === key16(1) && fullSample(line, x * 3 + 2) === key16(2) ? 0 : 255;
            break;
          }
          case 3: {
            const i = sample(line, x);
            out[o] = palette![i * 3] ?? 0;
            out[o + 1] = palette![i * 3 + 1] ?? 0;
            out[o + 2] = palette![i * 3 + 2] ?? 0;
            out[o + 3] = trns && i < trns.length ? trns[i] : 255;
            break;
          }
          case 4: {
            const g = sample(line, x * 2);
            out[o] = out[o + 1] = out[o + 2] = g;
            out[o + 3] = sample(line, x * 2 + 1);
            break;
          }
          default: {
            out[o] = sample(line, x * 4);
            out[o + 1] = sample(line, x * 4 + 1);
            out[o + 2] = sample(line, x * 4 + 2);
            out[o + 3] = sample(line, x * 4 + 3);
          }
        }
      }
    },
  };
}

/** A PNG chunk: length, type, data and the CRC of type and data. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** Encodes RGBA pixels as an 8-bit PNG (RGB when `opaque`), every row with the Paeth filter. */
export async function encodePng(p: Pixels, opaque: boolean): Promise<Uint8Array> {
  const { width, height, data } = p;
  const ch = opaque ? 3 : 4;
  const rowBytes = width * ch;
  const raw = new Uint8Array(height * (rowBytes + 1));
  for (let y = 0; y < height; y++) {
    const o = y * (rowBytes + 1) + 1;
    raw[o - 1] = 4;
    const cur = y * width * 4;
    const up = cur - width * 4;
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < ch; c++) {
        const i = cur + x * 4 + c;
        const a = x ? data[i - 4] : 0;
        const b = y ? data[up + x * 4 + c] : 0;
        const d = x && y ? data[up + x * 4 + c - 4] : 0;
        raw[o + x * ch + c] = (data[i] - paeth(a, b, d)) & 255;
      }
    }
  }
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, opaque ? 2 : 6, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', await deflate(raw)),
    pngChunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
  let at = 0;
  for (const x of parts) {
    out.set(x, at);
    at += x.length;
  }
  return out;
}
