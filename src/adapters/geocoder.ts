import type { Env } from '../env';
import { outbound } from './http';

export interface GeocodeResult {
  address: string;
  latitude: number | null;
  longitude: number | null;
  timezone: string | null;
  provider: 'offline' | 'google';
}

/**
 * Address to coordinates. Offline default: the address is kept and no coordinates are invented.
 * With GEOCODER_API_KEY set, the Google Geocoding API is called; a failure degrades to offline.
 */
export async function geocode(env: Env & { GEOCODER_API_KEY?: string }, address: string): Promise<GeocodeResult> {
  const offline: GeocodeResult = { address, latitude: null, longitude: null, timezone: null, provider: 'offline' };
  if (!env.GEOCODER_API_KEY) return offline;
  try {
    const url = `https://maps.googleapis.com/maps/api/geocode/json?address=${encodeURIComponent(address)}&key=${env.GEOCODER_API_KEY}`;
    const res = await outbound.fetch(url, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json()) as { results?: { geometry: { location: { lat: number; lng: number } }; formatted_address: string }[] };
    const first = body.results?.[0];
    if (!first) return offline;
    return { address, latitude: first.geometry.location.lat, longitude: first.geometry.location.lng, timezone: null, provider: 'google' };
  } catch {
    return offline;
  }
}
