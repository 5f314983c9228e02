/**
 * Geometry of geofences on the earth's surface: great-circle distance, and the signed distance of
 * a point to a fence's boundary (negative inside), with polygons in a local flat projection
 * (fences are a few kilometres at most).
 */
import type { GpsPoint } from '../../db/schema/gps';

const R = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;

export function distanceMeters(a: GpsPoint, b: GpsPoint): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface Fence {
  shape: 'circle' | 'polygon';
  centerLat: number | null;
  centerLng: number | null;
  radiusMeters: number | null;
  points: GpsPoint[] | null;
}

function inPolygon(p: [number, number], poly: [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function segmentDistance(p: [number, number], a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2)) : 0;
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Meters from the point to the fence's boundary: negative inside, positive outside. */
export function signedDistance(f: Fence, p: GpsPoint): number {
  if (f.shape === 'circle') return distanceMeters({ lat: f.centerLat!, lng: f.centerLng! }, p) - f.radiusMeters!;
  const pts = f.points ?? [];
  const lat0 = pts.reduce((s, q) => s + q.lat, 0) / pts.length;
  const k = Math.cos(rad(lat0));
  const xy = (q: GpsPoint): [number, number] => [rad(q.lng) * k * R, rad(q.lat) * R];
  const poly = pts.map(xy);
  const pp = xy(p);
  let d = Infinity;
  for (let i = 0; i < poly.length; i++) d = Math.min(d, segmentDistance(pp, poly[i], poly[(i + 1) % poly.length]));
  return inPolygon(pp, poly) ? -d : d;
}

export type Side = 'inside' | 'outside' | 'uncertain';

/**
 * Where a fix stands, given its accuracy radius: inside when the point is inside the fence, outside
 * only when its whole uncertainty circle is outside (farther out than `accuracy`), uncertain
 * otherwise (it neither confirms nor builds a crossing).
 */
export function sideOf(f: Fence, p: GpsPoint, accuracy: number): Side {
  const d = signedDistance(f, p);
  if (d <= 0) return 'inside';
  return d > accuracy ? 'outside' : 'uncertain';
}
