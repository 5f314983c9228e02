/**
 * What the member portal (/member-portal) and the tenant portal (/slip-portal) share: the operator's look (its name, logo and
 * colour from the widget's catalog, as the booking widget shows them), the view (its heading takes the focus on every change),
 * the portal's navigation, the sign-in by an e-mailed link (the token read once from the address and removed from it, the
 * session kept in this tab's sessionStorage), the card form (the simulator's test cards offline, the provider's card element
 * when configured), and dates and amounts in the operator's time zone and currency.
 */
import { api, errText, qs } from '../api';
import type { Body, Catalog, Ok, Res } from '../api';
import type { operations } from 'berth-openapi';
import { announce, formFields, h, money, mountStripeCard, shout, testCardPaymentMethod } from '../ui';
import type { El, Kid } from '../ui';

export const Q = new URLSearchParams(location.search);
const view = document.getElementById('bw-view');
const navBox = document.getElementById('pt-nav');

/** An id from the address (`cus_...`, `loc_...`), else ''. */
export function idParam(name: string): string {
  const v = (Q.get(name) || '').trim();
  return /^[A-Za-z0-9_-]{3,128}$/.test(v) ? v : '';
}

// ---------------------------------------------------------------------------------------------
// The operator's look

/** The operator as the widget's catalog answers it (name, look, payments, locations) and its clock's offset from this device. */
export interface Brand {
  catalog: Catalog;
  clockOffset: number;
}
let brand: Brand | null = null;

/** The operator's brand once loaded (null before, or when it could not be read). */
export function currentBrand(): Brand | null {
  return brand;
}

/** Reads the operator's name, look and payment mode and shows them (title, logo, primary colour); null when unknown. */
export function loadBrand(customerId: string, portalName: string): Promise<Brand | null> {
  if (brand && brand.catalog.customerId === customerId) return Promise.resolve(brand);
  if (!customerId) return Promise.resolve(null);
  return api('getWidgetCatalog', 'GET', '/public/widget/catalog?' + qs({ customerId: customerId })).then(function (r) {
    if (r.status !== 200) return null;
    brand = { catalog: r.body, clockOffset: r.body.now ? Date.parse(r.body.now) - Date.now() : 0 };
    document.getElementById('bw-title').textContent = r.body.businessName;
    document.getElementById('bw-tz').textContent = portalName;
    document.title = portalName + ' · ' + r.body.businessName;
    const look = r.body.look;
    if (look.primaryColor) document.documentElement.style.setProperty('--bw-primary', look.primaryColor);
    if (look.logoUrl) {
      const logo = document.getElementById('bw-logo') as HTMLImageElement;
      logo.src = look.logoUrl;
      logo.alt = r.body.businessName;
      logo.hidden = false;
    }
    return brand;
  });
}

/** The operator's time zone for instants (its first location's), else UTC. */
function zone(locationId?: string): string {
  const locs = brand ? brand.catalog.locations : [];
  const l = locs.filter((x) => x.locationId === locationId)[0] || locs[0];
  return (l && l.timezone) || 'UTC';
}

/** "Now" on the operator's clock (the catalog's `now`, kept by its offset from this device). */
export function now(): number {
  return Date.now() + (brand ? brand.clockOffset : 0);
}

/** A calendar date (YYYY-MM-DD) or an instant (its date in the location's zone) in words: "Tuesday, June 1, 2027". */
export function dateText(v: string | null | undefined, o?: { short?: boolean; locationId?: string }): string {
  if (!v) return '';
  const opts: Intl.DateTimeFormatOptions =
    o && o.short ? { month: 'short', day: 'numeric', year: 'numeric' } : { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' };
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const p = v.split('-');
    return new Intl.DateTimeFormat('en-US', Object.assign({ timeZone: 'UTC' }, opts)).format(new Date(Date.UTC(+p[0], +p[1] - 1, +p[2])));
  }
  return new Intl.DateTimeFormat('en-US', Object.assign({ timeZone: zone(o && o.locationId) }, opts)).format(new Date(v));
}

