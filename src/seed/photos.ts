/**
 * The demo items' photos, drawn in code (no image files in the repository): a sky with its sun, the
 * sea with soft waves, and the item's boat in silhouette colours (a center console, a pontoon, a
 * sailboat, a dolphin, a harbour cruiser, a kayak). Each is encoded as a JPEG and resized into its
 * variants once per isolate, then stored for each operator through the ordinary photo upload.
 */
import type { Ctx } from '../lib/context';
import { publicOrigin } from '../lib/public-origin';
import { encodeJpeg } from '../lib/image/jpeg-encode';
import type { Pixels } from '../lib/image/raster';
import { uploadMedia } from '../modules/inventory/service';
import { photoVariants, type PhotoVariants } from '../adapters/images';

export type Scene = 'console' | 'pontoon' | 'sailboat' | 'dolphin' | 'cruise' | 'kayak';

type Rgb = [number, number, number];
type Pt = [number, number];

const W = 720;
const H = 540;

interface Look {
  skyTop: Rgb;
  skyLow: Rgb;
  sun: Rgb;
  sunAt: Pt;
  seaTop: Rgb;
  seaLow: Rgb;
}

const DAY: Look = { skyTop: [70, 140, 215], skyLow: [190, 225, 245], sun: [255, 246, 200], sunAt: [0.8, 0.2], seaTop: [40, 130, 170], seaLow: [10, 60, 110] };
const EVENING: Look = { skyTop: [60, 70, 140], skyLow: [250, 170, 110], sun: [255, 220, 150], sunAt: [0.3, 0.5], seaTop: [90, 90, 140], seaLow: [25, 35, 80] };
const NORTH: Look = {
  skyTop: [120, 150, 185],
  skyLow: [215, 225, 235],
  sun: [250, 250, 240],
  sunAt: [0.2, 0.25],
  seaTop: [70, 110, 130],
  seaLow: [30, 60, 80],
};

/** A polygon from its corners' coordinates, x and y in turn (fractions of the width and height). */
const P = (...xy: number[]): Pt[] => Array.from({ length: xy.length / 2 }, (_, i) => [xy[2 * i], xy[2 * i + 1]] as Pt);

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

class Canvas implements Pixels {
  width = W;
  height = H;
  data = new Uint8Array(W * H * 4);

  set(x: number, y: number, c: Rgb, a = 1) {
    const i = (y * W + x) * 4;
    const d = this.data;
    d[i] = d[i] * (1 - a) + c[0] * a;
    d[i + 1] = d[i + 1] * (1 - a) + c[1] * a;
    d[i + 2] = d[i + 2] * (1 - a) + c[2] * a;
    d[i + 3] = 255;
  }

  /** Fills a polygon (points in 0..1 of the width and height), anti-aliased with 4x4 samples per edge pixel. */
  poly(pts: Pt[], c: Rgb) {
    const p = pts.map(([x, y]) => [x * W, y * H] as Pt);
    const inside = (x: number, y: number) => {
      let inn = false;
      for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
        if (p[i][1] > y !== p[j][1] > y && x < ((p[j][0] - p[i][0]) * (y - p[i][1])) / (p[j][1] - p[i][1]) + p[i][0]) inn = !inn;
      }
      return inn;
    };
    const xs = p.map((q) => q[0]);
    const ys = p.map((q) => q[1]);
    for (let y = Math.max(0, Math.floor(Math.min(...ys))); y < Math.min(H, Math.ceil(Math.max(...ys))); y++) {
      for (let x = Math.max(0, Math.floor(Math.min(...xs))); x < Math.min(W, Math.ceil(Math.max(...xs))); x++) {
        // Inside or outside at the four corners: the whole pixel is (shapes are larger than a pixel); else 16 samples.
        const corners = +inside(x, y) + +inside(x + 1, y) + +inside(x, y + 1) + +inside(x + 1, y + 1);
        if (corners === 0 || corners === 4) {
          if (corners === 4) this.set(x, y, c);
          continue;
        }
        let n = 0;
        for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inside(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) n++;
        if (n) this.set(x, y, c, n / 16);
      }
    }
  }

  /** An ellipse as a polygon. */
  ellipse(cx: number, cy: number, rx: number, ry: number, c: Rgb) {
    this.poly(
      Array.from({ length: 48 }, (_, i) => [cx + rx * Math.cos((i / 48) * 2 * Math.PI), cy + ry * Math.sin((i / 48) * 2 * Math.PI)] as Pt),
      c,
    );
  }
}

