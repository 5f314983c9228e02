/**
 * The offline image codec (src/lib/image): files written by another encoder (libjpeg's progressive
 * JPEG, libpng's palette and interlaced PNGs) decode to the right colours; its own JPEG and PNG
 * round-trip; the resizer averages areas exactly; the Annex K Huffman tables are complete; the decode
 * budget refuses huge images before allocating; the Images-binding adapter asks for the right sizes.
 */
import { describe, expect, it } from 'vitest';
import { decodeJpeg } from '../../src/lib/image/jpeg-decode';
import { AC_CHROMA_VALUES, AC_LUMA_VALUES, encodeJpeg } from '../../src/lib/image/jpeg-encode';
import { decodePng, encodePng } from '../../src/lib/image/png';
import { ImageError, pixelsRaster, type Raster } from '../../src/lib/image/raster';
import { orient, resizeRaster } from '../../src/lib/image/resize';
import { largestVariant, variantSizes } from '../../src/lib/image/variants';
import { photoVariants } from '../../src/adapters/images';
import { quadrants } from '../modules/inventory/helpers';

const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
// 64x48 pictures of four quadrants (red, green / blue, yellow), written by libjpeg and libpng (sharp).
const PROGRESSIVE_JPEG = b64(
  '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgo' +
    'KCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wgARCAAwAEADASIAAhEBAxEB/8QAGAABAAMBAAAAAAAAAAAAAAAAAAQFBgf/xAAYAQEBAQEBAAAAAAAAAAAAAAAABgcFBP/aAAwDAQACEAMQAAAB' +
    'qBzrMC8HnyQCjQFRdz0AatqUVP5ZqRysaqA6oMd7QH//xAAUEAEAAAAAAAAAAAAAAAAAAABQ/9oACAEBAAEFAkP/xAAaEQABBQEAAAAAAAAAAAAAAAAVACBioeFj/9oACAEDAQE/AWHed4jvO8Qedag8' +
    '61v/xAAbEQAABwEAAAAAAAAAAAAAAAAAFBUgYWOh4f/aAAgBAgEBPwFiFZnQhWZ0G4BuG//EABQQAQAAAAAAAAAAAAAAAAAAAFD/2gAIAQEABj8CQ//EABQQAQAAAAAAAAAAAAAAAAAAAFD/2gAI' +
    'AQEAAT8hQ//aAAwDAQACAAMAAAAQ99//APPMsvvgw//EABQRAQAAAAAAAAAAAAAAAAAAADD/2gAIAQMBAT8QSIAP/8QAGBEAAwEBAAAAAAAAAAAAAAAAESDh8AD/2gAIAQIBAT8QaI2Z2zF//8QAFBAB' +
    'AAAAAAAAAAAAAAAAAAAAUP/aAAgBAQABPxBD/9k=',
);
const PALETTE_PNG = b64(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwAgMAAADcJZSMAAAADFBMVEXcKCgoPNwoyDzm0igoEa3YAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAIElEQVQokWNggIJVUADjjwoMbHiEQsF/' +
    'KBgVgIABDg8AJrh+kMOU1qAAAAAASUVORK5CYII=',
);
const INTERLACED_PNG = b64(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAwCAIAAAFZLtveAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAvElEQVRoge2XMQoFMQhE9zjvEN6f1Kmn9hy/C7+xcCGQLAN2Iuo4jskjWMaIZU/f' +
    'QWhZTpa9cOj4qlTkoypqTwB/tVZ1Z9XcngCdh5LOC+C8wXFegApYu3DTnZsTjO9AREG7Lh2zy2snmN+BSNfvgZwgDJHMIm5fNK5XU5wAQ4RZFLcvmppit1sc2a3WbiA8gTCF8BIPq9Cw' +
    'jMqHDF9iXvzLdj/Ocvdr0Q3gCWAKhZd4WoWmZRQfsvQlzskP28No8ZOKC1gAAAAASUVORK5CYII=',
);
const QUADRANT_COLOURS = [
  [220, 40, 40],
  [40, 200, 60],
  [40, 60, 220],
  [230, 210, 40],
];

/** The colour at the centre of each quadrant. */
function centres(r: Raster): number[][] {
  const row = new Uint8Array(r.width * 4);
  const out: number[][] = [];
  for (const y of [Math.floor(r.height / 4), Math.floor((3 * r.height) / 4)]) {
    r.row(y, row);
    for (const x of [Math.floor(r.width / 4), Math.floor((3 * r.width) / 4)]) out.push([row[x * 4], row[x * 4 + 1], row[x * 4 + 2]]);
  }
  return out;
}
const near = (got: number[][], want: number[][], tolerance: number) =>
  got.forEach((c, i) =>
    c.forEach((v, k) => expect(Math.abs(v - want[i][k]), `quadrant ${i} channel ${k}: ${v} vs ${want[i][k]}`).toBeLessThanOrEqual(tolerance)),
  );

