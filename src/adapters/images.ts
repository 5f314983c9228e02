/**
 * Photo variants port: turns an uploaded photo into the fixed-width copies the API serves
 * (lib/image/variants.ts: 320, 640 and 1280 wide, never enlarged, EXIF orientation applied, no
 * metadata kept).
 *
 * - **Cloudflare Images** when the `IMAGES` binding is configured (`[images] binding = "IMAGES"` in
 *   the environment of wrangler.toml): the largest copy is made from the original with
 *   `fit: scale-down`, the smaller ones from it at their exact sizes. JPEG photos stay JPEG; PNG, WebP
 *   and GIF become WebP (which keeps transparency).
 * - **offline** otherwise (`npm start`, tests, deployments without the binding): the Worker decodes,
 *   resizes and re-encodes JPEG and PNG photos itself (lib/image). Opaque photos become JPEG,
 *   photos with transparency PNG; WebP and GIF are refused with a clear message. Large photos are
 *   held to a decode budget (lib/image/raster.ts) and refused beyond it.
 *
 * Either way a photo that cannot be processed is an `ImageError` (the caller answers 400).
 */
import type { Env } from '../env';
import { ImageError } from '../lib/image/raster';
import { JPEG_QUALITY, MAX_VARIANT_HEIGHT, PHOTO_WIDTHS, offlineVariants, variantSizes, type VariantType, type Variants } from '../lib/image/variants';

export { ImageError };
export type PhotoEngine = 'cloudflare-images' | 'offline';

const streamOf = (b: Uint8Array) => new Blob([b]).stream();

async function viaImagesBinding(images: ImagesBinding, bytes: Uint8Array, mime: string): Promise<Variants> {
  const contentType: VariantType = mime === 'image/jpeg' ? 'image/jpeg' : 'image/webp';
  const format = { format: contentType, quality: JPEG_QUALITY } as const;
  const run = async (input: Uint8Array, transform: ImageTransform) =>
    new Uint8Array(await (await images.input(streamOf(input)).transform(transform).output(format)).response().arrayBuffer());
  try {
    const original = await images.info(streamOf(bytes));
    const top = await run(bytes, { width: PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1], height: MAX_VARIANT_HEIGHT, fit: 'scale-down' });
    const info = await images.info(streamOf(top));
    if (!('width' in info)) throw new ImageError('unsupported', 'Vector images are not accepted as photos');
    const largest = { width: info.width, height: info.height };
    const variants: Variants['variants'] = [];
    for (const s of variantSizes(largest)) {
      variants.push({ ...s, bytes: s.width === largest.width ? top : await run(top, { width: s.width, height: s.height, fit: 'squeeze' }) });
    }
    // The source's size as it is seen: the service applies the EXIF orientation, `info` may not.
    let source = 'width' in original ? { width: original.width, height: original.height } : largest;
    if (largest.width !== largest.height && source.width > source.height !== largest.width > largest.height)
      source = { width: source.height, height: source.width };
    return { source, contentType, variants };
  } catch (err) {
    if (err instanceof ImageError) throw err;
    throw new ImageError('corrupt', `The image could not be processed (${err instanceof Error ? err.message : String(err)})`);
  }
}

export type PhotoVariants = Variants & { engine: PhotoEngine };

/** The variants of a photo whose sniffed type is `mime` (JPEG, PNG, WebP or GIF). */
export async function photoVariants(env: Pick<Env, 'IMAGES'>, bytes: Uint8Array, mime: string): Promise<PhotoVariants> {
  if (env.IMAGES) return { ...(await viaImagesBinding(env.IMAGES, bytes, mime)), engine: 'cloudflare-images' };
  return { ...(await offlineVariants(bytes, mime)), engine: 'offline' };
}
