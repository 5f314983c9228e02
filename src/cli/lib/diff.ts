import { co } from './output';

/** One field that differs between the local file and the server, by dotted path (`urls.embed`). */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
  /** For lists: the items only in `to` and only in `from`. */
  added?: unknown[];
  removed?: unknown[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Field-by-field changes that turn `from` (the server) into `to` (the file); keys in `ignore` are skipped. */
export function diffFields(from: unknown, to: unknown, ignore: string[] = [], prefix = ''): FieldChange[] {
  const out: FieldChange[] = [];
  const fromObj = isPlainObject(from) ? from : {};
  const toObj = isPlainObject(to) ? to : {};
  const keys = [...new Set([...Object.keys(fromObj), ...Object.keys(toObj)])];
  for (const key of keys) {
    const field = prefix ? `${prefix}.${key}` : key;
    if (ignore.includes(field)) continue;
    const a = fromObj[key];
    const b = toObj[key];
    if (same(a, b)) continue;
    if (isPlainObject(a) || isPlainObject(b)) {
      out.push(...diffFields(a, b, ignore, field));
    } else if (Array.isArray(a) || Array.isArray(b)) {
      const la = Array.isArray(a) ? a : [];
      const lb = Array.isArray(b) ? b : [];
      const key = (v: unknown) => JSON.stringify(v);
      const ka = new Set(la.map(key));
      const kb = new Set(lb.map(key));
      out.push({ field, from: a ?? null, to: b ?? null, added: lb.filter((v) => !ka.has(key(v))), removed: la.filter((v) => !kb.has(key(v))) });
    } else {
      out.push({ field, from: a ?? null, to: b ?? null });
    }
  }
  return out;
}

const show = (v: unknown) => (v === null || v === undefined ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v));

/** The diff as lines for a person: `~ field: old -> new`, `+`/`-` for list items. */
export function diffLines(changes: FieldChange[]): string[] {
  const k = co();
  const lines: string[] = [];
  for (const ch of changes) {
    if (ch.added || ch.removed) {
      if (!ch.added?.length && !ch.removed?.length) lines.push(`${k.yellow('~')} ${ch.field}: order ${show(ch.from)} -> ${show(ch.to)}`);
      for (const r of ch.removed ?? []) lines.push(`${k.red('-')} ${ch.field}: ${show(r)}`);
      for (const a of ch.added ?? []) lines.push(`${k.green('+')} ${ch.field}: ${show(a)}`);
    } else {
      lines.push(`${k.yellow('~')} ${ch.field}: ${show(ch.from)} -> ${show(ch.to)}`);
    }
  }
  return lines;
}
