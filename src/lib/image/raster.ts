/**
 * The pixel model of the offline image codec: a decoded image reads out one RGBA row at a time,
 * top to bottom, so the resizer never needs a full-size RGBA copy of a large photo.
 */

/** A decoded image in its stored orientation. */
export interface Raster {
  width: number;
  height: number;
  /** Whether the format can carry transparency (a PNG with an alpha channel or tRNS). */
  alpha: boolean;
  /** EXIF orientation (1..8); 1 when absent. */
  orientation: number;
  /** Writes row `y` as 8-bit RGBA into `out` (length >= width * 4). Rows are asked for in increasing order. */
  row(y: number, out: Uint8Array): void;
}

/** An image held as 8-bit RGBA. */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Why an image cannot be processed; the caller turns it into its own 400. */
export class ImageError extends Error {
  constructor(
    readonly reason: 'unsupported' | 'corrupt' | 'too_large',
    message: string,
  ) {
    super(message);
  }
}

/** Largest image the offline codec decodes (pixels), and the most memory (bytes) one decode may hold. */
export const MAX_DECODE_PIXELS = 40_000_000;
export const MAX_DECODE_BYTES = 72 * 1024 * 1024;

export function checkBudget(width: number, height: number, bytes: number): void {
  if (!width || !height) throw new ImageError('corrupt', 'The image has no width or height');
  const mp = (n: number) => (n / 1_000_000).toFixed(1);
  if (width * height > MAX_DECODE_PIXELS || bytes > MAX_DECODE_BYTES) {
    throw new ImageError(
      'too_large',
      `The image is ${width}x${height} (${mp(width * height)} megapixels, ${Math.ceil(bytes / (1024 * 1024))} MB to decode); ` +
        `this server processes photos up to ${MAX_DECODE_BYTES / (1024 * 1024)} MB decoded (about 16 megapixels for a JPEG with 4:2:0 colour, ` +
        `which is what phones and cameras write). Send a smaller copy.`,
    );
  }
}

/** A raster over RGBA pixels held in memory. */
export function pixelsRaster(p: Pixels): Raster {
  const stride = p.width * 4;
  return {
    width: p.width,
    height: p.height,
    alpha: true,
    orientation: 1,
    row: (y, out) => out.set(p.data.subarray(y * stride, (y + 1) * stride)),
  };
}