/** An instant with its time in the location's zone: "Jun 1, 2027, 10:00 AM". */
export function whenText(iso: string | null | undefined, locationId?: string): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone(locationId),
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** An amount in cents in its currency: "$1,234.50". */
export function cents(amount: number, currency: string): string {
  return money(amount / 100, currency);
}

// ---------------------------------------------------------------------------------------------
// Views

/** Replaces the view: its heading (h2) takes the focus, so keyboard and screen-reader users land on the new content. */
export function show(title: string, nodes: Kid[], o?: { keepFocus?: boolean }) {
  view.textContent = '';
  const heading = h('h2', { tabindex: '-1', id: 'bw-view-title' }, title);
  view.appendChild(heading);
  nodes.forEach(function (n) {
    if (n !== null && n !== undefined && n !== false) view.appendChild(typeof n === 'string' || typeof n === 'number' ? document.createTextNode(String(n)) : n);
  });
  if (!(o && o.keepFocus)) heading.focus();
}

/** What an action did, shown under the view's heading and said by the status region. */
export function showNote(note: string) {
  const heading = document.getElementById('bw-view-title');
  heading.insertAdjacentElement('afterend', h('p', { class: 'bw-note' }, note));
  announce(note);
}

/** The portal's navigation (signed in): one button a place, the current one marked, and Sign out last. */
export function nav(items: { label: string; current: boolean; go: () => void }[], signOut: () => void) {
  navBox.textContent = '';
  items.forEach(function (i) {
    navBox.appendChild(h('button', { type: 'button', 'aria-current': i.current ? 'page' : null, onclick: i.go }, i.label));
  });
  navBox.appendChild(h('button', { type: 'button', class: 'pt-signout', onclick: signOut }, 'Sign out'));
  navBox.hidden = false;
}

export function hideNav() {
  navBox.textContent = '';
  navBox.hidden = true;
}

/** A view that says what went wrong, with a way to try again. */
export function fatal(title: string, msg: string) {
  hideNav();
  show(title, [
    h('p', { class: 'bw-error' }, msg),
    h('div', { class: 'bw-actions' }, h('button', { type: 'button', onclick: () => location.reload() }, 'Try again')),
  ]);
  shout(msg);
}

/**
 * The body of a read's answer, else null: a failure shows `failure` (with the API's message) in place of the view; a session
 * that ended (null) has already led back to the sign-in.
 */
export function readOr<T>(r: Res<T> | null, failure: string): T | null {
  if (!r) return null;
  if (r.ok) return r.body;
  fatal(failure, errText(r));
  return null;
}

/**
 * A view read from the API: `title` with `loading` said until `request` answers, then `render(body)`; a failure shows
 * `failure` with the API's message.
 */
export function loadingView<T>(title: string, loading: string, request: Promise<Res<T> | null>, failure: string, render: (body: T) => void) {
  show(title, [h('p', { class: 'bw-loading' }, loading)]);
  void request.then(function (r) {
    const body = readOr(r, failure);
    if (body) render(body);
  });
}

/** The body of a form's call, else null: a failure is written to the form's message line `msg` (`text` words it). */
export function doneOr<T>(r: Res<T> | null, msg: El, text?: (r: Res<T>) => string): T | null {
  if (!r) return null;
  if (r.ok) return r.body;
  msg.textContent = text ? text(r) : errText(r);
  return null;
}

/** A definition list of [term, value] (rows with an empty value are left out). */
export function facts(rows: [string, Kid | Kid[]][]): El {
  return h(
    'dl',
    { class: 'pt-dl' },
    rows
      .filter((r) => r[1] !== '' && r[1] !== null && r[1] !== undefined)
      .reduce(function (out, r) {
        out.push(h('dt', null, r[0]), h('dd', null, r[1]));
        return out;
      }, [] as El[]),
  );
}

/** A status's look: ok (green), wait (amber), bad (red) or off (grey). */
export type Tone = 'ok' | 'wait' | 'bad' | 'off';

/** A status badge, always with its word. */
export function badge(text: string, tone: Tone): El {
  return h('span', { class: 'pt-badge is-' + tone }, text);
}

/** The words and look of each status of a record. */
export type Statuses = Record<string, [string, Tone]>;

