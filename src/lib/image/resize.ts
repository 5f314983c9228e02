/**
 * Downscaling by area averaging (each target pixel is the mean of the source area it covers, with
 * fractional edge weights), in two separable passes that read the source one row at a time, with
 * premultiplied alpha; then the EXIF orientation is applied to the (small) result.
 */
import type { Pixels, Raster } from './raster';

interface Taps {
  /** For each source index: first target index, its weight, and the weight of the next target index. */
  first: Int32Array;
  w0: Float32Array;
  w1: Float32Array;
}

/** Area weights of `src` samples onto `dst` samples (dst <= src). */
function taps(src: number, dst: number): Taps {
  const first = new Int32Array(src);
  const w0 = new Float32Array(src);
  const w1 = new Float32Array(src);
  const scale = dst / src; // target units per source sample (<= 1)
  for (let j = 0; j < src; j++) {
    const a = j * scale;
    const b = (j + 1) * scale;
    const i = Math.min(dst - 1, Math.floor(a));
    first[j] = i;
    if (b <= i + 1 || i + 1 >= dst) {
      w0[j] = b - a;
      w1[j] = 0;
    } else {
      w0[j] = i + 1 - a;
      w1[j] = b - (i + 1);
    }
  }
  // Each target sample receives a total weight of 1 (its width in target units): the sums are means.
  return { first, w0, w1 };
}

/**
 * Resizes `src` (in its stored orientation) to `width` x `height` (no larger than the source).
 * Answers RGBA pixels and whether every pixel is opaque.
 */
export function resizeRaster(src: Raster, width: number, height: number): Pixels & { opaque: boolean } {
  if (width > src.width || height > src.height || width < 1 || height < 1) throw new Error(`resize ${src.width}x${src.height} -> ${width}x${height}`);
  const sw = src.width;
  const sh = src.height;
  if (width === sw && height === sh) return copyRaster(src);
  const tx = taps(sw, width);
  const ty = taps(sh, height);
  const line = new Uint8Array(sw * 4);
  const hrow = new Float32Array(width * 4);
  // Two accumulating target rows (a source row contributes to at most two).
  let acc0 = new Float32Array(width * 4);
  let acc1 = new Float32Array(width * 4);
  let accRow = 0;
  const out = new Uint8Array(width * height * 4);
  let opaque = true;

  const emit = (row: number, acc: Float32Array) => {
    const o = row * width * 4;
    for (let x = 0; x < width; x++) {
      const i = x * 4;
      const a = acc[i + 3];
      if (a < 254.5) opaque = false;
      if (a <= 0) {
        out[o + i] = out[o + i + 1] = out[o + i + 2] = out[o + i + 3] = 0;
        continue;
      }
      const k = 255 / a;
      const r = acc[i] * k;
      const g = acc[i + 1] * k;
      const b = acc[i + 2] * k;
      out[o + i] = r > 255 ? 255 : r + 0.5;
      out[o + i + 1] = g > 255 ? 255 : g + 0.5;
      out[o + i + 2] = b > 255 ? 255 : b + 0.5;
      out[o + i + 3] = a > 255 ? 255 : a + 0.5;
    }
  };

  /** Writes the finished target row and starts the next one. */
  const advance = () => {
    emit(accRow, acc0);
    const t = acc0;
    acc0 = acc1;
    acc1 = t;
    acc1.fill(0);
    accRow++;
  };

  for (let y = 0; y < sh; y++) {
    src.row(y, line);
    hrow.fill(0);
    for (let x = 0; x < sw; x++) {
      const s = x * 4;
      const a = line[s + 3];
      if (a === 0) continue;
      let r = line[s];
      let g = line[s + 1];
      let b = line[s + 2];
      if (a !== 255) {
        const pa = a / 255;
        r *= pa;
        g *= pa;
        b *= pa;
      }
      const t = tx.first[x] * 4;
      const w0 = tx.w0[x];
      hrow[t] += r * w0;
      hrow[t + 1] += g * w0;
      hrow[t + 2] += b * w0;
      hrow[t + 3] += a * w0;
      const w1 = tx.w1[x];
      if (w1 > 0) {
        hrow[t + 4] += r * w1;
        hrow[t + 5] += g * w1;
        hrow[t + 6] += b * w1;
        hrow[t + 7] += a * w1;
      }
    }
    const target = ty.first[y];
    while (accRow < target) advance();
    const v0 = ty.w0[y];
    const v1 = ty.w1[y];
    for (let i = 0; i < hrow.length; i++) {
      const h = hrow[i];
      if (h === 0) continue;
      acc0[i] += h * v0;
      if (v1 > 0) acc1[i] += h * v1;
    }
  }
  while (accRow < height) advance();
  return { width, height, data: out, opaque };
}

/** The raster's pixels as they are (a variant of the source's own size). */
function copyRaster(src: Raster): Pixels & { opaque: boolean } {
  const out = new Uint8Array(src.width * src.height * 4);
  const line = new Uint8Array(src.width * 4);
  let opaque = true;
  for (let y = 0; y < src.height; y++) {
    src.row(y, line);
    if (opaque) for (let i = 3; i < line.length; i += 4) if (line[i] !== 255) opaque = false;
    out.set(line, y * src.width * 4);
  }
  return { width: src.width, height: src.height, data: out, opaque };
}

/** Applies EXIF orientation `o` (1..8) to RGBA pixels: the answer is the image as it is meant to be seen. */
export function orient(p: Pixels, o: number): Pixels {
  if (o <= 1 || o > 8) return p;
  const { width: w, height: h } = p;
  const swap = o >= 5;
  const W = swap ? h : w;
  const H = swap ? w : h;
  const src = new Uint32Array(p.data.buffer, p.data.byteOffset, w * h);
  const out = new Uint8Array(W * H * 4);
  const dst = new Uint32Array(out.buffer);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let sx: number, sy: number;
      switch (o) {
        case 2:
          sx = w - 1 - x;
          sy = y;
          break;
        case 3:
          sx = w - 1 - x;
          sy = h - 1 - y;
          break;
        case 4:
          sx = x;
          sy = h - 1 - y;
          break;
        case 5:
          sx = y;
          sy = x;
          break;
        case 6:
          sx = y;
          sy = h - 1 - x;
          break;
        case 7:
          sx = w - 1 - y;
          sy = h - 1 - x;
          break;
        default:
          sx = w - 1 - y;
          sy = x;
      }
      dst[y * W + x] = src[sy * w + sx];
    }
  }
  return { width: W, height: H, data: out };
}