function backdrop(look: Look): Canvas {
  const cv = new Canvas();
  const horizon = Math.round(H * 0.58);
  const [sx, sy] = [look.sunAt[0] * W, look.sunAt[1] * H];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let c: Rgb;
      if (y < horizon) {
        c = mix(look.skyTop, look.skyLow, y / horizon);
        const d = Math.hypot(x - sx, y - sy) / (W * 0.05);
        if (d < 1) c = look.sun;
        else c = mix(c, look.sun, Math.max(0, 0.55 - 0.12 * d));
      } else {
        const t = (y - horizon) / (H - horizon);
        c = mix(look.seaTop, look.seaLow, t);
        // Waves: bands that get wider towards the viewer, and the sun's glitter on them.
        const wave = Math.sin(x / (18 + 60 * t) + Math.sin(y / 7) * 2 + y * 0.9);
        const glitter = Math.max(0, 1 - Math.abs(x - sx) / (W * (0.05 + 0.12 * t)));
        c = mix(c, [255, 255, 255], Math.max(0, wave) * (0.08 + 0.25 * glitter * glitter));
      }
      cv.set(x, y, c);
    }
  }
  return cv;
}

const WHITE: Rgb = [244, 246, 248];
const NAVY: Rgb = [28, 44, 82];
const GREY: Rgb = [120, 130, 140];