/** The words of `status` (its own name, readable, when the table has none). */
export function statusText(table: Statuses, status: string): string {
  return table[status] ? table[status][0] : cap(status.replace(/_/g, ' '));
}

/** The badge of `status` by the table. */
export function statusBadge(table: Statuses, status: string): El {
  return badge(statusText(table, status), table[status] ? table[status][1] : 'off');
}

/** The text with its first letter capitalised: "visa" → "Visa". */
export function cap(s: string): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/**
 * A form whose submit button is disabled while `run` works (it answers when done): a double press sends once. `msg` is the
 * form's error line (role alert) that `run` writes to: given, the caller placed it among `nodes`; else it goes before the last
 * node (the row of buttons).
 */
export function busyForm(nodes: Kid[], run: (msg: El) => Promise<unknown> | void, given?: El): El {
  const msg = given || h('p', { class: 'bw-error', role: 'alert' });
  const kids = given ? nodes : nodes.slice(0, -1).concat([msg, nodes[nodes.length - 1]]);
  const form = h('form', { novalidate: true }, kids);
  form.addEventListener('submit', function (e: Event) {
    e.preventDefault();
    const btn = form.querySelector('button[type=submit]');
    if (btn && btn.getAttribute('aria-disabled') === 'true') return;
    if (btn) btn.setAttribute('aria-disabled', 'true');
    msg.textContent = '';
    const done = () => btn && btn.removeAttribute('aria-disabled');
    Promise.resolve(run(msg)).then(done, done);
  });
  return form;
}

// ---------------------------------------------------------------------------------------------
// Sign-in by an e-mailed link

/** The session of a portal: its bearer token, expiry and operator. */
export interface Session {
  token: string;
  expiresAt: string;
  customerId: string;
}

/**
 * A portal's signed-in state: its session, kept in this tab (sessionStorage under `key`) until it expires or the person
 * signs out; `call` sends it as the bearer, and a session that ended (401) calls `onEnded` with what to say.
 */
export function portalSession(key: string, onEnded: (notice: string) => void) {
  let session: Session | null = null;
  const end = function (notice: string) {
    session = null;
    try {
      sessionStorage.removeItem(key);
    } catch {
      /* private mode */
    }
    onEnded(notice);
  };
  return {
    /** The bearer token of the session ('' signed out). */
    token: () => (session ? session.token : ''),
    /** Keeps a new (or updated) session. */
    keep(s: Session) {
      session = s;
      try {
        sessionStorage.setItem(key, JSON.stringify(s));
      } catch {
        /* private mode: the session lasts as long as the page */
      }
    },
    /** The session kept in this tab, if it has not expired and belongs to `customerId` (when the address names one). */
    restore(customerId: string): Session | null {
      try {
        const s = JSON.parse(sessionStorage.getItem(key) || 'null') as Session | null;
        session = s && s.token && Date.parse(s.expiresAt) > now() && (!customerId || s.customerId === customerId) ? s : null;
      } catch {
        session = null;
      }
      return session;
    },
    end: end,
    /** A call with the session; a session that ended (401) answers null, having led back to the sign-in. */
    call<Op extends keyof operations>(op: Op, method: string, path: string, body?: Body<Op>, headers?: Record<string, string>): Promise<Res<Ok<Op>> | null> {
      return api(op, method, path, body, Object.assign({ authorization: 'Bearer ' + (session ? session.token : '') }, headers || {})).then(function (r) {
        if (r.status !== 401) return r;
        end('Your session has ended. Ask for a new sign-in link to continue.');
        return null;
      });
    },
    /** Signs out with `op` (the session stops working at once). */
    signOut(op: 'closeMemberPortalSession' | 'closeSlipPortalSession', path: string) {
      void api(op, 'DELETE', path, undefined, { authorization: 'Bearer ' + (session ? session.token : '') }).then(function () {
        end('You are signed out. Ask for a new link to sign in again.');
      });
    },
  };
}

/**
 * The sign-in token of the address (`?token=`), taken once: it is removed from the address at once (history.replaceState), so
 * it is not kept in the history, bookmarked or shared; the other parameters (the operator, the location) stay.
 */
