/**
 * Underwriters' question schemas: sanitised once per version (what a checkout can draw, plain text
 * only, safe patterns) and the renter's answers validated against the version pinned to the quote
 * before they reach `/requote`.
 */
import type { z } from '@hono/zod-openapi';
import { FIELD_TYPES, MAX_FIELDS, type FieldType } from './types';
import type { QuestionField } from './schemas';

export type Question = z.output<typeof QuestionField>;

/** Control characters other than tab and line breaks. */
// eslint-disable-next-line no-control-regex
export const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Plain text of an underwriter string: scripts and styles removed with their content, other tags stripped, whitespace collapsed. */
export function plainText(v: unknown, max: number): string {
  if (typeof v !== 'string' && typeof v !== 'number') return '';
  return String(v)
    .replace(/<(script|style|iframe|object)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>?/g, ' ')
    .replace(CONTROL, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim()
    .slice(0, max);
}

/**
 * True when a regular expression repeats a group that itself repeats without bound: `(a+)+`,
 * `(\d*)*`, `([a-z]+){2,}`, the shapes that backtrack catastrophically. Character classes and
 * escapes are skipped; a bounded `?` after the group is allowed.
 */
export function hasNestedQuantifier(pattern: string): boolean {
  /** Per open group: whether it repeats something without bound (directly or through an inner group). */
  const stack: boolean[] = [];
  let afterGroup = false;
  let groupUnbounded = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    const quantifiesGroup = afterGroup;
    afterGroup = false;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[') {
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') {
        if (pattern[i] === '\\') i++;
        i++;
      }
      continue;
    }
    if (ch === '(') {
      stack.push(false);
      if (pattern[i + 1] === '?') i++;
      continue;
    }
    if (ch === ')') {
      groupUnbounded = stack.pop() ?? false;
      if (groupUnbounded && stack.length) stack[stack.length - 1] = true;
      afterGroup = true;
      continue;
    }
    const braces = ch === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i)) : null;
    if (ch === '*' || ch === '+' || braces) {
      if (quantifiesGroup && groupUnbounded) return true;
      const unbounded = ch !== '{' || (braces![2] !== undefined && braces![3] === '');
      if (unbounded && stack.length) stack[stack.length - 1] = true;
      if (braces) i += braces[0].length - 1;
    }
  }
  return false;
}

export type Sanitised = { ok: true; fields: Question[]; dropped: { id: string; reason: string }[] } | { ok: false; reason: string };

const ID = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const optionOf = (o: { value?: unknown; label?: unknown } | null) => ({ value: String(o?.value ?? ''), label: plainText(o?.label ?? o?.value, 200) });
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The drawable subset of an underwriter's schema. Fields of an unsupported type (or without a
 * usable id, label or options) are dropped, and so are questions conditional on a dropped one;
 * text loses every tag; a pattern with a nested quantifier (or one that does not compile) refuses
 * the whole schema, and so do more than 12 drawable fields.
 */
