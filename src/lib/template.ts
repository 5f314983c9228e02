/**
 * The one template engine of messages (e-mail subject, text and HTML parts; SMS): a small
 * mustache-like renderer, escaping by default in HTML.
 *
 * - `{{name}}` or `{{group.name}}`: a value (a flat key `"group.name"` first, then the nested path);
 *   missing values render empty. In HTML every value is escaped; there is no unescaped form, only
 *   `Html` values built in code (`html\`...\``, `rawHtml`) pass through as they are.
 * - `{{#name}}...{{/name}}`: a section, rendered when the value is truthy (a non-empty string, a true
 *   boolean, a non-zero number, a non-empty array); an array repeats it once per element, with the
 *   element's fields (and `{{.}}` for a string element) in scope; an object puts its fields in scope.
 * - `{{^name}}...{{/name}}`: rendered when the value is falsy or an empty array.
 *
 * Templates are parsed once per text (cached); a malformed one (an unclosed section) throws at render.
 */
export type TemplateMode = 'html' | 'text';

/** HTML the engine does not escape: built in code only, never from user input. */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}
export const rawHtml = (s: string) => new Html(s);

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

type Node = string | { kind: 'var'; name: string } | { kind: 'section' | 'inverted'; name: string; children: Node[] };

const TAG = /\{\{\s*([#^/]?)\s*([A-Za-z0-9_.]+|\.)\s*\}\}/g;
const parsed = new Map<string, Node[]>();

/** A section tag alone on its line takes the line with it (as in mustache), so templates can be written one tag a line. */
const STANDALONE = /^[ \t]*(\{\{\s*[#^/][^}]*\}\})[ \t]*\r?\n/gm;

function parse(template: string): Node[] {
  const hit = parsed.get(template);
  if (hit) return hit;
  const src = template.replace(STANDALONE, '$1');
  const root: Node[] = [];
  const stack: { name: string; children: Node[] }[] = [{ name: '', children: root }];
  let last = 0;
  for (const m of src.matchAll(TAG)) {
    const top = stack[stack.length - 1];
    if (m.index > last) top.children.push(src.slice(last, m.index));
    last = m.index + m[0].length;
    const [, sigil, name] = m;
    if (sigil === '#' || sigil === '^') {
      const node = { kind: sigil === '#' ? ('section' as const) : ('inverted' as const), name, children: [] as Node[] };
      top.children.push(node);
      stack.push(node);
    } else if (sigil === '/') {
      if (stack.length === 1 || top.name !== name) throw new Error(`Template: {{/${name}}} closes ${top.name ? `{{#${top.name}}}` : 'nothing'}`);
      stack.pop();
    } else top.children.push({ kind: 'var', name });
  }
  if (stack.length > 1) throw new Error(`Template: {{#${stack[stack.length - 1].name}}} is never closed`);
  if (last < src.length) root.push(src.slice(last));
  if (parsed.size > 500) parsed.clear();
  parsed.set(template, root);
  return root;
}

type Scope = unknown[];

function lookup(scopes: Scope, name: string): unknown {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const s = scopes[i];
    if (name === '.') return s;
    if (s == null || typeof s !== 'object' || s instanceof Html) continue;
    const rec = s as Record<string, unknown>;
    if (name in rec) return rec[name];
    const path = name.split('.');
    if (path.length > 1 && path[0] in rec) {
      let v: unknown = rec;
      for (const p of path) v = v != null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
      return v;
    }
  }
  return undefined;
}

const truthy = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v instanceof Html ? v.value !== '' : !!v);

function emit(v: unknown, mode: TemplateMode): string {
  if (v == null || v === false) return '';
  if (v instanceof Html) return mode === 'html' ? v.value : v.value.replace(/<[^>]*>/g, '');
  const s = typeof v === 'object' ? '' : String(v);
  return mode === 'html' ? escapeHtml(s) : s;
}

function renderNodes(nodes: Node[], scopes: Scope, mode: TemplateMode): string {
  let out = '';
  for (const n of nodes) {
    if (typeof n === 'string') out += n;
    else if (n.kind === 'var') out += emit(lookup(scopes, n.name), mode);
    else {
      const v = lookup(scopes, n.name);
      if (n.kind === 'inverted') {
        if (!truthy(v)) out += renderNodes(n.children, scopes, mode);
      } else if (Array.isArray(v)) for (const el of v) out += renderNodes(n.children, [...scopes, el], mode);
      else if (truthy(v)) out += renderNodes(n.children, typeof v === 'object' ? [...scopes, v] : scopes, mode);
    }
  }
  return out;
}

/** Renders `template` with `data`: escaped for HTML in `html` mode, as is in `text` mode. */
export function render(template: string, data: Record<string, unknown>, mode: TemplateMode): string {
  return renderNodes(parse(template), [data], mode);
}

/** A plain-text part: trailing spaces trimmed, at most one empty line in a row. */
export const tidyText = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** A one-line header value (the subject): whitespace runs collapsed, capped. */
export const oneLine = (s: string, max = 300) => s.replace(/\s+/g, ' ').trim().slice(0, max);

/** Who an e-mail comes from, shown at its top: the operator's name, logo (an https URL) and colour (#rrggbb). */
export interface EmailBrand {
  name: string;
  logoUrl?: string | null;
  color?: string | null;
}

/** An e-mail template: subject, plain-text part and the body of the HTML part (wrapped in the layout). */
export interface EmailTemplate {
  subject: string;
  text: string;
  html: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const LAYOUT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>{{subject}}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111">
<tr><td style="padding:20px 24px;border-bottom:4px solid {{color}}">{{#logoUrl}}<img src="{{logoUrl}}" alt="{{name}}" height="40" style="height:40px;vertical-align:middle;margin-right:12px">{{/logoUrl}}<strong style="font-size:18px;vertical-align:middle">{{name}}</strong></td></tr>
<tr><td style="padding:20px 24px">
{{content}}
</td></tr>
</table>
</td></tr></table>
</body></html>`;

const SAFE_COLOR = /^#[0-9a-fA-F]{6}$/;
const SAFE_LOGO = /^https:\/\/[^\s"'<>]{4,2000}$/;

/**
 * Renders an e-mail: the subject (one line), the plain-text part, and the HTML part (the body in
 * the common layout, headed by the brand). Values are escaped in the HTML part.
 */
export function renderEmail(t: EmailTemplate, data: Record<string, unknown>, brand: EmailBrand): RenderedEmail {
  const subject = oneLine(render(t.subject, data, 'text'));
  const body = render(t.html, data, 'html')
    .replace(/<p>\s*<\/p>\n?/g, '')
    .replace(/<ul>\s*<\/ul>\n?/g, '')
    .replace(/\n{2,}/g, '\n')
    .trim();
  const html = render(
    LAYOUT,
    {
      subject,
      name: brand.name,
      logoUrl: brand.logoUrl && SAFE_LOGO.test(brand.logoUrl) ? brand.logoUrl : null,
      color: brand.color && SAFE_COLOR.test(brand.color) ? brand.color : '#0b5cab',
      content: rawHtml(body),
    },
    'html',
  );
  return { subject, text: tidyText(render(t.text, data, 'text')), html };
}
