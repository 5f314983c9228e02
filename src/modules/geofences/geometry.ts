import type { LatLng } from '../../db/schema/geofences';

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in meters (haversine). */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Ray casting on longitude/latitude (geofences are small enough for the planar approximation); points on the edge count as inside. */
export function inPolygon(p: LatLng, poly: LatLng[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i];
    const b = poly[j];
    if (onSegment(p, a, b)) return true;
    if (a.lat > p.lat !== b.lat > p.lat && p.lng < ((b.lng - a.lng) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lng) inside = !inside;
  }
  return inside;
}

function onSegment(p: LatLng, a: LatLng, b: LatLng): boolean {
  const cross = (p.lat - a.lat) * (b.lng - a.lng) - (p.lng - a.lng) * (b.lat - a.lat);
  if (Math.abs(cross) > 1e-12) return false;
  return Math.min(a.lat, b.lat) <= p.lat && p.lat <= Math.max(a.lat, b.lat) && Math.min(a.lng, b.lng) <= p.lng && p.lng <= Math.max(a.lng, b.lng);
}

export interface Shape {
  shape: 'circle' | 'polygon';
  centerLat: number | null;
  centerLng: number | null;
  radiusMeters: number | null;
  points: LatLng[] | null;
}

export function contains(g: Shape, p: LatLng): boolean {
  if (g.shape === 'circle')
    return (
      g.centerLat !== null && g.centerLng !== null && g.radiusMeters !== null && distanceMeters({ lat: g.centerLat, lng: g.centerLng }, p) <= g.radiusMeters
    );
  return (g.points?.length ?? 0) >= 3 && inPolygon(p, g.points!);
}
