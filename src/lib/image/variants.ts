/**
 * Photo variants: the fixed widths a photo is served at, and the offline pipeline that makes them
 * (decode, orient, downscale, encode) with the codec of this folder. Never upscales: a photo
 * narrower than a width simply has no variant of that width, and its largest variant is its own size.
 */
import { decodeJpeg } from './jpeg-decode';
import { encodeJpeg } from './jpeg-encode';
import { decodePng, encodePng } from './png';
import { ImageError, pixelsRaster, type Raster } from './raster';
import { orient, resizeRaster } from './resize';

/** The widths photos are served at (a smaller original also gets a variant of its own width). */
export const PHOTO_WIDTHS = [320, 640, 1280] as const;
/** The tallest variant (a very tall image is narrowed to fit). */
export const MAX_VARIANT_HEIGHT = 2560;
export const JPEG_QUALITY = 82;

export interface Size {
  width: number;
  height: number;
}

/** The largest variant of an image seen at `width` x `height`. */
export function largestVariant(width: number, height: number): Size {
  let w = Math.min(width, PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1]);
  let h = Math.max(1, Math.round((height * w) / width));
  if (h > MAX_VARIANT_HEIGHT) {
    h = MAX_VARIANT_HEIGHT;
    w = Math.max(1, Math.round((width * h) / height));
  }
  return { width: w, height: h };
}

/** Every variant, smallest first, from the largest one's size: the standard widths below it, then itself. */
export function variantSizes(largest: Size): Size[] {
  const smaller = PHOTO_WIDTHS.filter((w) => w < largest.width).map((w) => ({
    width: w,
    height: Math.max(1, Math.round((largest.height * w) / largest.width)),
  }));
  return [...smaller, largest];
}

export type VariantType = 'image/jpeg' | 'image/png' | 'image/webp';

export interface Variants {
  /** The photo as it is meant to be seen (EXIF orientation applied). */
  source: Size;
  contentType: VariantType;
  /** Smallest first; the last is the largest. */
  variants: (Size & { bytes: Uint8Array })[];
}

/** The offline pipeline: JPEG and PNG photos, decoded and resized in the Worker. */
export async function offlineVariants(bytes: Uint8Array, mime: string): Promise<Variants> {
  let raster: Raster;
  if (mime === 'image/jpeg') raster = decodeJpeg(bytes);
  else if (mime === 'image/png') raster = await decodePng(bytes);
  else {
    throw new ImageError(
      'unsupported',
      `This server resizes JPEG and PNG photos itself; ${mime} photos need the Cloudflare Images binding (IMAGES). Send the photo as JPEG or PNG.`,
    );
  }
  const turned = raster.orientation >= 5;
  const source = turned ? { width: raster.height, height: raster.width } : { width: raster.width, height: raster.height };
  const top = largestVariant(source.width, source.height);
  const resized = resizeRaster(raster, turned ? top.height : top.width, turned ? top.width : top.height);
  const largest = orient(resized, raster.orientation);
  const opaque = resized.opaque;
  const contentType: VariantType = opaque ? 'image/jpeg' : 'image/png';
  const encode = (p: { width: number; height: number; data: Uint8Array }) => (opaque ? Promise.resolve(encodeJpeg(p, JPEG_QUALITY)) : encodePng(p, false));
  const sizes = variantSizes(top);
  const variants: Variants['variants'] = [];
  for (const s of sizes) {
    const px = s.width === largest.width && s.height === largest.height ? largest : resizeRaster(pixelsRaster(largest), s.width, s.height);
    variants.push({ ...s, bytes: await encode(px) });
  }
  return { source, contentType, variants };
}
