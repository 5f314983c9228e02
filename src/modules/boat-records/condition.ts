/**
 * Automated condition analysis of a check-in: a deterministic, offline, rule-based comparison of
 * the check-in report with the check-out report of the same rental (or asset) before it. The
 * photos themselves are not inspected (no image model runs offline); their presence triggers the
 * analysis and their count is compared. Fields read from `Details` (all optional):
 *
 * - `photos` (or `images`): array of URLs or `{url}` objects
 * - `fuelLevel`: percent 0-100 (a fraction 0-1 is read as percent)
 * - `engineHours`: meter reading
 * - `damages`: array of strings or `{area, description}` objects
 * - `notes`: free text
 */
export type Severity = 'none' | 'info' | 'minor' | 'major';

export interface Finding {
  code: string;
  severity: Exclude<Severity, 'none'>;
  message: string;
  [k: string]: unknown;
}

export interface ConditionAnalysis {
  status: 'completed';
  method: 'rules';
  rulesVersion: 1;
  analyzedAt: string;
  comparedTo: { timestamp: string; RecordType: string } | null;
  photoCount: number;
  severity: Severity;
  findings: Finding[];
}

const RANK: Record<Severity, number> = { none: 0, info: 1, minor: 2, major: 3 };

/** Kinds of record that trigger the analysis and the kind it compares against. */
export const isCheckin = (recordType: string) => /^check[-_ ]?in$/i.test(recordType.trim());
export const isCheckout = (recordType: string) => /^check[-_ ]?out$/i.test(recordType.trim());

export function photosOf(details: Record<string, unknown>): string[] {
  const list = Array.isArray(details.photos) ? details.photos : Array.isArray(details.images) ? details.images : [];
  return list
    .map((p) =>
      typeof p === 'string' ? p : p && typeof p === 'object' && typeof (p as { url?: unknown }).url === 'string' ? (p as { url: string }).url : null,
    )
    .filter((p): p is string => Boolean(p && p.trim()));
}

function num(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

function fuelPercent(v: unknown): number | null {
  const n = num(v);
  if (n == null || n < 0) return null;
  return n <= 1 ? n * 100 : Math.min(n, 100);
}

function damageKeys(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v
    .map((d) => {
      if (typeof d === 'string') return d;
      if (d && typeof d === 'object') {
        const o = d as Record<string, unknown>;
        return [o.area, o.location, o.description, o.type].filter((x) => typeof x === 'string').join(' ');
      }
      return '';
    })
    .map((s) => s.trim().toLowerCase().replace(/\s+/g, ' '))
    .filter(Boolean);
}

const DAMAGE_WORDS = /\b(scratch\w*|dent\w*|crack\w*|chip\w*|leak\w*|broken|break\w*|tear|torn|hole\w*|missing|bent|damage\w*|gouge\w*|stain\w*)\b/gi;

/** Fuel may be this many percentage points lower than at check-out before it is flagged. */
export const FUEL_TOLERANCE_POINTS = 5;

export function analyzeCondition(
  checkin: Record<string, unknown>,
  checkout: { Details: Record<string, unknown>; timestamp: string; RecordType: string } | null,
  now: number,
): ConditionAnalysis {
  const findings: Finding[] = [];
  const photos = photosOf(checkin);
  if (!checkout) {
    findings.push({ code: 'no_checkout_record', severity: 'info', message: 'No check-out record before this check-in to compare with' });
  } else {
    const before = checkout.Details;
    const fuelOut = fuelPercent(before.fuelLevel);
    const fuelIn = fuelPercent(checkin.fuelLevel);
    if (fuelOut != null && fuelIn != null && fuelOut - fuelIn > FUEL_TOLERANCE_POINTS) {
      findings.push({
        code: 'fuel_below_checkout',
        severity: 'minor',
        message: `Fuel is ${Math.round(fuelOut - fuelIn)} points lower than at check-out`,
        checkout: fuelOut,
        checkin: fuelIn,
      });
    }
    const hoursOut = num(before.engineHours);
    const hoursIn = num(checkin.engineHours);
    if (hoursOut != null && hoursIn != null && hoursIn < hoursOut) {
      findings.push({
        code: 'engine_hours_decreased',
        severity: 'major',
        message: 'The engine-hour meter reads less than at check-out',
        checkout: hoursOut,
        checkin: hoursIn,
      });
    }
    const known = new Set(damageKeys(before.damages));
    const added = damageKeys(checkin.damages).filter((d) => !known.has(d));
    if (added.length)
      findings.push({ code: 'new_damage', severity: 'major', message: `${added.length} damage item(s) not in the check-out report`, damages: added });
    const photosOut = photosOf(before).length;
    if (photos.length < photosOut) {
      findings.push({
        code: 'fewer_photos_than_checkout',
        severity: 'info',
        message: `${photos.length} photo(s) at check-in against ${photosOut} at check-out`,
        checkout: photosOut,
        checkin: photos.length,
      });
    }
  }
  if (checkout == null && damageKeys(checkin.damages).length) {
    findings.push({ code: 'damage_reported', severity: 'major', message: 'Damage is reported at check-in', damages: damageKeys(checkin.damages) });
  }
  const notes = typeof checkin.notes === 'string' ? checkin.notes : '';
  const words = [...new Set((notes.match(DAMAGE_WORDS) ?? []).map((w) => w.toLowerCase()))];
  if (words.length) findings.push({ code: 'damage_words_in_notes', severity: 'minor', message: `The notes mention: ${words.join(', ')}`, words });
  const severity = findings.reduce<Severity>((s, f) => (RANK[f.severity] > RANK[s] ? f.severity : s), 'none');
  return {
    status: 'completed',
    method: 'rules',
    rulesVersion: 1,
    analyzedAt: new Date(now).toISOString(),
    comparedTo: checkout ? { timestamp: checkout.timestamp, RecordType: checkout.RecordType } : null,
    photoCount: photos.length,
    severity,
    findings,
  };
}