export function sanitiseSchema(raw: unknown): Sanitised {
  const list = raw && typeof raw === 'object' && Array.isArray((raw as { fields?: unknown }).fields) ? (raw as { fields: unknown[] }).fields : null;
  if (!list) return { ok: false, reason: 'the schema has no fields list' };
  if (list.length > 100) return { ok: false, reason: 'the schema lists more than 100 fields' };
  const fields: Question[] = [];
  const dropped: { id: string; reason: string }[] = [];
  const kept = new Set<string>();
  for (const f of list) {
    const r = (f && typeof f === 'object' ? f : {}) as Record<string, unknown>;
    const id = typeof r.id === 'string' ? r.id : typeof r.name === 'string' ? r.name : '';
    if (!ID.test(id) || kept.has(id)) {
      dropped.push({ id: String(id).slice(0, 64), reason: 'missing, malformed or repeated id' });
      continue;
    }
    const type = r.type as FieldType;
    if (!FIELD_TYPES.includes(type)) {
      dropped.push({ id, reason: `unsupported type ${String(r.type).slice(0, 40)}` });
      continue;
    }
    const label = plainText(r.label, 200);
    if (!label) {
      dropped.push({ id, reason: 'no label' });
      continue;
    }
    let options: { value: string; label: string }[] | null = null;
    if (type === 'dropdown' || type === 'multiselect') {
      const raws = Array.isArray(r.options) ? r.options.slice(0, 50) : [];
      options = raws
        .map((o) =>
          typeof o === 'string' || typeof o === 'number' ? { value: String(o), label: plainText(o, 200) } : optionOf(o as { value?: unknown; label?: unknown }),
        )
        .filter((o) => o.value && o.value.length <= 200 && o.label);
      if (!options.length) {
        dropped.push({ id, reason: 'no options' });
        continue;
      }
    }
    let pattern: string | null = null;
    if (type === 'text' && r.pattern != null) {
      if (typeof r.pattern !== 'string' || r.pattern.length > 200)
        return { ok: false, reason: `the pattern of ${id} is not a string of at most 200 characters` };
      if (hasNestedQuantifier(r.pattern)) return { ok: false, reason: `the pattern of ${id} has a nested quantifier` };
      try {
        new RegExp(`^(?:${r.pattern})$`, 'u');
      } catch {
        return { ok: false, reason: `the pattern of ${id} does not compile` };
      }
      pattern = r.pattern;
    }
    let showIf: Question['showIf'] = null;
    const cond = r.showIf as { field?: unknown; equals?: unknown; in?: unknown } | undefined;
    if (cond && typeof cond === 'object') {
      const on = typeof cond.field === 'string' ? cond.field : '';
      if (!kept.has(on)) {
        dropped.push({ id, reason: `shown only after ${on.slice(0, 64) || 'an unknown question'}, which is not drawn` });
        continue;
      }
      const eq = cond.equals;
      showIf = {
        field: on,
        equals: typeof eq === 'string' || typeof eq === 'number' || typeof eq === 'boolean' ? eq : null,
        in: Array.isArray(cond.in)
          ? cond.in
              .filter((x) => typeof x === 'string' || typeof x === 'number')
              .map(String)
              .slice(0, 50)
          : null,
      };
      if (showIf.equals === null && !showIf.in) {
        dropped.push({ id, reason: 'a condition without equals or in' });
        continue;
      }
    }
    const minAge = type === 'date' ? num(r.minAgeYears) : null;
    fields.push({
      id,
      type,
      label,
      required: type !== 'notice' && r.required === true,
      help: plainText(r.help, 500) || null,
      text: type === 'notice' ? plainText(r.text ?? r.body ?? '', 2000) || null : null,
      options,
      minAgeYears: minAge !== null && minAge >= 0 && minAge <= 120 ? Math.floor(minAge) : null,
      pattern,
      min: type === 'number' ? num(r.min) : null,
      max: type === 'number' ? num(r.max) : null,
      maxLength: type === 'text' ? Math.min(1000, Math.max(1, Math.floor(num(r.maxLength) ?? 500))) : null,
      showIf,
    });
    kept.add(id);
  }
  if (fields.length > MAX_FIELDS) return { ok: false, reason: `the schema has ${fields.length} drawable fields (at most ${MAX_FIELDS})` };
  return { ok: true, fields, dropped };
}

