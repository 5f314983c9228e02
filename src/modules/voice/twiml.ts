/**
 * TwiML (the telephony provider's XML) built as text with an escaper: every text node and
 * attribute value goes through `xmlEscape`, which also drops characters XML 1.0 forbids, so a
 * greeting or a renter's name can never break the document.
 */

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlEscape(s: string): string {
  return s.replace(FORBIDDEN, '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

type Attrs = Record<string, string | number | boolean | undefined>;

const attrs = (a: Attrs = {}) =>
  Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');

export class TwiML {
  private parts: string[] = [];

  private el(name: string, a?: Attrs, inner?: string) {
    this.parts.push(inner === undefined ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${inner}</${name}>`);
    return this;
  }

  say(text: string, a: Attrs = {}) {
    return text.trim() ? this.el('Say', { voice: 'Polly.Joanna', ...a }, xmlEscape(text.trim())) : this;
  }
  gather(a: Attrs, build: (t: TwiML) => void) {
    const inner = new TwiML();
    build(inner);
    return this.el('Gather', { input: 'dtmf', numDigits: 1, method: 'POST', ...a }, inner.parts.join(''));
  }
  dial(number: string, a: Attrs = {}) {
    return this.el('Dial', { method: 'POST', ...a }, `<Number>${xmlEscape(number)}</Number>`);
  }
  record(a: Attrs) {
    return this.el('Record', { method: 'POST', playBeep: true, ...a });
  }
  redirect(url: string) {
    return this.el('Redirect', { method: 'POST' }, xmlEscape(url));
  }
  pause(seconds = 1) {
    return this.el('Pause', { length: seconds });
  }
  hangup() {
    return this.el('Hangup');
  }

  toString() {
    return `<?xml version="1.0" encoding="UTF-8"?><Response>${this.parts.join('')}</Response>`;
  }
}

/** A URL with query parameters (path-absolute: the provider resolves it against the URL it called). */
export function voiceUrl(path: string, q: Record<string, string | number>) {
  return `/communication/voice/${path}?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`;
}