function draw(scene: Scene): Canvas {
  const look = scene === 'dolphin' ? EVENING : scene === 'sailboat' ? NORTH : DAY;
  const cv = backdrop(look);
  const shadow = (x0: number, x1: number, y: number) => cv.ellipse((x0 + x1) / 2, y, (x1 - x0) / 2, 0.025, [20, 50, 80]);
  switch (scene) {
    case 'console':
      shadow(0.22, 0.8, 0.76);
      cv.poly(P(0.2, 0.62, 0.82, 0.62, 0.76, 0.75, 0.3, 0.76), WHITE);
      cv.poly(P(0.2, 0.62, 0.82, 0.62, 0.81, 0.645, 0.215, 0.645), NAVY);
      cv.poly(P(0.45, 0.62, 0.58, 0.62, 0.56, 0.52, 0.47, 0.52), WHITE);
      cv.poly(P(0.46, 0.53, 0.57, 0.53, 0.575, 0.56, 0.455, 0.56), [60, 90, 120]);
      cv.poly(P(0.42, 0.5, 0.62, 0.5, 0.62, 0.515, 0.42, 0.515), GREY);
      cv.poly(P(0.22, 0.6, 0.29, 0.6, 0.29, 0.62, 0.22, 0.62), [40, 40, 40]);
      break;
    case 'pontoon':
      shadow(0.15, 0.85, 0.74);
      cv.poly(P(0.16, 0.69, 0.84, 0.69, 0.84, 0.725, 0.16, 0.725), [190, 195, 200]);
      cv.poly(P(0.14, 0.64, 0.86, 0.64, 0.86, 0.69, 0.14, 0.69), WHITE);
      cv.poly(P(0.14, 0.655, 0.86, 0.655, 0.86, 0.665, 0.14, 0.665), [0, 120, 150]);
      cv.poly(P(0.3, 0.45, 0.75, 0.45, 0.78, 0.48, 0.27, 0.48), [0, 120, 150]);
      for (const x of [0.3, 0.5, 0.73])
        cv.poly(
          [
            [x, 0.48],
            [x + 0.008, 0.48],
            [x + 0.008, 0.64],
            [x, 0.64],
          ],
          GREY,
        );
      break;
    case 'sailboat':
      shadow(0.28, 0.74, 0.75);
      cv.poly(P(0.27, 0.66, 0.76, 0.66, 0.7, 0.74, 0.33, 0.74), NAVY);
      cv.poly(P(0.495, 0.14, 0.505, 0.14, 0.505, 0.66, 0.495, 0.66), GREY);
      cv.poly(P(0.51, 0.16, 0.51, 0.63, 0.72, 0.63), WHITE);
      cv.poly(P(0.49, 0.2, 0.49, 0.63, 0.32, 0.63), [235, 238, 242]);
      break;
    case 'dolphin':
      shadow(0.28, 0.74, 0.72);
      cv.poly(P(0.3, 0.7, 0.38, 0.6, 0.5, 0.56, 0.62, 0.58, 0.7, 0.64, 0.66, 0.64, 0.6, 0.62, 0.5, 0.62, 0.4, 0.66, 0.34, 0.7), [70, 90, 120]);
      cv.poly(P(0.48, 0.57, 0.53, 0.5, 0.54, 0.57), [70, 90, 120]);
      cv.poly(P(0.68, 0.64, 0.74, 0.6, 0.72, 0.66), [70, 90, 120]);
      break;
    case 'cruise':
      shadow(0.12, 0.88, 0.75);
      cv.poly(P(0.1, 0.6, 0.9, 0.6, 0.84, 0.74, 0.16, 0.74), WHITE);
      cv.poly(P(0.1, 0.6, 0.9, 0.6, 0.89, 0.625, 0.11, 0.625), [0, 90, 140]);
      cv.poly(P(0.25, 0.6, 0.75, 0.6, 0.72, 0.48, 0.28, 0.48), WHITE);
      cv.poly(P(0.35, 0.48, 0.65, 0.48, 0.63, 0.41, 0.37, 0.41), WHITE);
      for (let i = 0; i < 8; i++) cv.ellipse(0.31 + i * 0.055, 0.54, 0.013, 0.018, [60, 90, 120]);
      cv.poly(P(0.5, 0.33, 0.505, 0.33, 0.505, 0.41, 0.5, 0.41), GREY);
      break;
    case 'kayak':
      shadow(0.25, 0.75, 0.7);
      cv.poly(P(0.22, 0.66, 0.5, 0.63, 0.78, 0.66, 0.5, 0.69), [240, 120, 30]);
      cv.ellipse(0.5, 0.655, 0.05, 0.012, [40, 40, 40]);
      cv.poly(P(0.36, 0.55, 0.37, 0.54, 0.64, 0.72, 0.63, 0.73), [60, 60, 60]);
      cv.ellipse(0.36, 0.55, 0.02, 0.012, [230, 200, 40]);
      cv.ellipse(0.64, 0.73, 0.02, 0.012, [230, 200, 40]);
      break;
  }
  return cv;
}

const rendered = new Map<Scene, { bytes: Uint8Array; variants: Promise<PhotoVariants> }>();

/** The scene's photo as a JPEG and its variants, made once per isolate (every sandbox operator gets the same files). */
export function scenePhoto(env: Ctx['env'], scene: Scene): { bytes: Uint8Array; variants: Promise<PhotoVariants> } {
  let photo = rendered.get(scene);
  if (!photo) {
    const bytes = encodeJpeg(draw(scene), 88);
    const variants = photoVariants(env, bytes, 'image/jpeg');
    variants.catch(() => rendered.delete(scene));
    photo = { bytes, variants };
    rendered.set(scene, photo);
  }
  return photo;
}

/** Uploads the scene's photo to the item through the ordinary photo upload (stored with its variants). */
export async function seedPhoto(ctx: Ctx, itemId: string, scene: Scene): Promise<void> {
  const { bytes, variants } = scenePhoto(ctx.env, scene);
  await uploadMedia(ctx, itemId, 'photo', async () => ({ bytes, name: `${scene}.jpg` }), publicOrigin(ctx), { prepared: await variants });
}
