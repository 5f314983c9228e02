import { DENY_REASONS, GATEWAY_ROUTES, type DenyReason, type Rule } from './routes-table';

export interface Match {
  /** The table key that matched (`METHOD /path`). */
  key: string;
  rule: Rule;
}

interface Compiled {
  key: string;
  method: string;
  rule: Rule;
  /** Exact templates: regex and literal-segment count (more literals win); prefixes: the base path. */
  re?: RegExp;
  literals?: number;
  prefix?: string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(key: string, rule: Rule): Compiled {
  const [method, path] = key.split(' ');
  if (path.endsWith('/**')) return { key, method, rule, prefix: path.slice(0, -3) };
  const segments = path.split('/').slice(1);
  const re = new RegExp(`^/${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : escapeRe(s))).join('/')}$`);
  return { key, method, rule, re, literals: segments.filter((s) => !s.startsWith('{')).length };
}

const COMPILED = Object.entries(GATEWAY_ROUTES).map(([k, r]) => compile(k, r));

const methodOk = (c: Compiled, method: string) => c.method === '*' || c.method === method || (method === 'HEAD' && c.method === 'GET');

/**
 * The table entry of a request: the most specific exact template (most literal segments), else
 * the longest `/**` prefix. Undefined when the table does not know the path.
 */
export function matchRoute(method: string, path: string): Match | undefined {
  let best: Compiled | undefined;
  for (const c of COMPILED) {
    if (!c.re || !methodOk(c, method) || !c.re.test(path)) continue;
    if (!best || (c.literals ?? 0) > (best.literals ?? 0)) best = c;
  }
  if (best) return { key: best.key, rule: best.rule };
  let prefix: Compiled | undefined;
  for (const c of COMPILED) {
    if (c.prefix === undefined || !methodOk(c, method)) continue;
    if ((path === c.prefix || path.startsWith(`${c.prefix}/`)) && (!prefix || c.prefix.length > prefix.prefix!.length)) prefix = c;
  }
  return prefix ? { key: prefix.key, rule: prefix.rule } : undefined;
}

/**
 * For the table test: the entry that covers a declared route template (`{param}` form). An
 * exact route must be listed under its own key; otherwise only a `/**` prefix deny covers it
 * (a template never silently inherits the scope of another template).
 */
export function coverOf(method: string, template: string): Match | undefined {
  const key = `${method} ${template}`;
  if (GATEWAY_ROUTES[key]) return { key, rule: GATEWAY_ROUTES[key] };
  const m = matchRoute(method, template);
  return m && m.key.endsWith('/**') ? m : undefined;
}

export const denyText = (reason: DenyReason) => DENY_REASONS[reason];
export const isDeny = (r: Rule): r is { deny: DenyReason } => typeof r === 'object';