/** Questions that take an answer. */
export const answerable = (fields: Question[]) => fields.filter((f) => f.type !== 'notice');

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Whole years between a birth date and a day (both YYYY-MM-DD). */
export function ageOn(dob: string, day: string): number {
  const [y, m, d] = dob.split('-').map(Number);
  const [Y, M, D] = day.split('-').map(Number);
  return Y - y - (M < m || (M === m && D < d) ? 1 : 0);
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Checks answers against the pinned questions. Answers the cleaned answers of the questions the
 * renter was shown (conditional questions never shown are not sent), or the problems by field.
 * `rentalDate` (YYYY-MM-DD in the location's zone) is the day `minAgeYears` is measured on.
 */
export function validateAnswers(
  fields: Question[],
  answers: Record<string, unknown>,
  rentalDate: string,
): { ok: true; answers: Record<string, unknown> } | { ok: false; details: { field: string; message: string }[] } {
  const details: { field: string; message: string }[] = [];
  const byId = new Map(fields.map((f) => [f.id, f]));
  for (const k of Object.keys(answers)) if (!byId.has(k)) details.push({ field: `answers.${k}`, message: 'not a question of this coverage' });
  const out: Record<string, unknown> = {};
  const shown = new Set<string>();
  for (const f of fields) {
    if (f.showIf) {
      const dep = out[f.showIf.field];
      const cond = f.showIf;
      const matches = (v: unknown) => (cond.equals !== null ? v === cond.equals : (cond.in ?? []).includes(String(v)));
      const visible = shown.has(cond.field) && (Array.isArray(dep) ? dep.some(matches) : matches(dep));
      if (!visible) continue;
    }
    shown.add(f.id);
    if (f.type === 'notice') continue;
    const v = answers[f.id];
    const field = `answers.${f.id}`;
    const bad = (message: string) => details.push({ field, message });
    if (f.type === 'checkbox') {
      if (v !== undefined && v !== null && typeof v !== 'boolean') {
        bad('must be true or false');
        continue;
      }
      if (f.required && v !== true) {
        bad('must be checked');
        continue;
      }
      if (typeof v === 'boolean') out[f.id] = v;
      continue;
    }
    if (empty(v)) {
      if (f.required) bad('is required');
      continue;
    }
    switch (f.type) {
      case 'text': {
        if (typeof v !== 'string') {
          bad('must be text');
          break;
        }
        const t = v.trim();
        if (t.length > (f.maxLength ?? 500)) bad(`must be at most ${f.maxLength ?? 500} characters`);
        else if (f.pattern && !new RegExp(`^(?:${f.pattern})$`, 'u').test(t)) bad('does not have the expected format');
        else out[f.id] = t;
        break;
      }
      case 'number': {
        if (typeof v !== 'number' || !Number.isFinite(v)) bad('must be a number');
        else if (f.min !== null && v < f.min) bad(`must be at least ${f.min}`);
        else if (f.max !== null && v > f.max) bad(`must be at most ${f.max}`);
        else out[f.id] = v;
        break;
      }
      case 'date': {
        if (typeof v !== 'string' || !validDate(v)) bad('must be a date (YYYY-MM-DD)');
        else if (f.minAgeYears !== null && ageOn(v, rentalDate) < f.minAgeYears) bad(`must be at least ${f.minAgeYears} years before the rental date`);
        else out[f.id] = v;
        break;
      }
      case 'dropdown': {
        if (typeof v !== 'string' || !f.options!.some((o) => o.value === v)) bad(`must be one of ${f.options!.map((o) => o.value).join(', ')}`);
        else out[f.id] = v;
        break;
      }
      case 'multiselect': {
        if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || !f.options!.some((o) => o.value === x)) || new Set(v).size !== v.length)
          bad(`must be distinct values among ${f.options!.map((o) => o.value).join(', ')}`);
        else out[f.id] = v;
        break;
      }
      case 'address': {
        const a = v as Record<string, unknown>;
        const str = (k: string, req: boolean, max = 200) => {
          const x = a?.[k];
          if (x === undefined || x === null || x === '') return req ? null : undefined;
          return typeof x === 'string' && x.trim().length <= max ? x.trim() : null;
        };
        const line1 = str('line1', true);
        const line2 = str('line2', false);
        const city = str('city', true);
        const region = str('region', false);
        const postalCode = str('postalCode', false, 20);
        const country = str('country', true, 2);
        if (!a || typeof a !== 'object' || Array.isArray(a) || !line1 || !city || line2 === null || region === null || postalCode === null) {
          bad('must be an address {line1, line2?, city, region?, postalCode?, country}');
          break;
        }
        if (!country || !/^[A-Za-z]{2}$/.test(country)) {
          bad('address.country must be an ISO 3166-1 alpha-2 code');
          break;
        }
        const opt = { ...(line2 ? { line2 } : {}), ...(region ? { region } : {}), ...(postalCode ? { postalCode } : {}) };
        out[f.id] = { line1, city, ...opt, country: country.toUpperCase() };
        break;
      }
    }
  }
  return details.length ? { ok: false, details } : { ok: true, answers: out };
}