export function takeToken(prefix: string): string {
  const t = (Q.get('token') || '').trim();
  if (!Q.has('token')) return '';
  Q.delete('token');
  const rest = Q.toString();
  history.replaceState(null, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
  return t.indexOf(prefix) === 0 ? t : 'invalid';
}

/** The words for a link that could not be exchanged: used or expired (410), or unknown (404). */
export function linkProblem(r: Res<unknown>): string {
  if (r.status === 410) return 'This sign-in link was already used or has expired (links work once, for a short time). Ask for a new one below.';
  if (r.status === 404 || r.status === 400) return 'This sign-in link is not valid. Ask for a new one below.';
  return errText(r, 'We could not sign you in with this link.');
}

/**
 * The sign-in view: the e-mail (and what `extra` adds, such as the marina), then `request` sends a link; the answer says to
 * check the e-mail. `notice` says why the person is here (an expired link, a session that ended, a sign-out).
 */
export function signInView(o: { intro: string; notice?: string; extra?: El | null; request: (email: string) => Promise<Res<{ message: string }>> }) {
  hideNav();
  const f = formFields([['email', 'E-mail', 'email', 'email', '']]);
  const form = busyForm([f.node, o.extra, h('div', { class: 'bw-actions' }, h('button', { type: 'submit' }, 'E-mail me a sign-in link'))], function (msg) {
    if (!f.valid()) return;
    const email = f.values().email;
    announce('Sending the link, please wait.');
    return o.request(email).then(function (r) {
      if (!r.ok) {
        msg.textContent = r.status === 429 ? 'Too many links were asked for just now. Please wait a minute and try again.' : errText(r);
        return;
      }
      show('Check your e-mail', [
        h('p', null, r.body.message),
        h('p', { class: 'bw-hint' }, 'Open the link on this device. It works once and for a short time; you can always ask for another.'),
        h('div', { class: 'bw-actions' }, h('button', { type: 'button', class: 'bw-secondary', onclick: () => signInView(o) }, 'Send another link')),
      ]);
      announce('Sign-in link sent.');
    });
  });
  show('Sign in', [o.notice ? h('p', { class: 'bw-note', role: 'status' }, o.notice) : null, h('p', null, o.intro), form]);
}

// ---------------------------------------------------------------------------------------------
// The card form

/**
 * A card's fields: offline the simulator's test card form (its numbers listed), else the provider's card element.
 * `paymentMethod()` answers the token to send as `paymentMethodId` (null when the card is not usable; said in `msg`).
 */
export function cardFields(msg: El, name: string): { node: El; paymentMethod: () => Promise<string | null> } {
  const pay = brand && brand.catalog.payments;
  if (pay && pay.mode === 'stripe' && pay.publishableKey) {
    const mount = h('div', { id: 'bw-card', class: 'bw-summary' });
    const card = mountStripeCard(pay.publishableKey, mount, msg);
    return { node: h('div', null, [h('label', { for: 'bw-card' }, 'Card'), mount]), paymentMethod: () => card.paymentMethod() };
  }
  const f = formFields([
    ['cardName', 'Name on the card', 'text', 'cc-name', name],
    ['cardNumber', 'Card number', 'text', 'cc-number', ''],
    ['cardExp', 'Expiry (MM/YY)', 'text', 'cc-exp', ''],
    ['cardCvc', 'Security code', 'text', 'cc-csc', ''],
  ]);
  f.node.querySelector('#bw-f-cardNumber').setAttribute('inputmode', 'numeric');
  f.node.querySelector('#bw-f-cardCvc').setAttribute('inputmode', 'numeric');
  const cards = pay ? pay.testCards : [];
  const note = h('div', { class: 'bw-note' }, [
    h('strong', null, 'Test mode. '),
    'No real card is charged. Use one of these numbers with any future expiry and any security code: ',
    h(
      'ul',
      null,
      cards.map((c) => h('li', null, c.number.replace(/(\d{4})(?=\d)/g, '$1 ') + ': ' + c.label)),
    ),
  ]);
  return { node: h('div', null, [note, f.node]), paymentMethod: () => Promise.resolve(testCardPaymentMethod(f, msg)) };
}
