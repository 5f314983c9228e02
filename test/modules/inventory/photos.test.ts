/**
 * Item photos: resized at upload into fixed-width variants stored in R2 beside a private original,
 * served publicly with immutable cache headers, ETag/304 and the Workers cache in front of R2; the
 * public catalog lists them with srcset and size; removing one deletes its files.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env, SELF } from 'cloudflare:test';
import { api, BASE, createOperator, expectError, get, post, type Operator } from '../../harness';
import { decodeJpeg } from '../../../src/lib/image/jpeg-decode';
import { createItem, form, imageSize, photoJpeg, photoPng, rentalData } from './helpers';

const upload = (op: Operator, id: string, bytes: Uint8Array, name = 'photo.jpg') =>
  api('POST', `/inventory/photo/${id}`, { key: op.adminKey, rawBody: form(bytes, name, 'application/octet-stream') });
const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
  const res = await SELF.fetch(url, { headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
};

let op: Operator;
let item: { inventory_id: string };
let photo: any;

beforeAll(async () => {
  op = await createOperator({ name: 'Photo Marina' });
  item = await createItem(op, rentalData(op, { name: 'Harbour Cat 28' }));
  photo = await upload(op, item.inventory_id, photoJpeg(700, 480));
  expect(photo.status, photo.text).toBe(200);
});

describe('POST /inventory/photo/{inventory_id} (variants)', () => {
  it('stores the original privately and variants at 320, 640 and the photo’s own width (never enlarged)', async () => {
    const b = photo.body;
    expect(b).toMatchObject({ contentType: 'image/jpeg', variantType: 'image/jpeg', width: 700, height: 480, version: 2 });
    expect(b.photoId).toMatch(/^[0-9a-z]{26}-700x480$/);
    const base = `${BASE}/inventory/photos/${op.customerId}/${item.inventory_id}/${b.photoId}`;
    expect(b.variants).toEqual([
      { width: 320, height: 219, url: `${base}/w320.jpg` },
      { width: 640, height: 439, url: `${base}/w640.jpg` },
      { width: 700, height: 480, url: `${base}/w700.jpg` },
    ]);
    expect(b.url).toBe(`${base}/w700.jpg`);
    expect(b.images).toEqual([b.url]);
    expect(b.key).toBe(`${op.customerId}/inventory/${item.inventory_id}/photos/${b.photoId}/original.jpg`);
    const stored = await env.FILES.list({ prefix: `${op.customerId}/inventory/${item.inventory_id}/photos/${b.photoId}/` });
    expect(stored.objects.map((o) => o.key.split('/').pop()).sort()).toEqual(['original.jpg', 'w320.jpg', 'w640.jpg', 'w700.jpg']);

    // Each variant is a real JPEG of its size, with a year-long immutable cache and an ETag.
    for (const v of b.variants) {
      const { res, bytes } = await fetchBytes(v.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('etag')).toBeTruthy();
      expect(imageSize(bytes)).toEqual({ width: v.width, height: v.height });
    }
    // The pixels survive: the top-left quadrant of the smallest variant is still red.
    const small = decodeJpeg((await fetchBytes(b.variants[0].url)).bytes);
    const row = new Uint8Array(small.width * 4);
    small.row(40, row);
    expect(row[40 * 4]).toBeGreaterThan(190);
    expect(row[40 * 4 + 1]).toBeLessThan(70);
  });

  it('answers from the Workers cache after the first request, and 304 for a matching If-None-Match', async () => {
    const url = photo.body.variants[1].url;
    const first = await fetchBytes(`${url}?first`);
    const again = await fetchBytes(url);
    expect(again.res.headers.get('x-cache')).toBe('HIT');
    expect(again.bytes).toEqual(first.bytes);
    const etag = again.res.headers.get('etag')!;
    const cond = await SELF.fetch(url, { headers: { 'if-none-match': etag } });
    expect(cond.status).toBe(304);
    expect(cond.headers.get('etag')).toBe(etag);
    expect(cond.headers.get('cache-control')).toContain('immutable');
    expect(await cond.text()).toBe('');
    // The cache sits in front of R2: with the stored file gone, the cached copy still answers.
    const key = `${op.customerId}/inventory/${item.inventory_id}/photos/${photo.body.photoId}/w640.jpg`;
    const kept = await env.FILES.get(key);
    const keptBytes = new Uint8Array(await kept!.arrayBuffer());
    await env.FILES.delete(key);
    const cached = await fetchBytes(url);
    expect(cached.res.status).toBe(200);
    expect(cached.bytes).toEqual(first.bytes);
    await env.FILES.put(key, keptBytes, { httpMetadata: kept!.httpMetadata, customMetadata: kept!.customMetadata });
  });

  it('serves only photo variants: another width 404, a bad name 400, the original and other files unreachable', async () => {
    const b = photo.body;
    const base = `/inventory/photos/${op.customerId}/${item.inventory_id}/${b.photoId}`;
    const missing = await get(`${base}/w1280.jpg`);
    expectError(missing, 404, 'no_such_variant');
    expect(missing.body.widths).toEqual([320, 640, 700]);
    expectError(await get(`${base}/w640.png`), 404, 'not_found');
    expectError(await get(`${base}/original.jpg`), 400, 'validation_failed');
    expectError(await get(`${base}/w640.jpg.pdf`), 400, 'validation_failed');
    expectError(await get(`/inventory/media/${op.customerId}/${item.inventory_id}/photos/${b.photoId}`), 400, 'validation_failed');
    // Another operator's prefix with the same photo id: nothing there.
    const other = await createOperator();
    expectError(await get(`/inventory/photos/${other.customerId}/${item.inventory_id}/${b.photoId}/w640.jpg`), 404, 'not_found');
    // A file under the operator's prefix that is not a variant (a document) is not served even at a variant's name.
    const doc = `${op.customerId}/inventory/${item.inventory_id}/photos/${b.photoId.replace(/^.{4}/, 'zzzz')}/w320.jpg`;
    await env.FILES.put(doc, new TextEncoder().encode('%PDF-1.7 contract'), { customMetadata: { kind: 'document' } });
    expectError(await get(`/inventory/photos/${op.customerId}/${item.inventory_id}/${doc.split('/')[4]}/w320.jpg`), 404, 'not_found');
  });

  it('turns a photo upright by its EXIF orientation and keeps transparency as PNG', async () => {
    const turned = await upload(op, item.inventory_id, photoJpeg(400, 240, 6));
    expect(turned.status, turned.text).toBe(200);
    expect(turned.body).toMatchObject({ width: 240, height: 400 });
    expect(turned.body.variants.map((v: any) => [v.width, v.height])).toEqual([[240, 400]]);
    const { bytes } = await fetchBytes(turned.body.url);
    const upright = decodeJpeg(bytes);
    expect([upright.width, upright.height, upright.orientation]).toEqual([240, 400, 1]);
    // Rotated 90° clockwise: the stored bottom-left quadrant (blue) is now top-left.
    const row = new Uint8Array(upright.width * 4);
    upright.row(20, row);
    expect(row[20 * 4 + 2]).toBeGreaterThan(180);
    expect(row[20 * 4]).toBeLessThan(80);

    const clear = await upload(op, item.inventory_id, await photoPng(360, 200, 128), 'logo.png');
    expect(clear.status, clear.text).toBe(200);
    expect(clear.body).toMatchObject({ contentType: 'image/png', variantType: 'image/png' });
    expect(clear.body.variants.map((v: any) => v.width)).toEqual([320, 360]);
    const png = await fetchBytes(clear.body.variants[0].url);
    expect(png.res.headers.get('content-type')).toBe('image/png');
    expect(imageSize(png.bytes)).toEqual({ width: 320, height: 178 });
  });

  it('refuses photos it cannot process with 400, storing nothing', async () => {
    const fresh = await createItem(op, rentalData(op, { name: 'Spare Skiff' }));
    // A JPEG header claiming 9000 x 9000 pixels: refused before decoding.
    const huge = photoJpeg(16, 16);
    const sof = huge.findIndex((b, i) => b === 0xff && huge[i + 1] === 0xc0);
    huge.set([0x23, 0x28, 0x23, 0x28], sof + 5);
    expectError(await upload(op, fresh.inventory_id, huge), 400, 'image_too_large');
    const cut = photoJpeg(64, 64).slice(0, 200);
    expectError(await upload(op, fresh.inventory_id, cut), 400, 'image_unreadable');
    const webp = new Uint8Array(64);
    webp.set([...'RIFF'].map((c) => c.charCodeAt(0)));
    webp.set(
      [...'WEBPVP8 '].map((c) => c.charCodeAt(0)),
      8,
    );
    const refused = await upload(op, fresh.inventory_id, webp, 'a.webp');
    expectError(refused, 400, 'unsupported_file_type');
    expect(refused.body.message).toContain('IMAGES');
    expect((await env.FILES.list({ prefix: `${op.customerId}/inventory/${fresh.inventory_id}/` })).objects).toHaveLength(0);
  });
});

describe('photos in the public catalog, and removing one', () => {
  it('lists src, srcset, size and alt; a photo taken out of data.images loses its files', async () => {
    const cat = await get(`/public/widget/catalog?customerId=${op.customerId}`);
    expect(cat.status, cat.text).toBe(200);
    const listed = cat.body.items.find((i: any) => i.inventoryId === item.inventory_id);
    const v = photo.body.variants;
    expect(listed.photos[0]).toEqual({
      src: v[1].url,
      srcset: `${v[0].url} 320w, ${v[1].url} 640w, ${v[2].url} 700w`,
      width: 700,
      height: 480,
      alt: 'Harbour Cat 28',
    });
    expect(listed.image).toBe(v[1].url);

    const setup = await get(`/inventory/customer?customer_id=${op.customerId}`, { key: op.adminKey });
    const data = setup.body.data.find((d: any) => d.inventory_id === item.inventory_id || d.id === item.inventory_id).data;
    const images: string[] = data.images;
    expect(images[0]).toBe(photo.body.url);
    const r = await post('/inventory/setup', { inventory_id: item.inventory_id, data: { ...data, images: images.slice(1) } }, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    const left = await env.FILES.list({ prefix: `${op.customerId}/inventory/${item.inventory_id}/photos/${photo.body.photoId}/` });
    expect(left.objects).toHaveLength(0);
    expectError(await get(new URL(v[0].url).pathname), 404, 'not_found');
    const after = await get(`/public/widget/catalog?customerId=${op.customerId}`);
    expect(after.body.items.find((i: any) => i.inventoryId === item.inventory_id).photos).toHaveLength(images.length - 1);
  });
});
