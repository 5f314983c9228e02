import { describe, it, expect } from 'vitest';
import { env, SELF } from 'cloudflare:test';
import { api, BASE, createOperator, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity, otherOperator } from '../../security';
import { createItem, form, imageSize, mp4Bytes, photoJpeg, photoPng, pngBytes, rentalData } from './helpers';

const upload = (op: Operator | { adminKey: string }, kind: 'photo' | 'video', id: string, body: FormData | string, headers: Record<string, string> = {}) =>
  api('POST', `/inventory/${kind}/${id}`, { key: op.adminKey, rawBody: body, headers });

describe('POST /inventory/photo/{inventory_id}', () => {
  it('stores a PNG in R2, appends its largest variant to data.images and serves it publicly', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const bytes = await photoPng(640, 480);
    const r = await upload(op, 'photo', item.inventory_id, form(bytes, 'deck.png', 'image/png'));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      inventory_id: item.inventory_id,
      contentType: 'image/png',
      size: bytes.length,
      width: 640,
      height: 480,
      version: 2,
    });
    expect(r.body.key).toMatch(new RegExp(`^${op.customerId}/inventory/${item.inventory_id}/photos/[a-z0-9]+-640x480/original\\.png$`));
    expect(r.body.url).toBe(`${BASE}/inventory/photos/${op.customerId}/${item.inventory_id}/${r.body.photoId}/w640.jpg`);
    expect(r.body.images).toEqual([r.body.url]);
    const stored = await env.FILES.get(r.body.key);
    expect(stored?.httpMetadata?.contentType).toBe('image/png');
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(bytes);

    // Public, with its type (an opaque PNG is served as JPEG); no credentials needed.
    const res = await SELF.fetch(r.body.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(imageSize(new Uint8Array(await res.arrayBuffer()))).toEqual({ width: 640, height: 480 });

    // A second photo (JPEG, declared with a wrong type) is appended; the type comes from the content.
    const r2 = await upload(op, 'photo', item.inventory_id, form(photoJpeg(400, 300), 'b.bin', 'application/octet-stream'));
    expect(r2.status, r2.text).toBe(200);
    expect(r2.body).toMatchObject({ contentType: 'image/jpeg', width: 400, height: 300, version: 3 });
    expect(r2.body.images).toEqual([r.body.url, r2.body.url]);
    const list = await get(`/inventory/customer?customer_id=${op.customerId}`, { key: op.adminKey });
    expect(list.body.data[0].data.images).toEqual([r.body.url, r2.body.url]);
  });

  it('refuses a text file named .png, an oversize photo, an empty file and a non-multipart body', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const fake = await upload(op, 'photo', item.inventory_id, form('just some text, honestly', 'photo.png', 'image/png'));
    expectError(fake, 400, 'unsupported_file_type');
    expect(fake.body.details[0].allowed).toEqual(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
    const big = await upload(op, 'photo', item.inventory_id, form(pngBytes(1, 1, 10 * 1024 * 1024 + 1), 'big.png'));
    expectError(big, 400, 'file_too_large');
    expectError(await upload(op, 'photo', item.inventory_id, form(new Uint8Array(0), 'empty.png')), 400, 'validation_failed');
    const video = await upload(op, 'photo', item.inventory_id, form(mp4Bytes(), 'clip.png', 'image/png'));
    expectError(video, 400, 'unsupported_file_type');
    expect(video.body.message).toContain('video/mp4');
    const json = await api('POST', `/inventory/photo/${item.inventory_id}`, { key: op.adminKey, body: {} });
    expectError(json, 400, 'bad_request');
    const noFile = new FormData();
    noFile.append('caption', 'hello');
    const missing = await upload(op, 'photo', item.inventory_id, noFile);
    expectError(missing, 400, 'validation_failed');
    expect(missing.body.details[0]).toMatchObject({ field: 'file', code: 'required' });
    // Nothing was stored or recorded.
    const listed = await env.FILES.list({ prefix: `${op.customerId}/` });
    expect(listed.objects).toHaveLength(0);
    const after = await get(`/inventory-pricing?inventory_id=${item.inventory_id}`, { key: op.adminKey });
    expect(after.body.version).toBe(1);
  });

  it('takes a single file part under another field name', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const r = await upload(op, 'photo', item.inventory_id, form(pngBytes(), 'x.png', 'image/png', 'photo'));
    expect(r.status, r.text).toBe(200);
  });

  it("answers 404 for an unknown or another operator's item", async () => {
    const op = await createOperator();
    const intruder = await otherOperator();
    const theirs = await createItem(intruder, rentalData(intruder));
    expectError(await upload(op, 'photo', theirs.inventory_id, form(pngBytes())), 404, 'not_found');
    expectError(await upload(op, 'photo', 'inv_unknown', form(pngBytes())), 404, 'not_found');
  });

  it('is protected', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await checkSecurity(op, { method: 'POST', path: `/inventory/photo/${item.inventory_id}`, body: {}, otherStatus: 404, adminOnly: true });
  });
});