describe('image codec', () => {
  it("decodes another encoder's progressive JPEG, palette PNG and interlaced PNG", async () => {
    const jpeg = decodeJpeg(PROGRESSIVE_JPEG);
    expect([jpeg.width, jpeg.height, jpeg.orientation]).toEqual([64, 48, 1]);
    near(centres(jpeg), QUADRANT_COLOURS, 12);
    for (const png of [PALETTE_PNG, INTERLACED_PNG]) {
      const r = await decodePng(png);
      expect([r.width, r.height]).toEqual([64, 48]);
      near(centres(r), QUADRANT_COLOURS, 0);
    }
  });

  it('round-trips its own JPEG (close) and PNG (exact, with transparency)', async () => {
    const px = quadrants(100, 60, 255);
    near(centres(decodeJpeg(encodeJpeg(px, 85))), QUADRANT_COLOURS, 12);
    const clear = quadrants(30, 20, 90);
    const back = await decodePng(await encodePng(clear, false));
    const row = new Uint8Array(30 * 4);
    back.row(7, row);
    expect([...row]).toEqual([...clear.data.subarray(7 * 30 * 4, 8 * 30 * 4)]);
  });

  it('averages areas exactly and turns images by EXIF orientation', () => {
    // 4x2 stripes of 0 and 255 down to 2x1: every target pixel is the mean, 128 (rounded).
    const stripes = { width: 4, height: 2, data: new Uint8Array(32).map((_, i) => (i % 4 === 3 ? 255 : Math.floor(i / 4) % 2 ? 255 : 0)) };
    const half = resizeRaster(pixelsRaster(stripes), 2, 1);
    expect([...half.data]).toEqual([128, 128, 128, 255, 128, 128, 128, 255]);
    expect(half.opaque).toBe(true);
    // 3 wide to 2: the middle source pixel is split half and half.
    const three = { width: 3, height: 1, data: new Uint8Array([0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255]) };
    expect([...resizeRaster(pixelsRaster(three), 2, 1).data]).toEqual([30, 30, 30, 255, 150, 150, 150, 255]);
    // Orientation 6 (rotate 90 degrees clockwise): a 2x1 [A, B] becomes 1x2 [A over B].
    const ab = { width: 2, height: 1, data: new Uint8Array([1, 1, 1, 255, 2, 2, 2, 255]) };
    const turned = orient(ab, 6);
    expect([turned.width, turned.height, turned.data[0], turned.data[4]]).toEqual([1, 2, 1, 2]);
  });

  it('has complete Annex K tables, fixed variant widths that never enlarge, and refuses huge images before decoding', () => {
    for (const values of [AC_LUMA_VALUES, AC_CHROMA_VALUES]) {
      expect(values).toHaveLength(162);
      const all = new Set(values);
      for (let run = 0; run < 16; run++) for (let size = 1; size <= 10; size++) expect(all.has((run << 4) | size)).toBe(true);
      expect(all.has(0x00) && all.has(0xf0)).toBe(true);
    }
    expect(largestVariant(4032, 3024)).toEqual({ width: 1280, height: 960 });
    expect(largestVariant(500, 4000)).toEqual({ width: 320, height: 2560 });
    expect(variantSizes({ width: 1280, height: 960 }).map((s) => s.width)).toEqual([320, 640, 1280]);
    expect(variantSizes({ width: 200, height: 100 })).toEqual([{ width: 200, height: 100 }]);
    const huge = encodeJpeg(quadrants(16, 16), 80);
    const sof = huge.findIndex((b, i) => b === 0xff && huge[i + 1] === 0xc0);
    huge.set([0x4e, 0x20, 0x4e, 0x20], sof + 5); // 20000 x 20000
    expect(() => decodeJpeg(huge)).toThrow(ImageError);
    try {
      decodeJpeg(huge);
    } catch (err) {
      expect((err as ImageError).reason).toBe('too_large');
    }
  });
});

/**
 * A stand-in for the Cloudflare Images binding, working with this codec: `scale-down` fits within the
 * box without enlarging, `squeeze` makes the exact size. It records what it was asked.
 */
function fakeImages(calls: { transform: ImageTransform; format: string }[]): ImagesBinding {
  const read = async (s: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(s).arrayBuffer());
  return {
    info: async (s) => {
      const r = decodeJpeg(await read(s));
      return { format: 'image/jpeg', fileSize: 0, width: r.width, height: r.height };
    },
    input: (s) => {
      let transform: ImageTransform = {};
      const t: ImageTransformer = {
        transform: (o) => ((transform = o), t),
        draw: () => t,
        output: async (o) => {
          calls.push({ transform, format: o.format });
          const src = decodeJpeg(await read(s));
          let [w, h] = [transform.width!, transform.height!];
          if (transform.fit === 'scale-down') {
            const k = Math.min(1, w / src.width, h / src.height);
            [w, h] = [Math.round(src.width * k), Math.round(src.height * k)];
          }
          const out = encodeJpeg(resizeRaster(src, w, h), 80);
          return { response: () => new Response(out), contentType: () => o.format, image: () => new Response(out).body! };
        },
      };
      return t;
    },
    hosted: {} as ImagesBinding['hosted'],
  };
}

describe('images adapter', () => {
  it('uses the Images binding when it is configured: the largest variant scaled down, the others at their exact sizes', async () => {
    const calls: { transform: ImageTransform; format: string }[] = [];
    const made = await photoVariants({ IMAGES: fakeImages(calls) }, encodeJpeg(quadrants(1600, 1000), 85), 'image/jpeg');
    expect(made).toMatchObject({ engine: 'cloudflare-images', contentType: 'image/jpeg', source: { width: 1600, height: 1000 } });
    expect(made.variants.map((v) => [v.width, v.height])).toEqual([
      [320, 200],
      [640, 400],
      [1280, 800],
    ]);
    expect(calls).toEqual([
      { transform: { width: 1280, height: 2560, fit: 'scale-down' }, format: 'image/jpeg' },
      { transform: { width: 320, height: 200, fit: 'squeeze' }, format: 'image/jpeg' },
      { transform: { width: 640, height: 400, fit: 'squeeze' }, format: 'image/jpeg' },
    ]);
    // Without the binding the Worker does it itself, and says so.
    expect((await photoVariants({}, encodeJpeg(quadrants(400, 300), 85), 'image/jpeg')).engine).toBe('offline');
  });
});