describe('POST /inventory/video/{inventory_id}', () => {
  it('accepts MP4, QuickTime and WebM by content and refuses images and unknown containers', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const mp4 = await upload(op, 'video', item.inventory_id, form(mp4Bytes('mp42'), 'tour.mp4', 'video/mp4'));
    expect(mp4.status, mp4.text).toBe(200);
    expect(mp4.body).toMatchObject({ contentType: 'video/mp4', width: null, height: null });
    expect(mp4.body.key).toMatch(/\/videos\/[a-z0-9]+\.mp4$/);
    const mov = await upload(op, 'video', item.inventory_id, form(mp4Bytes('qt  '), 'tour.mov', 'video/quicktime'));
    expect(mov.body.contentType).toBe('video/quicktime');
    const webm = new Uint8Array(64);
    webm.set([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, ...[...'webm'].map((c) => c.charCodeAt(0))]);
    const wb = await upload(op, 'video', item.inventory_id, form(webm, 'tour.webm', 'video/webm'));
    expect(wb.body.contentType).toBe('video/webm');
    expect(wb.body.videos).toEqual([mp4.body.url, mov.body.url, wb.body.url]);

    expectError(await upload(op, 'video', item.inventory_id, form(pngBytes(), 'tour.mp4', 'video/mp4')), 400, 'unsupported_file_type');
    expectError(await upload(op, 'video', item.inventory_id, form(mp4Bytes('M4A '), 'song.mp4', 'video/mp4')), 400, 'unsupported_file_type');
    expectError(await upload(op, 'video', item.inventory_id, form('<html></html>', 'x.webm', 'video/webm')), 400, 'unsupported_file_type');
  });

  it('serves byte ranges for video players', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const bytes = mp4Bytes();
    const r = await upload(op, 'video', item.inventory_id, form(bytes, 'tour.mp4', 'video/mp4'));
    const part = await SELF.fetch(r.body.url, { headers: { range: 'bytes=4-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 4-11/64');
    expect(new TextDecoder().decode(await part.arrayBuffer())).toBe('ftypisom');
    const tail = await SELF.fetch(r.body.url, { headers: { range: 'bytes=-4' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe('bytes 60-63/64');
    await tail.arrayBuffer();
    const outside = await SELF.fetch(r.body.url, { headers: { range: 'bytes=100-' } });
    expect(outside.status).toBe(416);
    await outside.arrayBuffer();
  });

  it('is protected', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await checkSecurity(op, { method: 'POST', path: `/inventory/video/${item.inventory_id}`, body: {}, otherStatus: 404, adminOnly: true });
  });
});

describe('GET /inventory/media/...', () => {
  it('answers 404 for a missing file and 400 for a bad path', async () => {
    const op = await createOperator();
    expectError(await get(`/inventory/media/${op.customerId}/inv_x/photos/nothing.png`), 404, 'not_found');
    expectError(await get(`/inventory/media/${op.customerId}/inv_x/waivers/a.pdf`), 400, 'validation_failed');
  });
});

describe('POST /inventory/asset-map/{inventory_id}', () => {
  it('pins assets, stores a map image and shows both on the item', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const [a1, a2] = item.assets;
    const b64 = btoa(String.fromCharCode(...pngBytes(1000, 500, 256)));
    const r = await post(
      `/inventory/asset-map/${item.inventory_id}`,
      {
        pins: [
          { assetId: a1.assetId, x: 12.5, y: 40, label: 'Slip A1' },
          { assetId: a2.assetId, x: 0, y: 100 },
        ],
        mapImage: { data: `data:image/png;base64,${b64}`, fileName: 'marina.png' },
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.pins).toEqual([
      { assetId: a1.assetId, name: 'Boat 1', x: 12.5, y: 40, label: 'Slip A1' },
      { assetId: a2.assetId, name: 'Boat 2', x: 0, y: 100 },
    ]);
    expect(r.body.assetMap).toMatchObject({ contentType: 'image/png', width: 1000, height: 500 });
    expect(r.body.version).toBe(2);
    const img = await SELF.fetch(r.body.assetMap.imageUrl);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    await img.arrayBuffer();
    const list = await get(`/inventory/customer?customer_id=${op.customerId}`, { key: op.adminKey });
    expect(list.body.data[0].assets.map((a: any) => a.mapPin)).toEqual([
      { x: 12.5, y: 40, label: 'Slip A1' },
      { x: 0, y: 100 },
    ]);
    expect(list.body.data[0].data.assetMap.imageUrl).toBe(r.body.assetMap.imageUrl);

    // A new configuration replaces the pins; the image stays unless removed.
    const r2 = await post(`/inventory/asset-map/${item.inventory_id}`, { pins: [{ assetId: a2.assetId, x: 50, y: 50 }] }, { key: op.adminKey });
    expect(r2.status, r2.text).toBe(200);
    expect(r2.body.assetMap.imageUrl).toBe(r.body.assetMap.imageUrl);
    expect(r2.body.version).toBe(2);
    const list2 = await get(`/inventory/customer?customer_id=${op.customerId}`, { key: op.adminKey });
    expect(list2.body.data[0].assets.map((a: any) => a.mapPin)).toEqual([null, { x: 50, y: 50 }]);
    const r3 = await post(`/inventory/asset-map/${item.inventory_id}`, { pins: [], removeMapImage: true }, { key: op.adminKey });
    expect(r3.body.assetMap).toBeNull();
  });

  it('refuses invalid pins, unknown assets and a bad image with 400', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const other = await createItem(op, rentalData(op, { name: 'Other', assets: [{ name: 'X' }] }));
    const a1 = item.assets[0].assetId;
    const bad = async (body: unknown, code: string, field?: string) => {
      const r = await post(`/inventory/asset-map/${item.inventory_id}`, body, { key: op.adminKey });
      expectError(r, 400, code);
      if (field) expect(r.body.details.map((d: any) => d.field)).toContain(field);
    };
    await bad({ pins: [{ assetId: a1, x: 101, y: 5 }] }, 'validation_failed', 'pins.0.x');
    await bad({ pins: [{ assetId: a1, x: 5 }] }, 'validation_failed', 'pins.0.y');
    await bad({ pins: [{ assetId: other.assets[0].assetId, x: 1, y: 1 }] }, 'validation_failed', 'pins.0.assetId');
    await bad(
      {
        pins: [
          { assetId: a1, x: 1, y: 1 },
          { assetId: a1, x: 2, y: 2 },
        ],
      },
      'validation_failed',
      'pins.1.assetId',
    );
    await bad({ pins: [], mapImage: { data: btoa('plain text, not an image') } }, 'unsupported_file_type');
    await bad({ pins: [], mapImage: { data: '***' } }, 'validation_failed', 'mapImage.data');
    await bad({}, 'validation_failed', 'pins');
  });

  it("answers 403 for another operator's item and 404 for an unknown one", async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const intruder = await otherOperator();
    expectError(await post(`/inventory/asset-map/${item.inventory_id}`, { pins: [] }, { key: intruder.adminKey }), 403, 'forbidden');
    expectError(await post('/inventory/asset-map/inv_unknown', { pins: [] }, { key: op.adminKey }), 404, 'not_found');
  });

  it('is protected', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await checkSecurity(op, { method: 'POST', path: `/inventory/asset-map/${item.inventory_id}`, body: { pins: [] }, otherStatus: 403, adminOnly: true });
  });
});
