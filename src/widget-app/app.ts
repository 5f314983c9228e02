/*
 * Berth booking widget (served by the Worker at /widget; no framework, no third-party script).
 * Flow: items -> month calendar -> times -> party and extras (add-ons, protection plan, promo or gift
 * code) -> coverage (the underwriter's card and questions, where offered) -> renter details -> waiver
 * -> payment (the location's cancellation policy and the operator's terms above the Pay button) ->
 * confirmation (pass, wallet, .ics, coverage). Sold-out times offer the waitlist. Other views:
 * ?pass=<rentalId> (the renter's booking page: pass and coverage), ?manage=<rentalId> (change the date and
 * time, party or add-ons, repriced, or cancel, with an e-mailed code). Times are shown in the location's time zone, labelled with its name ("Eastern Time").
 * Embedded (public/widget.js), the page posts its content's height on every change so the iframe fits it.
 */
import { api, errText, qs } from './api';
import { announce, declineText, formFields, h, money, mountStripeCard, shout, testCardPaymentMethod } from './ui';
import type { El, StripeCard } from './ui';
import type { Settings } from './api';
import { readUrlState, STEP_IDS, writeUrlState } from './url-state';
import type { StepId, UrlState } from './url-state';
import type { Body, CartBody, Catalog, Checkout, CoverQuote, CheckoutResult, Item, Loc, Month, Day, Ok, Quote, QuoteRequest, Slot } from './api';

const Q = new URLSearchParams(location.search);
const ORIGIN = location.origin;
const view = document.getElementById('bw-view');
const stepsNav = document.getElementById('bw-steps');
const STEPS = [
  ['items', 'Boat or tour'],
  ['date', 'Date'],
  ['time', 'Time'],
  ['extras', 'Party & extras'],
  ['coverage', 'Coverage'],
  ['details', 'Your details'],
  ['waiver', 'Waiver'],
  ['payment', 'Payment'],
  ['done', 'Confirmation'],
];

type Question = CoverQuote['questions'][number];
type Plan = Ok<'listProtectionPlans'>['data'][number];
type Booking = CheckoutResult & { plan?: unknown };

/** The widget's state: what the renter chose so far (the part worth keeping is mirrored in the address, see history.ts). */
interface State {
  customer: string;
  location: string;
  ref: string;
  source: string;
  clockOffset: number;
  catalog: Catalog | null;
  item: Item | null;
  loc: Loc | null;
  month: string | null;
  monthData: Month | null;
  focusDate: string | null;
  date: string | null;
  day: Day | null;
  hours: number | null;
  slot: { startTime: string; endTime: string; time: string; seatsFree?: number | null; unitsFree?: number | null } | null;
  qty: number;
  people: number;
  tickets: Record<string, number>;
  addons: Record<string, number>;
  plans: Plan[] | null;
  plan: { code: string; plan: Plan } | null;
  promo: string;
  quote: Quote | null;
  cover: { key: string; ready: boolean; waiting: (() => void)[]; cards: CoverQuote[] } | null;
  coverChoice: string;
  coverage: CoverQuote | null;
  coverAnswers: Record<string, unknown>;
  renter: { firstName: string; lastName: string; email: string; phone: string };
  templates: Ok<'listPublicWaiverTemplates'>['data'] | null;
  settings: { customer: string; ready: boolean; body: Ok<'getPublicSettings'> | null; waiting: ((s: Ok<'getPublicSettings'>) => void)[] } | null;
  signatures: string[];
  booking: Booking | null;
  sessionId: string;
}

const S: State = {
  customer: Q.get('customer') || '',
  location: Q.get('location') || '',
  ref: clean(Q.get('ref')),
  source: clean(Q.get('source'), 253),
  clockOffset: 0,
  catalog: null,
  item: null,
  loc: null,
  month: null,
  monthData: null,
  focusDate: null,
  date: null,
  day: null,
  hours: null,
  slot: null,
  qty: 1,
  people: 1,
  tickets: {},
  addons: {},
  plans: null,
  plan: null,
  promo: '',
  quote: null,
  cover: null,
  coverChoice: '',
  coverage: null,
  coverAnswers: {},
  renter: { firstName: '', lastName: '', email: '', phone: '' },
  templates: null,
  settings: null,
  signatures: [],
  booking: null,
  sessionId: visitId(),
};

// ---------------------------------------------------------------------------------------------
// Helpers

function clean(v: string | null, max?: number): string {
  if (!v) return '';
  v = String(v)
    .trim()
    .slice(0, max || 64);
  return /^[A-Za-z0-9_.:-]+$/.test(v) ? v : '';
}

function visitId() {
  const k = 'berth:visit';
  try {
    let v = sessionStorage.getItem(k);
    if (v) return v;
    const a = new Uint8Array(12);
    crypto.getRandomValues(a);
    v =
      'v' +
      Array.prototype.map
        .call(a, function (b) {
          return ('0' + b.toString(16)).slice(-2);
        })
        .join('');
    sessionStorage.setItem(k, v);
    return v;
  } catch (e) {
    return 'v' + Date.now().toString(36) + Math.random().toString(36).slice(2, 10);
  }
}

/** Messages to the page that embeds the widget (its tag manager and conversion pixels listen there). */
function post(type: string, data?: Record<string, unknown>) {
  if (window.parent === window) return;
  try {
    window.parent.postMessage(Object.assign({ type: 'berth:' + type, customerId: S.customer }, data || {}), '*');
  } catch (e) {
    /* ignore */
  }
}

function track(event: Body<'recordWidgetEvent'>['event'], extra?: Record<string, unknown>) {
  if (!S.customer || CH) return;
  const b = Object.assign({ customerId: S.customer, sessionId: S.sessionId, event: event }, extra || {});
  if (S.item) b.inventoryId = S.item.inventoryId;
  if (S.item) b.locationId = S.item.locationId;
  if (S.ref) b.ref = S.ref;
  if (S.source) b.source = S.source;
  void api('recordWidgetEvent', 'POST', '/public/widget/events', b);
  post('funnel', { event: event });
}

function tz() {
  return (S.loc && S.loc.timezone) || 'UTC';
}

/** A local date (YYYY-MM-DD) in words: "Tuesday, June 1, 2027". */
function longDate(d: string): string {
  const p = d.split('-');
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }).format(
    new Date(Date.UTC(+p[0], +p[1] - 1, +p[2])),
  );
}

/** An instant as a time in the location's zone: "10:00 AM". */
function timeAt(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: tz(), hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
}

const zoneNames: Record<string, string> = {};
/**
 * The location's time zone by its name: "Eastern Time" (the generic name, right in summer and winter), else the long name
 * ("Coordinated Universal Time"), else its IANA id when the browser knows no name for it (only an offset such as "GMT+03:00").
 */
function zoneName() {
  const id = tz();
  if (zoneNames[id]) return zoneNames[id];
  let name = id;
  const styles = ['longGeneric', 'long'];
  for (let i = 0; i < styles.length && name === id; i++) {
    try {
      const z = new Intl.DateTimeFormat('en-US', { timeZone: id, timeZoneName: styles[i] as Intl.DateTimeFormatOptions['timeZoneName'] })
        .formatToParts(new Date(now()))
        .filter(function (p) {
          return p.type === 'timeZoneName';
        })[0];
      if (z && z.value && !/^(GMT|UTC)[+\-\u2212]/.test(z.value)) name = z.value;
    } catch (e) {
      /* a browser without this style (or zone): the next one */
    }
  }
  zoneNames[id] = name;
  return name;
}

function addDays(d: string, n: number): string {
  const p = d.split('-');
  const t = new Date(Date.UTC(+p[0], +p[1] - 1, +p[2] + n));
  return t.toISOString().slice(0, 10);
}

/** "Now" on the operator's clock (the catalog's `now`, kept by its offset from this device). */
function now() {
  return Date.now() + (S.clockOffset || 0);
}

function today() {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz(), year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(now()));
}

// ---------------------------------------------------------------------------------------------
// Rendering and navigation

function steps(active: string) {
  stepsNav.textContent = '';
  STEPS.forEach(function (s) {
    if (s[0] === 'waiver' && S.templates && !S.templates.length) return;
    if (s[0] === 'coverage' && !(S.cover && S.cover.ready && S.cover.cards.length)) return;
    stepsNav.appendChild(h('li', { 'aria-current': s[0] === active ? 'step' : null }, s[1]));
  });
}

/** Replaces the view; focus goes to its heading so keyboard and screen-reader users land on the new step. */
function show(step: string, title: string, nodes: (Node | null | false | undefined)[], opts?: { keepFocus?: boolean }) {
  steps(step);
  view.textContent = '';
  const heading = h('h2', { tabindex: '-1', id: 'bw-view-title' }, title);
  view.appendChild(heading);
  nodes.forEach(function (n) {
    if (n) view.appendChild(n);
  });
  if (!(opts && opts.keepFocus)) heading.focus();
  post('step', { step: step });
  record(step);
  shown = true;
  resize(true);
}

// ---------------------------------------------------------------------------------------------
// History and the address: every step is a history entry whose address holds the renter's choices (url-state.ts), so
// Back, Forward and a reload keep them. A reload or a link restores up to the party and extras step (the renter's details
// are never in the address); Back and Forward within the page return to any step already reached.

/** While the address is being replayed (Back, Forward, a reload): the view it leads to replaces the entry, never adds one. */
let restoring = false;
/** The renter's protection plan named by the address, chosen once the plans are known. */
let pendingPlan: string | null = null;
const HISTORY = !Q.get('pass') && !Q.get('manage');

function isStep(step: string): step is StepId {
  return (STEP_IDS as readonly string[]).includes(step);
}

/** What the address holds at `step`: only the choices made up to that step. */
function addressFor(step: StepId): UrlState {
  const at = STEP_IDS.indexOf(step);
  const has = (s: StepId) => at >= STEP_IDS.indexOf(s);
  const tour = !!S.item && S.item.type === 'tour';
  const party = has('extras') && !!S.slot;
  return {
    step,
    item: has('date') && S.item ? S.item.inventoryId : null,
    date: has('time') ? S.date : null,
    hours: has('time') && !tour ? S.hours : null,
    time: party ? S.slot.startTime : null,
    qty: party && !tour ? S.qty : null,
    people: party && !tour ? S.people : null,
    tickets: party && tour ? S.tickets : {},
    addons: party ? S.addons : {},
    plan: party && S.plan ? S.plan.code : null,
    promo: party ? S.promo : '',
  };
}

/** A step shown: a new history entry (the same step again, or a replayed one, replaces the current entry). */
function record(step: string) {
  if (!HISTORY || !isStep(step)) return;
  const url = location.pathname + writeUrlState(location.search, addressFor(step)) + location.hash;
  const current = history.state as { berthStep?: string } | null;
  if (restoring || !current || current.berthStep === step) history.replaceState({ berthStep: step }, '', url);
  else history.pushState({ berthStep: step }, '', url);
  restoring = false;
}

/** The party and extras changed: the current entry's address follows. */
function recordChoices() {
  const current = history.state as { berthStep?: string } | null;
  if (HISTORY && current && current.berthStep === 'extras') record('extras');
}

/** The party, add-ons, plan and code of the address, kept within what the item offers. */
function applyChoices(u: UrlState) {
  const it = S.item;
  if (it.type === 'tour') {
    const names = it.tiers.map((t) => t.name);
    const tickets: Record<string, number> = {};
    for (const [name, n] of Object.entries(u.tickets)) if ((names.includes(name) || (!names.length && name === 'Standard')) && n <= 50) tickets[name] = n;
    if (Object.keys(tickets).length) S.tickets = tickets;
  } else {
    if (u.qty) S.qty = Math.max(1, Math.min(u.qty, Math.max(1, (S.slot && S.slot.unitsFree) || 1)));
    if (u.people) S.people = Math.max(1, Math.min(u.people, Math.max(1, it.capacity * S.qty)));
  }
  const addons: Record<string, number> = {};
  for (const a of it.addons) if (u.addons[a.addonId]) addons[a.addonId] = Math.min(u.addons[a.addonId], Math.max(1, a.maxQuantity || 1));
  S.addons = addons;
  S.promo = u.promo;
  pendingPlan = u.plan;
}

/** The end of a slot for the chosen length (as the times step computes it). */
function slotEnd(s: Slot): string {
  if (S.item.type === 'tour' || S.item.fullDayOnly || !S.hours) return s.endTime;
  return new Date(Date.parse(s.startTime) + S.hours * 3600000).toISOString();
}

/** Replays an address: from the catalog (a reload, a link), or within the page (Back, Forward) from what is already known. */
function navigate(u: UrlState) {
  const item = u.item ? S.catalog.items.filter((i) => i.inventoryId === u.item)[0] : null;
  if (!item || !u.step || u.step === 'items') return itemsView();
  if (!S.item || S.item.inventoryId !== item.inventoryId) {
    beginItem(item, u.date);
    if (u.hours && item.durations.indexOf(u.hours) >= 0) S.hours = u.hours;
    if (!u.date || u.step === 'date') return loadMonth(calendarView);
    return loadMonth(() => restoreDay(u));
  }
  if (u.hours && item.durations.indexOf(u.hours) >= 0) S.hours = u.hours;
  if (u.step === 'date' || !u.date) {
    S.month = (u.date || S.focusDate || today()).slice(0, 7);
    return loadMonth(calendarView);
  }
  if (!S.slot || S.date !== u.date || S.slot.startTime !== u.time) return restoreDay(u);
  applyChoices(u);
  if (u.step === 'coverage' && S.cover && S.cover.ready && S.cover.cards.length) return coverView();
  if (u.step === 'details' || ((u.step === 'waiver' || u.step === 'payment') && !S.renter.email)) return detailsView();
  if (u.step === 'waiver' && S.templates && S.templates.length) return waiverView();
  if (u.step === 'payment' && S.quote) return paymentView();
  extrasView();
}

/** The day of the address; with its time (still open), the party and extras step with the address's choices. */
function restoreDay(u: UrlState) {
  chooseDate(u.date, function () {
    const s = u.time && u.step !== 'time' ? S.day.slots.filter((x) => x.startTime === u.time)[0] : null;
    if (!s || !s.available) return timesView();
    S.slot = { startTime: s.startTime, endTime: slotEnd(s), time: s.time, seatsFree: s.seatsFree, unitsFree: s.unitsFree };
    applyChoices(u);
    extrasView();
    loadCover();
  });
}

// ---------------------------------------------------------------------------------------------
// Cart recovery: once the renter has given their e-mail, the cart (what they chose, as the address holds it) is recorded
// with POST /public/cartRecovery under the visit's own random id; the processor e-mails a link back an hour later unless the
// booking is made, which completes the cart (DELETE /public/cartRecovery/{id} with the transaction). The link brings
// `cartRecoveryId`: the widget reads the cart back and restores the renter's choices and details.

let cartMemo = '';
/** The visit's cart id (a random UUID, kept for the tab's session): the same cart is updated, never duplicated. */
function cartId(create: boolean): string {
  try {
    cartMemo = cartMemo || sessionStorage.getItem('berth:cart') || '';
  } catch {
    /* storage refused (a third-party frame): the id lives as long as the page */
  }
  if (!cartMemo && create) {
    cartMemo = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : visitId().slice(1) + visitId().slice(1);
    keepCartId(cartMemo);
  }
  return cartMemo;
}

function keepCartId(id: string) {
  cartMemo = id;
  try {
    if (id) sessionStorage.setItem('berth:cart', id);
    else sessionStorage.removeItem('berth:cart');
  } catch {
    /* as above */
  }
}

function saveCart() {
  if (!S.renter.email || !S.item || !S.slot) return;
  const body: CartBody = {
    id: cartId(true),
    email: S.renter.email,
    locationId: S.item.locationId,
    customerId: S.customer,
    bookingInfo: { inventoryId: S.item.inventoryId, itemName: S.item.name, startTime: S.slot.startTime, endTime: S.slot.endTime, quantity: guests() },
    cartData: { address: writeUrlState('', addressFor('extras')) },
  };
  if (S.renter.firstName) body.firstName = S.renter.firstName;
  if (S.renter.lastName) body.lastName = S.renter.lastName;
  void api('createCartRecovery', 'POST', '/public/cartRecovery', body);
}

function completeCart(transactionId: string) {
  const id = cartId(false);
  if (!id) return;
  keepCartId('');
  void api('completeCartRecovery', 'DELETE', '/public/cartRecovery/' + encodeURIComponent(id) + '?' + qs({ transactionId }));
}

/** A recovery link: the cart's choices and the renter's details back (an unknown, completed or expired cart: the items). */
function resumeCart(id: string) {
  void api('getPublicCartRecovery', 'GET', '/public/cartRecovery/' + encodeURIComponent(id)).then(function (r) {
    const cart = r.ok ? r.body : null;
    const address = cart && cart.status === 'active' && cart.cartData && cart.cartData.address;
    if (!cart || cart.customerId !== S.customer || typeof address !== 'string') return itemsView();
    keepCartId(cart.id);
    S.renter = { firstName: cart.firstName || '', lastName: cart.lastName || '', email: cart.email, phone: '' };
    restoring = true;
    navigate(readUrlState(address));
  });
}

if (HISTORY)
  window.addEventListener('popstate', function () {
    if (!S.catalog) return;
    restoring = true;
    // After paying, Back starts a new booking: the one made is done (its pass and e-mail stay), never paid twice.
    if (S.booking) {
      S.booking = null;
      return restart();
    }
    navigate(readUrlState(location.search));
  });

// The embedding page sizes the iframe to the widget's content, both ways. The content's own height is measured (the
// widget's root), never the document's scroll height, which is at least the iframe's viewport and so could only grow.
// Nothing is posted before the first step is shown: until then the frame keeps the height the embed script reserved.
const root = document.getElementById('bw');
let shown = false;
let postedHeight = 0;
function resize(always?: boolean) {
  if (!shown || !root) return;
  const height = Math.ceil(root.getBoundingClientRect().height);
  if (!height || (height === postedHeight && always !== true)) return;
  postedHeight = height;
  post('resize', { height: height });
}
if (window.ResizeObserver && root)
  new window.ResizeObserver(function () {
    resize();
  }).observe(root);
window.addEventListener('load', function () {
  resize();
});

function backButton(label: string, fn: () => void) {
  return h('button', { type: 'button', class: 'bw-secondary', onclick: fn }, label || 'Back');
}

function fatal(msg: string) {
  restoring = false;
  show('error', 'We could not load the booking page', [
    h('p', { class: 'bw-error' }, msg),
    h(
      'div',
      { class: 'bw-actions' },
      h(
        'button',
        {
          type: 'button',
          onclick: function () {
            location.reload();
          },
        },
        'Try again',
      ),
    ),
  ]);
  shout(msg);
}

// ---------------------------------------------------------------------------------------------
// Start

function start() {
  if (Q.get('pass')) return passView(Q.get('pass'));
  if (Q.get('manage')) return manageView(Q.get('manage'));
  if (!S.customer) return fatal('This page needs the operator id (customer) in its address.');
  void api('getWidgetCatalog', 'GET', '/public/widget/catalog?' + qs({ customerId: S.customer, locationId: S.location })).then(function (r) {
    if (r.status !== 200) return fatal(errText(r, 'This operator was not found.'));
    S.catalog = r.body;
    // The operator's clock, not the device's: the offset of the catalog's "now" from this device.
    S.clockOffset = r.body.now ? Date.parse(r.body.now) - Date.now() : 0;
    document.getElementById('bw-title').textContent = 'Book with ' + r.body.businessName;
    const look = r.body.look;
    if (look.primaryColor) document.documentElement.style.setProperty('--bw-primary', look.primaryColor);
    if (look.logoUrl) {
      const logo = document.getElementById('bw-logo') as HTMLImageElement;
      logo.src = look.logoUrl;
      logo.hidden = false;
    }
    track('view');
    post('ready', { items: r.body.items.length });
    // An address with a step (a reload, Back into the page): its choices. A deep link (item, date): that item's times.
    const cart = clean(Q.get('cartRecoveryId'), 128);
    if (cart) return resumeCart(cart);
    const u = readUrlState(location.search);
    if (u.step) {
      restoring = true;
      return navigate(u);
    }
    const deep =
      Q.get('item') &&
      r.body.items.filter(function (i) {
        return i.inventoryId === Q.get('item');
      })[0];
    if (deep) return pickItem(deep, /^\d{4}-\d{2}-\d{2}$/.test(Q.get('date') || '') ? Q.get('date') : null);
    itemsView();
  });
}

// ---------------------------------------------------------------------------------------------
// 1. Items

function priceLabel(i: Item): string {
  if (i.startingPrice === null) return 'Price on request';
  const unit = { hr: 'per hour', day: 'per day', person: 'per person', charter: 'per charter' }[i.priceUnit] || '';
  return 'From ' + money(i.startingPrice, i.currency) + ' ' + unit;
}

/** The item's location by its name (and city), shown when the operator has several: "Demo Marina Hamburg". */
function where(i: Item): string {
  if (S.catalog.locations.length < 2) return '';
  const l = S.catalog.locations.filter((x) => x.locationId === i.locationId)[0];
  return l ? 'At ' + l.name : '';
}

type Photo = Item['photos'][number];

/** A photo with its resized variants: the browser picks the width it needs from `srcset` for `sizes`; width and height reserve its box. */
function photoImg(p: Photo, cls: string, sizes: string, alt: string, eager?: boolean): El {
  return h('img', {
    class: cls,
    src: p.src,
    srcset: p.srcset,
    sizes: p.srcset ? sizes : null,
    width: String(p.width || 400),
    height: String(p.height || 300),
    alt: alt,
    loading: eager ? null : 'lazy',
    decoding: 'async',
  });
}

/** The chosen item's photos above its calendar (the first large, the others in a row that scrolls), and its description. */
function itemIntro(item: Item): El | null {
  const photos = item.photos || [];
  if (!photos.length && !item.description) return null;
  return h('div', { class: 'bw-intro' }, [
    photos.length
      ? h(
          'div',
          { class: 'bw-gallery' + (photos.length > 1 ? ' is-many' : '') },
          photos.slice(0, 8).map(function (p, n) {
            return photoImg(
              p,
              'bw-photo',
              photos.length > 1 ? '(max-width: 480px) 85vw, 600px' : '(max-width: 800px) 100vw, 760px',
              p.alt + (n ? ', photo ' + (n + 1) : ''),
              n === 0,
            );
          }),
        )
      : null,
    item.description ? h('p', { class: 'bw-desc' }, item.description) : null,
  ]);
}

function itemsView() {
  const items = S.catalog.items;
  if (!items.length) {
    return show('items', 'Nothing to book online right now', [
      h('p', null, 'Please contact ' + S.catalog.businessName + (S.catalog.locations[0] ? ' at ' + S.catalog.locations[0].phoneNumber : '') + ' to book.'),
    ]);
  }
  const list = h(
    'ul',
    { class: 'bw-items' },
    items.map(function (i) {
      const who =
        i.type === 'tour'
          ? 'Up to ' + i.capacity + ' guests per departure'
          : 'Up to ' + i.capacity + ' people' + (i.units > 1 ? ' · ' + i.units + ' boats' : '');
      return h(
        'li',
        null,
        h(
          'button',
          {
            type: 'button',
            class: 'bw-card',
            onclick: function () {
              pickItem(i, null);
            },
          },
          [
            // The card's name is its text, so its photo is decorative here (alt ""); the item's page names it.
            i.photos && i.photos[0]
              ? photoImg(i.photos[0], 'bw-card-img', '(max-width: 480px) 100vw, (max-width: 800px) 50vw, 360px', '')
              : h('span', { class: 'bw-card-img', 'aria-hidden': 'true' }),
            h('span', { class: 'bw-card-body' }, [
              h('span', { class: 'bw-card-name' }, i.name),
              h('span', { class: 'bw-card-meta' }, (i.type === 'tour' ? 'Tour' : 'Rental') + ' · ' + who),
              h('span', { class: 'bw-card-meta' }, priceLabel(i)),
              where(i) ? h('span', { class: 'bw-card-meta bw-card-loc' }, where(i)) : null,
            ]),
          ],
        ),
      );
    }),
  );
  show('items', 'Choose a boat or tour', [list]);
  announce(items.length + ' items to choose from');
}

function pickItem(item: Item, date: string | null) {
  beginItem(item, date);
  if (date) {
    track('date_chosen', { date: date });
    return loadMonth(function () {
      chooseDate(date);
    });
  }
  loadMonth(calendarView);
}

/** A new item: its location and zone, a fresh party, the month of `date` (else this month). */
function beginItem(item: Item, date: string | null) {
  S.item = item;
  S.loc =
    S.catalog.locations.filter(function (l) {
      return l.locationId === item.locationId;
    })[0] || S.catalog.locations[0];
  document.getElementById('bw-tz').textContent = 'Times are shown in ' + zoneName() + ', the time zone of ' + (S.loc ? S.loc.name : 'the location') + '.';
  S.hours = item.durations.length ? item.durations[0] : null;
  S.qty = 1;
  S.people = Math.min(2, item.capacity || 1);
  S.tickets = {};
  S.addons = {};
  S.quote = null;
  S.plan = null;
  const first = date || today();
  S.month = first.slice(0, 7);
  S.focusDate = first;
}

// ---------------------------------------------------------------------------------------------
// 2. Month calendar

function loadMonth(then: () => void) {
  void api(
    'getMonthAvailability',
    'GET',
    '/public/availability?' + qs({ inventoryId: S.item.inventoryId, locationId: S.item.locationId, month: S.month }),
  ).then(function (r) {
    if (r.status !== 200) return fatal(errText(r, 'Availability could not be loaded.'));
    S.monthData = r.body;
    then();
  });
}

function dayState(d: Month['days'][number]): string {
  if (d.status === 'available' && d.slotsTotal && d.slotsAvailable <= Math.max(1, Math.floor(d.slotsTotal / 4))) return 'few';
  return d.status;
}

const STATE_TEXT: Record<string, string> = { available: 'Open', few: 'Few left', sold_out: 'Sold out', closed: 'Closed', unavailable: 'Not bookable' };

function calendarView() {
  const days = S.monthData.days;
  const byDate: Record<string, Month['days'][number]> = {};
  days.forEach(function (d) {
    byDate[d.date] = d;
  });
  if (!byDate[S.focusDate])
    S.focusDate = (
      days.filter(function (d) {
        return d.status === 'available';
      })[0] || days[0]
    ).date;
  const p = S.month.split('-');
  const monthName = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(new Date(Date.UTC(+p[0], +p[1] - 1, 1)));
  const firstDow = new Date(Date.UTC(+p[0], +p[1] - 1, 1)).getUTCDay();
  const table = h('table', { class: 'bw-cal', role: 'grid', 'aria-labelledby': 'bw-month' });
  const head = h(
    'tr',
    null,
    ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].map(function (d, i) {
      return h('th', { scope: 'col', abbr: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][i] }, d);
    }),
  );
  table.appendChild(h('thead', null, head));
  const body = h('tbody');
  let row = h('tr');
  for (let i = 0; i < firstDow; i++) row.appendChild(h('td', { role: 'gridcell' }));
  days.forEach(function (d) {
    const st = dayState(d);
    const usable = st === 'available' || st === 'few' || st === 'sold_out';
    // The label starts with the button's visible text ("1 Open"), so the name a voice user says is the one they see.
    const label =
      +d.date.slice(8) +
      ' ' +
      STATE_TEXT[st] +
      ': ' +
      longDate(d.date) +
      (usable && d.slotsTotal ? ', ' + d.slotsAvailable + ' of ' + d.slotsTotal + ' times open' : '');
    const btn = h(
      'button',
      {
        type: 'button',
        class: 'bw-day is-' + st,
        'data-date': d.date,
        'aria-label': label,
        'aria-pressed': S.date === d.date ? 'true' : 'false',
        'aria-disabled': usable ? null : 'true',
        tabindex: d.date === S.focusDate ? '0' : '-1',
        onclick: function () {
          if (usable) {
            track('date_chosen', { date: d.date });
            chooseDate(d.date);
          } else announce(label);
        },
        onkeydown: calendarKeys,
      },
      [String(+d.date.slice(8)) + ' ', h('small', { 'aria-hidden': 'true' }, STATE_TEXT[st])],
    );
    row.appendChild(h('td', { role: 'gridcell' }, btn));
    if (row.children.length === 7) {
      body.appendChild(row);
      row = h('tr');
    }
  });
  if (row.children.length) body.appendChild(row);
  table.appendChild(body);
  const open = days.filter(function (d) {
    return d.status === 'available';
  }).length;
  const minMonth = today().slice(0, 7);
  show('date', 'Pick a date for ' + S.item.name, [
    itemIntro(S.item),
    h('div', { class: 'bw-cal-head' }, [
      h(
        'button',
        {
          type: 'button',
          class: 'bw-secondary',
          'aria-label': 'Previous month',
          disabled: S.month <= minMonth,
          onclick: function () {
            moveMonth(-1);
          },
        },
        '‹',
      ),
      h('h3', { id: 'bw-month', 'aria-live': 'polite' }, monthName),
      h(
        'button',
        {
          type: 'button',
          class: 'bw-secondary',
          'aria-label': 'Next month',
          onclick: function () {
            moveMonth(1);
          },
        },
        '›',
      ),
    ]),
    h('p', { class: 'bw-hint' }, 'Use the arrow keys to move between days, Page Up and Page Down to change the month.'),
    table,
    h('ul', { class: 'bw-legend', 'aria-label': 'Legend' }, [
      h('li', null, 'Open'),
      h('li', null, 'Few left: a few times remain'),
      h('li', null, 'Sold out: join the waitlist'),
    ]),
    h('div', { class: 'bw-actions' }, CH ? backButton('Back to your change', changeForm) : backButton('Back to all items', itemsView)),
  ]);
  announce(monthName + ': ' + open + (open === 1 ? ' day' : ' days') + ' with open times.');
}

function moveMonth(n: number) {
  const p = S.month.split('-');
  const d = new Date(Date.UTC(+p[0], +p[1] - 1 + n, 1));
  S.month = d.toISOString().slice(0, 7);
  S.focusDate = S.month + '-01';
  loadMonth(function () {
    calendarView();
    focusDay(S.focusDate);
  });
}

function focusDay(date: string) {
  const el = view.querySelector('[data-date="' + date + '"]');
  if (!el) return;
  view.querySelectorAll('.bw-day').forEach(function (b) {
    b.setAttribute('tabindex', '-1');
  });
  el.setAttribute('tabindex', '0');
  (el as HTMLElement).focus();
  S.focusDate = date;
}

function calendarKeys(e: KeyboardEvent) {
  const d = (e.currentTarget as HTMLElement).getAttribute('data-date');
  const delta = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[e.key];
  let target = null;
  if (delta) target = addDays(d, delta);
  else if (e.key === 'Home') target = addDays(d, -new Date(d + 'T12:00:00Z').getUTCDay());
  else if (e.key === 'End') target = addDays(d, 6 - new Date(d + 'T12:00:00Z').getUTCDay());
  else if (e.key === 'PageUp' || e.key === 'PageDown') {
    e.preventDefault();
    return moveMonth(e.key === 'PageUp' ? -1 : 1);
  } else return;
  e.preventDefault();
  if (target.slice(0, 7) !== S.month) {
    const min = today().slice(0, 7);
    if (target.slice(0, 7) < min) return;
    S.month = target.slice(0, 7);
    S.focusDate = target;
    return loadMonth(function () {
      calendarView();
      focusDay(target);
    });
  }
  focusDay(target);
}

// ---------------------------------------------------------------------------------------------
// 3. Times of a day

function chooseDate(date: string, then?: () => void) {
  S.date = date;
  S.focusDate = date;
  S.month = date.slice(0, 7);
  void api('getDayAvailability', 'GET', '/public/day-availability?' + qs({ inventoryId: S.item.inventoryId, locationId: S.item.locationId, date: date })).then(
    function (r) {
      if (r.status !== 200) return fatal(errText(r, 'The times of that day could not be loaded.'));
      S.day = r.body;
      (then || timesView)();
    },
  );
}

function minutes(t: string): number {
  const p = t.split(':');
  return +p[0] * 60 + +p[1];
}

function timesView() {
  const day = S.day;
  const isTour = S.item.type === 'tour';
  const nodes = [];
  if (!isTour && S.item.durations.length > 1) {
    nodes.push(
      h(
        'fieldset',
        null,
        [h('legend', null, 'How long?')].concat(
          S.item.durations.map(function (hrs) {
            const id = 'bw-len-' + String(hrs).replace('.', '_');
            return h('div', { class: 'bw-check' }, [
              h('input', {
                type: 'radio',
                name: 'bw-len',
                id: id,
                value: String(hrs),
                checked: S.hours === hrs,
                onchange: function () {
                  S.hours = hrs;
                  timesView();
                },
              }),
              h('label', { for: id, class: 'bw-check' }, hrs + (hrs === 1 ? ' hour' : ' hours')),
            ]);
          }),
        ),
      ),
    );
  }
  let closeMin = day.close ? minutes(day.close) : 24 * 60;
  if (day.close && day.open && closeMin <= minutes(day.open)) closeMin += 24 * 60;
  const slots = day.slots.filter(function (s) {
    return isTour || S.item.fullDayOnly || !S.hours || minutes(s.time) + S.hours * 60 <= closeMin;
  });
  const open = slots.filter(function (s) {
    return s.available;
  }).length;
  const list = h(
    'ul',
    { class: 'bw-slots' },
    slots.map(function (s) {
      const end = isTour || S.item.fullDayOnly || !S.hours ? s.endTime : new Date(Date.parse(s.startTime) + S.hours * 3600000).toISOString();
      const left = isTour ? (s.seatsFree || 0) + ' seats left' : (s.unitsFree || 0) + (s.unitsFree === 1 ? ' boat left' : ' boats left');
      const text = timeAt(s.startTime) + ' – ' + timeAt(end);
      const status = s.available ? left : 'Sold out, join the waitlist';
      // The visible text (the times, then the seats or the sold-out note) comes first in the label, in the same order.
      const label = text + ', ' + status.toLowerCase() + ', ' + longDate(S.date) + ', ' + zoneName();
      return h(
        'li',
        null,
        h(
          'button',
          {
            type: 'button',
            class: 'bw-slot' + (s.available ? '' : ' is-sold_out'),
            'aria-label': label,
            onclick: function () {
              if (!s.available && CH) return announce('That time is taken; pick another.');
              (s.available ? pickSlot : waitlistView)(s, end);
            },
          },
          [text + ' ', h('small', { 'aria-hidden': 'true' }, status)],
        ),
      );
    }),
  );
  nodes.push(
    h('p', { class: 'bw-hint' }, 'Times in ' + zoneName() + '.'),
    slots.length ? list : h('p', null, 'No times run on this day. Pick another date.'),
    h(
      'div',
      { class: 'bw-actions' },
      backButton('Back to the calendar', function () {
        loadMonth(calendarView);
      }),
    ),
  );
  show('time', 'Times on ' + longDate(S.date), nodes);
  announce(open + ' of ' + slots.length + ' times open on ' + longDate(S.date) + '.');
}

function pickSlot(s: Slot, end: string) {
  if (CH) {
    CH.startTime = s.startTime;
    CH.endTime = end;
    return changeForm();
  }
  S.slot = { startTime: s.startTime, endTime: end, time: s.time, seatsFree: s.seatsFree, unitsFree: s.unitsFree };
  track('slot_chosen', { date: S.date, time: s.time });
  extrasView();
  loadCover();
}

// ---------------------------------------------------------------------------------------------
// Waitlist (from a sold-out time)

function waitlistView(s: Slot) {
  const f = formFields([
    ['firstName', 'First name', 'text', 'given-name', S.renter.firstName],
    ['lastName', 'Last name', 'text', 'family-name', S.renter.lastName],
    ['email', 'E-mail', 'email', 'email', S.renter.email],
  ]);
  const msg = h('p', { class: 'bw-error', role: 'alert' });
  const form = h('form', { novalidate: true }, [
    h('p', null, 'This time is sold out. Join the waitlist: if a spot opens up we hold it for you and e-mail you a link to book it.'),
    f.node,
    msg,
    h('div', { class: 'bw-actions' }, [h('button', { type: 'submit' }, 'Join the waitlist'), backButton('Pick another time', timesView)]),
  ]);
  form.addEventListener('submit', function (e: Event) {
    e.preventDefault();
    const v = f.values();
    if (!f.valid()) return;
    S.renter.firstName = v.firstName;
    S.renter.lastName = v.lastName;
    S.renter.email = v.email;
    const body: Body<'joinWaitlist'> = {
      firstName: v.firstName,
      lastName: v.lastName,
      email: v.email,
      date: S.date,
      time: s.time,
      inventoryId: S.item.inventoryId,
      locationId: S.item.locationId,
      customerId: S.customer,
    };
    if (S.item.type !== 'tour' && S.hours) body.duration = Math.max(1, Math.round(S.hours));
    if (S.ref) body.refAffiliate = S.ref;
    void api('joinWaitlist', 'POST', '/public/waitlist', body).then(function (r) {
      if (r.status !== 200 && r.status !== 201) {
        msg.textContent = errText(r);
        return;
      }
      track('waitlist', { date: S.date, time: s.time });
      post('waitlist.joined', { inventoryId: S.item.inventoryId, date: S.date, time: s.time });
      show('time', 'You are on the waitlist', [
        h(
          'p',
          null,
          'We will e-mail ' + v.email + ' if ' + S.item.name + ' opens up on ' + longDate(S.date) + ' at ' + timeAt(s.startTime) + ' (' + zoneName() + ').',
        ),
        h('div', { class: 'bw-actions' }, [backButton('Pick another time', timesView), backButton('Back to all items', itemsView)]),
      ]);
      announce('You joined the waitlist.');
    });
  });
  show('time', 'Join the waitlist for ' + timeAt(s.startTime) + ' on ' + longDate(S.date), [form]);
}

// ---------------------------------------------------------------------------------------------
// 4. Party, add-ons, protection plan, promo code

function counter(id: string, label: string, value: number, min: number, max: number, onChange: (v: number) => void) {
  const input = h('input', { type: 'number', id: id, min: String(min), max: String(max), value: String(value), inputmode: 'numeric' });
  function set(v: number) {
    v = Math.max(min, Math.min(max, v | 0));
    input.value = String(v);
    onChange(v);
  }
  input.addEventListener('change', function () {
    set(+input.value);
  });
  return h('div', null, [
    h('label', { for: id }, label),
    h('div', { class: 'bw-counter' }, [
      h(
        'button',
        {
          type: 'button',
          class: 'bw-secondary',
          'aria-label': 'Fewer: ' + label,
          onclick: function () {
            set(+input.value - 1);
          },
        },
        '−',
      ),
      input,
      h(
        'button',
        {
          type: 'button',
          class: 'bw-secondary',
          'aria-label': 'More: ' + label,
          onclick: function () {
            set(+input.value + 1);
          },
        },
        '+',
      ),
    ]),
  ]);
}

function order() {
  const o: QuoteRequest = { customerId: S.customer, inventoryId: S.item.inventoryId, startTime: S.slot.startTime };
  if (S.item.type === 'tour') {
    const t = {};
    Object.keys(S.tickets).forEach(function (k) {
      if (S.tickets[k] > 0) t[k] = S.tickets[k];
    });
    o.tickets = t;
  } else {
    o.endTime = S.slot.endTime;
    o.quantity = S.qty;
    o.participants = S.people;
  }
  const ad = Object.keys(S.addons)
    .filter(function (k) {
      return S.addons[k] > 0;
    })
    .map(function (k) {
      return S.addons[k] > 1 ? { addonId: k, quantity: S.addons[k] } : { addonId: k };
    });
  if (ad.length) o.addons = ad;
  if (S.promo) o.promoCode = S.promo;
  return o;
}

function loadPlans(then: () => void) {
  if (S.plans !== null) return then();
  void api('listProtectionPlans', 'GET', '/api/v2/protection-plans?' + qs({ locationId: S.item.locationId })).then(function (r) {
    // The protection-plan step exists only where the API offers plans (404: not on this deployment).
    const list = r.status === 200 && r.body && r.body.data;
    S.plans = Array.isArray(list)
      ? list.filter(function (p) {
          return p.enabled !== false && p.active !== false;
        })
      : [];
    then();
  });
}

function planPremium(p: Plan, total: number): number {
  const pct = p.percentage;
  let v = ((pct || 0) * total) / 100;
  if (p.minimum != null) v = Math.max(v, p.minimum);
  if (p.maxCap != null) v = Math.min(v, p.maxCap);
  return Math.round(v * 100) / 100;
}

function extrasView() {
  if (S.item.type === 'tour' && !Object.keys(S.tickets).length) {
    const std =
      S.item.tiers.filter(function (t) {
        return t.isStandard;
      })[0] || S.item.tiers[0];
    S.tickets = {};
    if (std) S.tickets[std.name] = Math.max(1, S.item.minParticipants || 1);
  }
  loadPlans(function () {
    if (pendingPlan) {
      const p = (S.plans || []).filter((x) => x.planCode === pendingPlan)[0];
      if (p) S.plan = { code: pendingPlan, plan: p };
      pendingPlan = null;
    }
    renderExtras();
  });
}

function renderExtras() {
  const it = S.item;
  const nodes = [];
  const party = h('fieldset', null, [h('legend', null, 'Your party')]);
  if (it.type === 'tour') {
    if (!it.tiers.length)
      party.appendChild(
        counter('bw-t-std', 'Guests', S.tickets.Standard || 1, 1, 50, function (v) {
          S.tickets = { Standard: v };
          refreshQuote();
        }),
      );
    it.tiers.forEach(function (t, i) {
      party.appendChild(
        counter('bw-t-' + i, t.name + ' (' + money(t.price, it.currency) + ')', S.tickets[t.name] || 0, 0, 50, function (v) {
          S.tickets[t.name] = v;
          refreshQuote();
        }),
      );
    });
    party.appendChild(h('p', { class: 'bw-hint' }, (S.slot.seatsFree || 0) + ' seats left on this departure.'));
  } else {
    if (it.units > 1)
      party.appendChild(
        counter('bw-qty', 'Boats', S.qty, 1, Math.max(1, S.slot.unitsFree || 1), function (v) {
          S.qty = v;
          refreshQuote();
        }),
      );
    party.appendChild(
      counter('bw-people', 'People', S.people, 1, Math.max(1, it.capacity * S.qty), function (v) {
        S.people = v;
        refreshQuote();
      }),
    );
  }
  nodes.push(party);
  if (it.addons.length) {
    const fs = h('fieldset', null, [h('legend', null, 'Add-ons')]);
    it.addons.forEach(function (a, i) {
      const id = 'bw-a-' + i;
      const per = { per_hour: ' per hour', per_day: ' per day', per_person: ' per person' }[a.priceType] || '';
      const text = a.name + ' (' + money(a.price, it.currency) + per + ')';
      if (a.maxQuantity > 1 && a.priceType !== 'per_person') {
        fs.appendChild(
          counter(id, text, S.addons[a.addonId] || 0, 0, a.maxQuantity, function (v) {
            S.addons[a.addonId] = v;
            refreshQuote();
          }),
        );
      } else {
        fs.appendChild(
          h('div', { class: 'bw-check' }, [
            h('input', {
              type: 'checkbox',
              id: id,
              checked: !!S.addons[a.addonId],
              onchange: function (e) {
                S.addons[a.addonId] = e.target.checked ? 1 : 0;
                refreshQuote();
              },
            }),
            h('label', { for: id, class: 'bw-check' }, text),
          ]),
        );
      }
    });
    nodes.push(fs);
  }
  if (S.plans && S.plans.length) {
    const pf = h('fieldset', null, [h('legend', null, 'Protection plan')]);
    [null].concat(S.plans).forEach(function (p, i) {
      const id = 'bw-p-' + i;
      const code = p ? p.planCode || p.planId || p.code : '';
      pf.appendChild(
        h('div', { class: 'bw-check' }, [
          h('input', {
            type: 'radio',
            name: 'bw-plan',
            id: id,
            checked: p ? S.plan && S.plan.code === code : !S.plan,
            onchange: function () {
              S.plan = p ? { code: code, plan: p } : null;
              refreshQuote();
            },
          }),
          h('label', { for: id, class: 'bw-check' }, p ? (p.name || p.planName || code) + (p.description ? ': ' + p.description : '') : 'No protection plan'),
        ]),
      );
    });
    nodes.push(pf);
  }
  const promo = h('input', { type: 'text', id: 'bw-promo', autocomplete: 'off', value: S.promo, 'aria-describedby': 'bw-promo-msg' });
  const promoMsg = h('p', { id: 'bw-promo-msg', class: 'bw-hint' }, S.promo ? 'Code ' + S.promo + ' applied.' : '');
  nodes.push(
    h('fieldset', null, [
      h('legend', null, 'Promo or gift code'),
      h('label', { for: 'bw-promo' }, 'Code'),
      h('div', { class: 'bw-counter' }, [
        promo,
        h(
          'button',
          {
            type: 'button',
            class: 'bw-secondary',
            onclick: function () {
              S.promo = promo.value.trim();
              refreshQuote(promoMsg);
            },
          },
          'Apply',
        ),
      ]),
      promoMsg,
    ]),
  );
  nodes.push(h('div', { class: 'bw-summary', id: 'bw-summary', 'aria-live': 'polite' }, h('p', null, 'Calculating the price…')));
  nodes.push(
    h('div', { class: 'bw-actions' }, [
      h(
        'button',
        {
          type: 'button',
          id: 'bw-continue',
          onclick: function () {
            if (S.quote && S.quote.available) coverStep();
            else refreshQuote();
          },
        },
        'Continue',
      ),
      backButton('Pick another time', timesView),
    ]),
  );
  show('extras', it.name + ', ' + longDate(S.date) + ' at ' + timeAt(S.slot.startTime), nodes);
  // A code kept from before (Back, a reload, a recovered cart) is checked again and its message says what it does.
  refreshQuote(S.promo ? promoMsg : undefined);
}

let quoteSeq = 0;
function refreshQuote(promoMsg?) {
  const seq = ++quoteSeq;
  const box = document.getElementById('bw-summary');
  recordChoices();
  void api('quoteWidgetOrder', 'POST', '/public/widget/quote', order()).then(function (r) {
    if (seq !== quoteSeq || !box) return;
    box.textContent = '';
    if (r.status !== 200) {
      S.quote = null;
      if (r.error && r.error.error === 'invalid_promo_code') {
        const bad = S.promo;
        S.promo = '';
        if (promoMsg) promoMsg.textContent = 'The code ' + bad + ' cannot be used: ' + r.error.message;
        shout('The code cannot be used.');
        return refreshQuote();
      }
      box.appendChild(h('p', { class: 'bw-error' }, errText(r)));
      return;
    }
    S.quote = r.body;
    if (promoMsg && S.promo)
      promoMsg.textContent = r.body.giftCard
        ? 'Gift card ' + r.body.giftCard.code + ' pays ' + money(r.body.giftCard.applied, r.body.currency) + '.'
        : 'Code ' + S.promo + ' applied.';
    renderSummary(box);
    if (!r.body.available) {
      box.appendChild(
        h(
          'p',
          { class: 'bw-error' },
          'This time is no longer free for that choice: ' + (r.body.reasons[0] ? r.body.reasons[0].message : 'pick another time') + '.',
        ),
      );
      shout('This time is no longer free for that choice.');
    } else announce('Total ' + money(grandTotal(), r.body.currency));
  });
}

/** The total of the order: the rental, the protection plan's premium and the chosen coverage's premium (paid with the rental). */
function grandTotal() {
  const c = cover();
  return Math.round((S.quote.total + (S.plan ? planPremium(S.plan.plan, S.quote.total) : 0) + (c ? c.premium : 0)) * 100) / 100;
}

/** What a gift card pays: its balance, up to what is paid with the booking (the rental and the coverage). */
function giftPays() {
  const g = S.quote.giftCard;
  if (!g) return 0;
  const c = cover();
  return Math.min(g.balance, Math.round((S.quote.total + (c ? c.premium : 0)) * 100) / 100);
}

/** What the card pays: the total minus what a gift card covers. */
function dueNow() {
  return Math.round((grandTotal() - giftPays()) * 100) / 100;
}

/** A ticket line of the quote: "2 × Adult". */
function ticketText(t: { quantity: number; tier?: string }): string {
  return t.quantity + ' × ' + (t.tier || 'Ticket');
}

function renderSummary(box?) {
  const q = S.quote;
  // The quote's lines are loosely typed objects in the API (`lines[]`: additional properties).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read as the widget always has; the API types them as open objects
  const l: any = q.lines[0] || {};
  const rows = [];
  // Tours: one line per fare tier (the quote's ticket lines name it `tier`); a private charter is one price for the party.
  if (l.tickets && l.tickets.length && l.unit === 'charter')
    rows.push([S.item.name + ', private charter (' + l.tickets.map(ticketText).join(', ') + ')', money(l.rental || 0, q.currency)]);
  else if (l.tickets && l.tickets.length)
    l.tickets.forEach(function (t) {
      rows.push([ticketText(t), money(t.amount, q.currency)]);
    });
  else rows.push([S.item.name + (l.hours ? ' (' + l.hours + ' h)' : ''), money(l.rental || 0, q.currency)]);
  (l.addons || []).forEach(function (a) {
    rows.push([a.quantity + ' × ' + a.name, money(a.amount, q.currency)]);
  });
  (l.discounts || []).forEach(function (d) {
    rows.push(['Discount' + (d.code ? ' ' + d.code : ''), '−' + money(d.amount, q.currency)]);
  });
  (l.taxes || []).forEach(function (t) {
    rows.push([t.name, money(t.amount, q.currency)]);
  });
  if (S.plan) rows.push([(S.plan.plan.name || S.plan.code) + ' (charged after booking)', money(planPremium(S.plan.plan, q.total), q.currency)]);
  const c = cover();
  if (c) rows.push(['Coverage: ' + c.offering.name, money(c.premium, c.currency)]);
  const dl = h('dl');
  rows.forEach(function (r) {
    dl.appendChild(h('dt', null, r[0]));
    dl.appendChild(h('dd', null, r[1]));
  });
  dl.appendChild(h('dt', { class: 'bw-total' }, 'Total'));
  dl.appendChild(h('dd', { class: 'bw-total' }, money(grandTotal(), q.currency)));
  if (q.giftCard && giftPays() > 0) {
    dl.appendChild(h('dt', null, 'Gift card ' + q.giftCard.code));
    dl.appendChild(h('dd', null, '−' + money(giftPays(), q.currency)));
    dl.appendChild(h('dt', { class: 'bw-total' }, 'Due now by card'));
    dl.appendChild(h('dd', { class: 'bw-total' }, money(dueNow(), q.currency)));
  }
  box.appendChild(dl);
  const deposit = c ? c.deposit.withCoverage : q.deposit;
  if (deposit)
    box.appendChild(
      h('p', { class: 'bw-hint' }, 'A security deposit of ' + money(deposit, q.currency) + ' is held on your card and released after the rental.'),
    );
}

// ---------------------------------------------------------------------------------------------
// 4b. Coverage: the underwriter's card, its questions (from the schema pinned to the quote) and the
// "accept the higher price" step. Coverage never blocks the booking: no card, a decline or a failure
// and the renter goes on without it.

function guests() {
  if (S.item.type !== 'tour') return S.qty;
  let n = 0;
  Object.keys(S.tickets).forEach(function (k) {
    n += S.tickets[k] > 0 ? S.tickets[k] : 0;
  });
  return Math.max(1, n);
}

function coverKey() {
  return [S.item.inventoryId, S.slot.startTime, S.item.type === 'tour' ? '' : S.slot.endTime, guests()].join('|');
}

/** The chosen coverage while it still fits the order (same item, time and party), else null. */
function cover() {
  return S.coverage && S.cover && S.cover.key === coverKey() ? S.coverage : null;
}

/** Quotes the coverage of the order once per item, time and party (POST /public/coverage/quotes); `then` runs when the cards are known. */
function loadCover(then?: () => void) {
  const key = coverKey();
  if (S.cover && S.cover.key === key) {
    if (S.cover.ready) return then && then();
    if (then) S.cover.waiting.push(then);
    return;
  }
  const c = { key: key, ready: false, waiting: then ? [then] : [], cards: [] };
  S.cover = c;
  S.coverage = null;
  S.coverChoice = '';
  const body: Body<'quotePublicCoverage'> = {
    customerId: S.customer,
    inventoryId: S.item.inventoryId,
    locationId: S.item.locationId,
    startTime: S.slot.startTime,
    quantity: guests(),
  };
  if (S.item.type !== 'tour') body.endTime = S.slot.endTime;
  void api('quotePublicCoverage', 'POST', '/public/coverage/quotes', body).then(function (r) {
    const list = r.status === 200 && r.body && Array.isArray(r.body.data) ? r.body.data : [];
    c.cards = list.filter(function (q) {
      return q.status === 'quoted' || q.status === 'ready' || q.status === 'needs_acceptance';
    });
    c.ready = true;
    const waiting = c.waiting;
    c.waiting = [];
    waiting.forEach(function (fn) {
      if (S.cover === c) fn();
      else loadCover(fn);
    });
  });
}

function coverStep() {
  const btn = document.getElementById('bw-continue');
  if (btn) btn.setAttribute('aria-disabled', 'true');
  if (!(S.cover && S.cover.ready && S.cover.key === coverKey())) announce('Checking coverage options…');
  loadCover(function () {
    if (btn) btn.removeAttribute('aria-disabled');
    if (S.cover.cards.length) coverView();
    else {
      S.coverage = null;
      detailsView();
    }
  });
}

function depositText(q: CoverQuote): string | null {
  const d = q.deposit;
  if (!d || d.withoutCoverage === d.withCoverage) return null;
  return d.withCoverage === 0
    ? 'With this coverage no security deposit is held (instead of ' + money(d.withoutCoverage, q.currency) + ').'
    : 'With this coverage the security deposit is ' + money(d.withCoverage, q.currency) + ' instead of ' + money(d.withoutCoverage, q.currency) + '.';
}

function replaceCard(q: CoverQuote) {
  S.cover.cards = S.cover.cards.map(function (x) {
    return x.quoteId === q.quoteId ? q : x;
  });
}

function dropCard(quoteId: string) {
  S.cover.cards = S.cover.cards.filter(function (x) {
    return x.quoteId !== quoteId;
  });
  S.coverChoice = '';
  S.coverage = null;
}

/** One underwriter question as a labelled control: answers typed as the schema says (numbers, booleans, lists, an address object). */
function questionRow(q: CoverQuote, f: Question, saved: unknown, update: () => void) {
  const id = 'bw-q-' + f.id;
  const err = h('p', { id: id + '-err', class: 'bw-error', hidden: true });
  /** A changed answer clears its error (checked again on Continue) and redraws the conditions. */
  function onChange() {
    if (!err.hidden) {
      err.hidden = true;
      if (focusEl) focusEl.setAttribute('aria-invalid', 'false');
    }
    update();
  }
  const help = f.help ? h('p', { id: id + '-help', class: 'bw-hint' }, f.help) : null;
  const described = id + '-err' + (help ? ' ' + id + '-help' : '');
  const label = f.label + (f.required ? '' : ' (optional)');
  const v = saved[f.id];
  let get;
  let focusEl;
  let node;
  if (f.type === 'notice') {
    node = h('div', { class: 'bw-note' }, [h('strong', null, f.label), f.text ? h('p', null, f.text) : null]);
    return { node: node, get: function () {}, err: err };
  }
  const common = { id: id, 'aria-describedby': described, required: f.required, onchange: onChange, oninput: onChange };
  if (f.type === 'checkbox') {
    const cb = h('input', Object.assign({}, common, { type: 'checkbox', checked: v === true }));
    node = h('div', null, [h('div', { class: 'bw-check' }, [cb, h('label', { for: id, class: 'bw-check' }, label)]), help, err]);
    get = function () {
      return cb.checked;
    };
    focusEl = cb;
  } else if (f.type === 'dropdown') {
    const sel = h(
      'select',
      common,
      [h('option', { value: '' }, 'Choose…')].concat(
        f.options.map(function (o) {
          return h('option', { value: o.value }, o.label);
        }),
      ),
    );
    sel.value = typeof v === 'string' ? v : '';
    node = h('div', null, [h('label', { for: id }, label), sel, help, err]);
    get = function () {
      return sel.value || undefined;
    };
    focusEl = sel;
  } else if (f.type === 'multiselect') {
    const boxes = f.options.map(function (o, i) {
      const cid = id + '-' + i;
      const c = h('input', { type: 'checkbox', id: cid, value: o.value, checked: Array.isArray(v) && v.indexOf(o.value) >= 0, onchange: onChange });
      return { input: c, node: h('div', { class: 'bw-check' }, [c, h('label', { for: cid, class: 'bw-check' }, o.label)]) };
    });
    node = h(
      'fieldset',
      { 'aria-describedby': described },
      [h('legend', null, label)]
        .concat(
          boxes.map(function (b) {
            return b.node;
          }),
        )
        .concat([help, err]),
    );
    get = function () {
      const out = boxes
        .filter(function (b) {
          return b.input.checked;
        })
        .map(function (b) {
          return b.input.value;
        });
      return out.length ? out : undefined;
    };
    focusEl = boxes[0] && boxes[0].input;
  } else if (f.type === 'address') {
    const a = v && typeof v === 'object' ? v : {};
    const parts = [
      ['line1', 'Street and number', 'address-line1'],
      ['line2', 'Apartment, suite (optional)', 'address-line2'],
      ['city', 'City', 'address-level2'],
      ['region', 'State or region (optional)', 'address-level1'],
      ['postalCode', 'Postal code (optional)', 'postal-code'],
      ['country', 'Country code (2 letters, e.g. US)', 'country'],
    ].map(function (d) {
      const pid = id + '-' + d[0];
      const inp = h('input', { type: 'text', id: pid, autocomplete: d[2], value: a[d[0]] || '', onchange: onChange, oninput: onChange });
      if (d[0] === 'country') inp.setAttribute('maxlength', '2');
      return { key: d[0], input: inp, node: h('div', null, [h('label', { for: pid }, d[1]), inp]) };
    });
    node = h(
      'fieldset',
      { 'aria-describedby': described },
      [h('legend', null, label)]
        .concat(
          parts.map(function (p) {
            return p.node;
          }),
        )
        .concat([help, err]),
    );
    get = function () {
      const o: Record<string, string> = {};
      parts.forEach(function (p) {
        const x = p.input.value.trim();
        if (x) o[p.key] = p.key === 'country' ? x.toUpperCase() : x;
      });
      return Object.keys(o).length ? o : undefined;
    };
    focusEl = parts[0].input;
  } else {
    const type = f.type === 'number' ? 'number' : f.type === 'date' ? 'date' : 'text';
    const attrs: Record<string, unknown> = Object.assign({}, common, { type: type, value: v === undefined || v === null ? '' : String(v) });
    if (f.type === 'number') {
      attrs.inputmode = 'decimal';
      attrs.step = 'any';
      if (f.min !== null) attrs.min = String(f.min);
      if (f.max !== null) attrs.max = String(f.max);
    }
    if (f.type === 'text' && f.maxLength) attrs.maxlength = String(f.maxLength);
    if (f.type === 'date' && f.minAgeYears !== null) {
      const p = S.date.split('-');
      attrs.max = String(+p[0] - f.minAgeYears) + '-' + p[1] + '-' + p[2];
    }
    const inp = h('input', attrs);
    node = h('div', null, [h('label', { for: id }, label), inp, help, err]);
    get = function () {
      const x = inp.value.trim();
      if (!x) return undefined;
      return f.type === 'number' ? Number(x) : x;
    };
    focusEl = inp;
  }
  return { node: node, get: get, err: err, focus: focusEl };
}

/** What is wrong with an answer (the server checks again against the pinned schema), or ''. */
/** An answer as the question's form reads it: text, a number, a checkbox, a list or an address. */
type Answer = string | number | boolean | string[] | { line1?: string; city?: string; country?: string } | undefined;

function answerProblem(f: Question, v: Answer): string | null {
  const empty = v === undefined || (f.type === 'checkbox' && v !== true);
  if (empty) return f.required ? (f.type === 'checkbox' ? 'Please tick this box.' : f.label + ' is required.') : '';
  if (f.type === 'text' && f.pattern) {
    try {
      if (!new RegExp('^(?:' + f.pattern + ')$', 'u').test(String(v))) return 'This does not have the expected format.' + (f.help ? ' ' + f.help : '');
    } catch (e) {
      /* the server checks it */
    }
  }
  if (f.type === 'number') {
    const n = typeof v === 'number' ? v : NaN;
    if (!isFinite(n)) return 'Enter a number.';
    if (f.min !== null && n < f.min) return 'Enter at least ' + f.min + '.';
    if (f.max !== null && n > f.max) return 'Enter at most ' + f.max + '.';
  }
  if (f.type === 'date' && f.minAgeYears !== null) {
    const b = String(v).split('-');
    const d = S.date.split('-');
    const age = +d[0] - +b[0] - (+d[1] < +b[1] || (+d[1] === +b[1] && +d[2] < +b[2]) ? 1 : 0);
    if (!(age >= f.minAgeYears)) return 'Must be at least ' + f.minAgeYears + ' years old on ' + longDate(S.date) + '.';
  }
  const a = (v || {}) as { line1?: string; city?: string; country?: string };
  if (f.type === 'address' && (!a.line1 || !a.city || !/^[A-Z]{2}$/.test(a.country || ''))) return 'Give the street, the city and the 2-letter country code.';
  return '';
}

/** The questions of a card, drawn from the schema pinned to its quote; questions whose condition is not met are hidden and not sent. */
function questionForm(q: CoverQuote) {
  const saved = S.coverAnswers[q.quoteId] || (S.coverAnswers[q.quoteId] = {});
  const rows = {};
  const box = h('div', { class: 'bw-questions' });
  function matches(f) {
    const dep = rows[f.showIf.field];
    if (!dep || dep.node.hidden) return false;
    const v = dep.get();
    const c = f.showIf;
    const one = function (x) {
      return c.equals !== null && c.equals !== undefined ? x === c.equals : (c.in || []).indexOf(String(x)) >= 0;
    };
    return Array.isArray(v) ? v.some(one) : one(v);
  }
  function update() {
    q.questions.forEach(function (f) {
      const r = rows[f.id];
      if (f.showIf) r.node.hidden = !matches(f);
      const v = r.get();
      if (f.type !== 'notice') saved[f.id] = v;
    });
    resize();
  }
  q.questions.forEach(function (f) {
    rows[f.id] = questionRow(q, f, saved, update);
    box.appendChild(rows[f.id].node);
  });
  update();
  function setError(r, msg) {
    r.err.textContent = msg;
    r.err.hidden = !msg;
    if (r.focus) r.focus.setAttribute('aria-invalid', msg ? 'true' : 'false');
  }
  return {
    node: box,
    answers: function () {
      const out = {};
      q.questions.forEach(function (f) {
        const r = rows[f.id];
        if (f.type === 'notice' || r.node.hidden) return;
        const v = r.get();
        if (v !== undefined) out[f.id] = v;
      });
      return out;
    },
    valid: function () {
      let first = null;
      q.questions.forEach(function (f) {
        const r = rows[f.id];
        if (f.type === 'notice') return;
        const msg = r.node.hidden ? '' : answerProblem(f, r.get());
        setError(r, msg);
        if (msg && !first) first = r;
      });
      if (first) {
        if (first.focus) first.focus.focus();
        shout('Please correct the highlighted answers.');
      }
      return !first;
    },
    /** The server's field problems (`answers.<id>`). */
    show: function (details) {
      let first = null;
      (details || []).forEach(function (d) {
        const r = rows[String(d.field || '').replace(/^answers\./, '')];
        if (!r) return;
        setError(r, 'This answer ' + d.message + '.');
        if (!first) first = r;
      });
      if (first && first.focus) first.focus.focus();
      return !!first;
    },
  };
}

function coverView(note?: string) {
  const cards = S.cover.cards;
  if (S.coverChoice && !cards.some(isChosen)) S.coverChoice = '';
  const msg = h('p', { class: 'bw-error', role: 'alert' }, note || '');
  const questionsBox = h('div', { id: 'bw-cover-questions', 'aria-live': 'polite' });
  let form = null;
  function isChosen(q) {
    return q.quoteId === S.coverChoice;
  }
  function chosen() {
    return cards.filter(isChosen)[0] || null;
  }
  function drawQuestions() {
    questionsBox.textContent = '';
    form = null;
    const q = chosen();
    if (q && q.questions.length) {
      form = questionForm(q);
      questionsBox.appendChild(h('h3', null, 'Questions from ' + q.offering.name));
      questionsBox.appendChild(form.node);
    }
    resize();
  }
  const fs = h('fieldset', null, [h('legend', null, 'Add coverage to your booking?')]);
  cards.forEach(function (q, i) {
    const id = 'bw-c-' + i;
    const price = q.priceChange === 'none' ? money(q.estimate, q.currency) : money(q.premium, q.currency);
    fs.appendChild(
      h('div', { class: 'bw-cover' }, [
        h('div', { class: 'bw-check' }, [
          h('input', {
            type: 'radio',
            name: 'bw-cover',
            id: id,
            checked: isChosen(q),
            onchange: function () {
              S.coverChoice = q.quoteId;
              drawQuestions();
            },
          }),
          h('label', { for: id, class: 'bw-check' }, 'Add ' + q.offering.name + ' for ' + price),
        ]),
        depositText(q) ? h('p', { class: 'bw-hint' }, depositText(q)) : null,
        h(
          'p',
          { class: 'bw-hint' },
          'Paid together with your booking. ' +
            (q.questions.length ? 'A few questions decide the final price. ' : '') +
            'Questions about this coverage: ' +
            q.offering.supportEmail +
            '.',
        ),
      ]),
    );
  });
  fs.appendChild(
    h('div', { class: 'bw-check' }, [
      h('input', {
        type: 'radio',
        name: 'bw-cover',
        id: 'bw-c-none',
        checked: !S.coverChoice,
        onchange: function () {
          S.coverChoice = '';
          drawQuestions();
        },
      }),
      h('label', { for: 'bw-c-none', class: 'bw-check' }, 'No coverage'),
    ]),
  );
  const next = h('button', { type: 'button', id: 'bw-cover-continue' }, 'Continue');
  next.addEventListener('click', function () {
    const q = chosen();
    msg.textContent = '';
    if (!q) {
      S.coverage = null;
      return detailsView();
    }
    if (!q.questions.some(answerable)) return settle(q, msg);
    if (!form.valid()) return;
    if (next.getAttribute('aria-disabled') === 'true') return;
    next.setAttribute('aria-disabled', 'true');
    announce('Checking your answers with ' + q.offering.name + '…');
    void api('answerPublicCoverageQuestions', 'POST', '/public/coverage/quotes/' + encodeURIComponent(q.quoteId) + '/answers', {
      answers: form.answers(),
    }).then(function (r) {
      next.removeAttribute('aria-disabled');
      if (r.status === 200) {
        replaceCard(r.body);
        return settle(r.body, msg);
      }
      if (r.status === 400 && r.error && r.error.error === 'validation_failed' && form.show(r.error.details)) {
        shout('Please correct the highlighted answers.');
        return;
      }
      if (r.status === 410) return requote('The coverage price expired; here is a fresh one.');
      coverGone(q, r.status === 0 ? errText(r) : 'The insurer could not be reached.');
    });
  });
  show('coverage', 'Coverage for your trip', [
    h('p', null, 'Optional: coverage from an insurer, bought with your booking in one payment. Your booking does not depend on it.'),
    fs,
    questionsBox,
    msg,
    h('div', { class: 'bw-actions' }, [next, backButton('Back', renderExtras)]),
  ]);
  drawQuestions();
  if (note) shout(note);
}

function answerable(f: Question): boolean {
  return f.type !== 'notice';
}

/** Where a card goes after its answers: ready (on with it), a higher price (the renter decides), a decline or failure (on without it). */
function settle(q: CoverQuote, msg: HTMLElement) {
  if (q.status === 'ready') {
    S.coverage = q;
    if (q.priceChange === 'lower') announce('Good news: ' + q.offering.name + ' costs ' + money(q.premium, q.currency) + ', less than the estimate.');
    return detailsView();
  }
  if (q.status === 'needs_acceptance') return acceptView(q);
  if (q.status === 'declined' || q.status === 'failed') return coverGone(q, q.status === 'declined' ? q.reason : null);
  msg.textContent = 'This coverage cannot be bought now.';
  dropCard(q.quoteId);
}

/** The coverage is off (declined, failed, unreachable): the renter goes on without it. */
function coverGone(q: CoverQuote, reason: string) {
  dropCard(q.quoteId);
  const text = q.offering.name + ' cannot be added' + (reason ? ': ' + reason : '') + '. Nothing was charged for it, and your booking can go ahead without it.';
  if (S.cover.cards.length) return coverView(text);
  show('coverage', 'Coverage is not available', [
    h('p', { class: 'bw-note' }, text),
    h('div', { class: 'bw-actions' }, [h('button', { type: 'button', onclick: detailsView }, 'Continue without coverage'), backButton('Back', renderExtras)]),
  ]);
  shout(text);
}

function requote(note: string) {
  S.cover = null;
  loadCover(function () {
    if (S.cover.cards.length) coverView(note);
    else coverGone({ quoteId: '', offering: { name: 'The coverage', supportEmail: '' } } as CoverQuote, null);
  });
}

/** A final price above the estimate: payment waits until the renter accepts it (or goes on without the coverage). */
function acceptView(q: CoverQuote) {
  const msg = h('p', { class: 'bw-error', role: 'alert' });
  const yes = h('button', { type: 'button' }, 'Accept ' + money(q.premium, q.currency));
  yes.addEventListener('click', function () {
    if (yes.getAttribute('aria-disabled') === 'true') return;
    yes.setAttribute('aria-disabled', 'true');
    void api('acceptPublicCoveragePrice', 'POST', '/public/coverage/quotes/' + encodeURIComponent(q.quoteId) + '/accept', { premium: q.premium }).then(
      function (r) {
        yes.removeAttribute('aria-disabled');
        if (r.status === 200) {
          replaceCard(r.body);
          S.coverage = r.body;
          announce('Coverage accepted at ' + money(r.body.premium, r.body.currency) + '.');
          return detailsView();
        }
        if (r.error && r.error.error === 'coverage_price_changed' && typeof r.body.premium === 'number') {
          q.premium = r.body.premium;
          return acceptView(q);
        }
        if (r.status === 410) return requote('The coverage price expired; here is a fresh one.');
        msg.textContent = errText(r);
      },
    );
  });
  show('coverage', 'The coverage price changed', [
    h(
      'p',
      null,
      'After your answers, ' +
        q.offering.name +
        ' costs ' +
        money(q.premium, q.currency) +
        ' instead of the ' +
        money(q.estimate, q.currency) +
        ' shown before. Nothing is charged until you pay; accept the new price or go on without the coverage.',
    ),
    msg,
    h('div', { class: 'bw-actions' }, [
      yes,
      backButton('Continue without coverage', function () {
        S.coverChoice = '';
        S.coverage = null;
        detailsView();
      }),
      backButton('Change my answers', function () {
        coverView();
      }),
    ]),
  ]);
}

// ---------------------------------------------------------------------------------------------
// 5. Renter details

/** Labelled inputs with inline, announced errors. */
function detailsView() {
  const f = formFields([
    ['firstName', 'First name', 'text', 'given-name', S.renter.firstName],
    ['lastName', 'Last name', 'text', 'family-name', S.renter.lastName],
    ['email', 'E-mail', 'email', 'email', S.renter.email],
    ['phone', 'Phone', 'tel', 'tel', S.renter.phone, false],
  ]);
  const form = h('form', { novalidate: true }, [
    h('p', { class: 'bw-hint' }, 'We send the confirmation and your pass to this e-mail address.'),
    f.node,
    h('div', { class: 'bw-actions' }, [
      h('button', { type: 'submit' }, 'Continue'),
      backButton('Back', function () {
        if (S.cover && S.cover.ready && S.cover.key === coverKey() && S.cover.cards.length) coverView();
        else renderExtras();
      }),
    ]),
  ]);
  form.addEventListener('submit', function (e: Event) {
    e.preventDefault();
    if (!f.valid()) return;
    S.renter = f.values() as State['renter'];
    saveCart();
    waiverStep();
  });
  show('details', 'Your details', [form]);
  loadSettings();
}

// ---------------------------------------------------------------------------------------------
// 6. Waiver (when the location has one)

function waiverStep() {
  if (S.templates !== null) return S.templates.length ? waiverView() : paymentView();
  void api('listPublicWaiverTemplates', 'GET', '/inHouseWaiver/waiver/templates/location/' + encodeURIComponent(S.item.locationId)).then(function (r) {
    const list = r.status === 200 && r.body && Array.isArray(r.body.data) ? r.body.data : [];
    S.templates = list.filter(function (t) {
      return !t.assignTo || !t.assignTo.length || t.assignTo.indexOf(S.item.inventoryId) >= 0;
    });
    if (S.templates.length) waiverView();
    else paymentView();
  });
}

/** A typed signature drawn as an image (the signer types their name; no pointer needed). */
function signatureImage(name: string): string {
  const c = document.createElement('canvas');
  c.width = 600;
  c.height = 140;
  const g = c.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, c.width, c.height);
  g.fillStyle = '#10243e';
  g.font = 'italic 48px "Brush Script MT", "Segoe Script", cursive, serif';
  g.fillText(name, 24, 88);
  g.fillRect(20, 110, 560, 2);
  return c.toDataURL('image/png');
}

function waiverView() {
  const t = S.templates[0];
  const parts = [];
  const fields = [];
  const sigSections = [];
  (t.sections || []).forEach(function (s, i) {
    const id = 'bw-w-' + i;
    if (s.type === 'text')
      parts.push(
        h('div', { class: 'bw-waiver-text', tabindex: '0', role: 'region', 'aria-label': s.title || 'Waiver text' }, [
          s.title ? h('h3', null, String(s.title)) : null,
          s.content == null ? null : String(s.content),
        ]),
      );
    else if (s.type === 'checkbox') {
      const cb = h('input', { type: 'checkbox', id: id, required: s.required !== false });
      fields.push({
        s: s,
        get: function () {
          return cb.checked;
        },
        el: cb,
      });
      parts.push(h('div', { class: 'bw-check' }, [cb, h('label', { for: id, class: 'bw-check' }, String(s.label))]));
    } else if (s.type === 'field') {
      const type = { email: 'email', phone: 'tel', date: 'date', number: 'number' }[s.fieldType as string] || 'text';
      const inp =
        s.fieldType === 'select'
          ? h(
              'select',
              { id: id },
              [h('option', { value: '' }, 'Choose…')].concat(
                ((s.options as string[]) || []).map(function (o) {
                  return h('option', { value: o }, o);
                }),
              ),
            )
          : h('input', { type: type, id: id, required: !!s.required });
      fields.push({
        s: s,
        get: function () {
          return inp.value.trim();
        },
        el: inp,
      });
      parts.push(h('div', null, [h('label', { for: id }, String(s.label) + (s.required ? '' : ' (optional)')), inp]));
    } else if (s.type === 'signature') sigSections.push(s);
  });
  const sigName = S.renter.firstName + ' ' + S.renter.lastName;
  const sigInput = h('input', { type: 'text', id: 'bw-sig', autocomplete: 'name', value: sigName, required: true });
  const sigPreview = h('img', { class: 'bw-sig', alt: 'Your signature', src: signatureImage(sigName), width: '420', height: '100' });
  sigInput.addEventListener('input', function () {
    sigPreview.src = signatureImage(sigInput.value.trim() || ' ');
  });
  const msg = h('p', { class: 'bw-error', role: 'alert' });
  const form = h('form', { novalidate: true }, [
    t.description ? h('p', null, t.description) : null,
    h('div', null, parts),
    h('label', { for: 'bw-sig' }, 'Type your full name to sign'),
    sigInput,
    sigPreview,
    msg,
    h('div', { class: 'bw-actions' }, [h('button', { type: 'submit' }, 'Sign and continue'), backButton('Back', detailsView)]),
  ]);
  form.addEventListener('submit', function (e: Event) {
    e.preventDefault();
    const data = {};
    let missing = null;
    fields.forEach(function (f) {
      const v = f.get();
      if (f.s.required !== false && f.s.type === 'checkbox' && !v) missing = missing || f.el;
      if (f.s.required && f.s.type === 'field' && !v) missing = missing || f.el;
      if (f.s.id && v !== '' && v !== false) data[f.s.id] = v;
    });
    const name = sigInput.value.trim();
    if (!name) missing = missing || sigInput;
    if (missing) {
      msg.textContent = 'Please complete every required part of the waiver.';
      missing.focus();
      return;
    }
    sigSections.forEach(function (s, i) {
      data[s.id || 'signature_' + (i + 1)] = signatureImage(name);
    });
    const body = { templateId: t.templateId, firstName: S.renter.firstName, lastName: S.renter.lastName, formData: data, userEmail: S.renter.email };
    void api('signWaiver', 'POST', '/inHouseWaiver/waiver/sign', body).then(function (r) {
      if (r.status !== 201 && r.status !== 200) {
        msg.textContent = errText(r);
        return;
      }
      S.signatures = [r.body.signatureId];
      announce('Waiver signed.');
      paymentView();
    });
  });
  show('waiver', t.title || 'Waiver', [form]);
}

// ---------------------------------------------------------------------------------------------
// 7. Payment

let stripeCard: StripeCard | null = null;

function paymentView() {
  track('checkout', { date: S.date, time: S.slot.time });
  const pay = S.catalog.payments;
  const msg = h('p', { class: 'bw-error', role: 'alert' });
  const total = money(dueNow(), S.quote.currency);
  const nodes = [h('div', { class: 'bw-summary' }, [])];
  renderSummary(nodes[0]);
  let form;
  if (pay.mode === 'stripe' && pay.publishableKey) {
    const mount = h('div', { id: 'bw-card', class: 'bw-summary' });
    form = h('form', { novalidate: true }, [
      h('label', { for: 'bw-card' }, 'Card'),
      mount,
      termsBlock(),
      msg,
      h('div', { class: 'bw-actions' }, [h('button', { type: 'submit' }, 'Pay ' + total), backButton('Back', detailsView)]),
    ]);
    stripeCard = mountStripeCard(pay.publishableKey, mount, msg);
  } else {
    const f = formFields([
      ['cardName', 'Name on the card', 'text', 'cc-name', S.renter.firstName + ' ' + S.renter.lastName],
      ['cardNumber', 'Card number', 'text', 'cc-number', ''],
      ['cardExp', 'Expiry (MM/YY)', 'text', 'cc-exp', ''],
      ['cardCvc', 'Security code', 'text', 'cc-csc', ''],
    ]);
    f.node.querySelector('#bw-f-cardNumber').setAttribute('inputmode', 'numeric');
    f.node.querySelector('#bw-f-cardCvc').setAttribute('inputmode', 'numeric');
    form = h('form', { novalidate: true }, [
      h('div', { class: 'bw-note' }, [
        h('strong', null, 'Test mode. '),
        'No real card is charged. Use one of these numbers with any future expiry and any security code: ',
        h(
          'ul',
          null,
          pay.testCards.map(function (c) {
            return h('li', null, c.number.replace(/(\d{4})(?=\d)/g, '$1 ') + ': ' + c.label);
          }),
        ),
      ]),
      f.node,
      termsBlock(),
      msg,
      h('div', { class: 'bw-actions' }, [h('button', { type: 'submit' }, 'Pay ' + total), backButton('Back', detailsView)]),
    ]);
    form._fields = f;
  }
  form.addEventListener('submit', function (e: Event) {
    e.preventDefault();
    const btn = form.querySelector('button[type=submit]');
    if (btn.getAttribute('aria-disabled') === 'true') return;
    const done = function () {
      btn.removeAttribute('aria-disabled');
    };
    btn.setAttribute('aria-disabled', 'true');
    msg.textContent = '';
    void paymentMethod(form, msg).then(function (pm) {
      if (!pm) return done();
      announce('Booking and paying, please wait.');
      placeBooking(pm, msg, done);
    });
  });
  nodes.push(form);
  show('payment', 'Payment', nodes);
}

/** The operator's public settings (the cancellation policy of each location), read once: fetched on the details step, used on payment. */
function loadSettings(then?: (s: Settings) => void) {
  let st = S.settings;
  if (st && st.customer === S.customer) {
    if (st.ready) return then && then(st.body);
    if (then) st.waiting.push(then);
    return;
  }
  st = S.settings = { customer: S.customer, ready: false, body: null, waiting: then ? [then] : [] };
  void api('getPublicSettings', 'GET', '/public/customer/' + encodeURIComponent(S.customer) + '/public').then(function (r) {
    st.ready = true;
    st.body = r.status === 200 && r.body && Array.isArray(r.body.locations) ? r.body : null;
    const waiting = st.waiting;
    st.waiting = [];
    waiting.forEach(function (fn) {
      fn(st.body);
    });
  });
}

/** An instant in the location's zone, short: "Sat, Jun 6, 10:00 AM". */
function shortWhen(ms: number): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: tz(), weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(
    new Date(ms),
  );
}

/**
 * The cancellation policy applied to this booking: until when which refund, from the policy's tiers (the first tier the
 * cancellation is early enough for gives the refund, of what the card pays for the booking), and when online cancellation closes.
 */
function policyLines(p: Settings['locations'][number]['cancellationPolicy']): string[] {
  const start = Date.parse(S.slot.startTime);
  const at = now();
  const base = S.quote.amountDue;
  const out = [];
  function refund(pct) {
    const text = pct >= 100 ? 'Full refund' : pct > 0 ? pct + '% refund' : 'No refund';
    return pct > 0 && base > 0 ? text + ' (' + money(Math.round(base * pct) / 100, S.quote.currency) + ')' : text;
  }
  const tiers = (p.tiers || []).slice().sort(function (a, b) {
    return b.hoursBefore - a.hoursBefore;
  });
  tiers.forEach(function (t) {
    const until = start - t.hoursBefore * 3600000;
    if (t.hoursBefore > 0) {
      if (until > at) out.push(refund(t.refundPercent) + ' if you cancel by ' + shortWhen(until));
    } else out.push(refund(t.refundPercent) + (out.length ? ' after that' : ' if you cancel before the start'));
  });
  if (!tiers.length || tiers[tiers.length - 1].hoursBefore > 0) out.push(out.length ? 'No refund after that' : 'No refund');
  const closes = start - (p.cutoffHours || 0) * 3600000;
  if (p.cutoffHours > 0) out.push(closes > at ? 'Online cancellation closes ' + shortWhen(closes) : 'This booking cannot be cancelled online');
  return out.map(function (x) {
    return x + '.';
  });
}

/** Before paying: the cancellation policy of the booking's location and the operator's terms (and privacy policy) as links. */
function termsBlock() {
  const look = S.catalog.look;
  const box = h('section', { class: 'bw-terms', 'aria-labelledby': 'bw-terms-title' }, [h('h3', { id: 'bw-terms-title' }, 'Cancellation policy')]);
  const policy = h('div', null, h('p', { class: 'bw-loading' }, 'Loading the cancellation policy…'));
  box.appendChild(policy);
  const newTab = function () {
    return h('span', { class: 'bw-sr' }, ' (opens in a new tab)');
  };
  if (look.termsUrl || look.privacyUrl) {
    const links = [];
    if (look.termsUrl) links.push(h('a', { href: look.termsUrl, target: '_blank', rel: 'noopener noreferrer' }, ['terms and conditions', newTab()]));
    if (look.privacyUrl) {
      if (links.length) links.push(' and ');
      links.push(h('a', { href: look.privacyUrl, target: '_blank', rel: 'noopener noreferrer' }, ['privacy policy', newTab()]));
    }
    box.appendChild(h('p', { class: 'bw-hint' }, ['By paying, you accept the '].concat(links, [' of ' + S.catalog.businessName + '.'])));
  }
  loadSettings(function (settings) {
    const loc =
      settings &&
      settings.locations.filter(function (l) {
        return l.locationId === S.item.locationId;
      })[0];
    const p = loc && loc.cancellationPolicy;
    policy.textContent = '';
    if (!p) {
      const phone = S.loc && S.loc.phoneNumber;
      policy.appendChild(h('p', null, 'Please ask ' + S.catalog.businessName + (phone ? ' (' + phone + ')' : '') + ' about cancelling before you pay.'));
      return resize();
    }
    policy.appendChild(h('p', null, p.description));
    if (p.allowRenterCancellation) {
      policy.appendChild(h('p', { class: 'bw-hint', id: 'bw-terms-booking' }, 'For this booking:'));
      policy.appendChild(
        h(
          'ul',
          { class: 'bw-terms-list', 'aria-labelledby': 'bw-terms-booking' },
          policyLines(p).map(function (x) {
            return h('li', null, x);
          }),
        ),
      );
    }
    resize();
  });
  return box;
}

function paymentMethod(form?, msg?) {
  if (form._fields) return Promise.resolve(testCardPaymentMethod(form._fields, msg));
  return stripeCard ? stripeCard.paymentMethod() : Promise.resolve(null);
}

function placeBooking(pm: string, msg: HTMLElement, done?: () => void) {
  const body: Checkout = Object.assign(order(), {
    locationId: S.item.locationId,
    customerInfo: { firstName: S.renter.firstName, lastName: S.renter.lastName, email: S.renter.email },
    paymentMethodId: pm,
    expectedTotal: S.quote.total,
    sessionId: S.sessionId,
  });
  if (S.renter.phone) body.customerInfo.phone = S.renter.phone;
  if (S.signatures.length) body.waiverSignatureIds = S.signatures;
  if (S.ref) body.refAffiliate = S.ref;
  if (S.source) body.source = S.source;
  const c = cover();
  if (c) body.coverage = { quoteId: c.quoteId };
  void api('checkoutWidgetOrder', 'POST', '/public/widget/checkout', body).then(function (r) {
    if (r.status !== 201) {
      done();
      if (c && r.error && r.error.error === 'coverage_price_changed') {
        // The coverage's final price rose and was not accepted: nothing was charged; the renter decides.
        return api('getPublicCoverageQuote', 'GET', '/public/coverage/quotes/' + encodeURIComponent(c.quoteId)).then(function (g) {
          if (g.status === 200 && g.body.status === 'needs_acceptance') {
            replaceCard(g.body);
            return acceptView(g.body);
          }
          S.coverage = null;
          msg.textContent = 'The coverage could not be added; nothing was charged. Pay again to book without it.';
        });
      }
      if (r.error && r.error.error === 'unavailable') {
        msg.textContent = 'Sorry, this time was just taken. Nothing was charged.';
        msg.appendChild(
          h(
            'div',
            { class: 'bw-actions' },
            backButton('Pick another time', function () {
              chooseDate(S.date);
            }),
          ),
        );
      } else if (r.error && r.error.error === 'price_mismatch') {
        msg.textContent =
          'The price changed to ' + money(Number(r.error.expectedTotal), S.quote.currency) + '. Nothing was charged; please check the new total.';
        refreshQuote();
      } else msg.textContent = r.status === 402 ? declineText(r) : errText(r);
      // The message's own box is an alert (role="alert"): it is announced once, without a second copy in the page's alert.
      return;
    }
    S.booking = r.body;
    completeCart(r.body.transactionId);
    post('booking.completed', {
      transactionId: r.body.transactionId,
      rentalId: r.body.rentalId,
      total: r.body.total,
      currency: r.body.currency,
      ref: S.ref || null,
    });
    void buyPlan().then(confirmationView);
  });
}

function buyPlan() {
  if (!S.plan) return Promise.resolve(null);
  const p = S.plan.plan;
  const body = {
    planId: S.plan.code,
    planName: p.name || S.plan.code,
    calculatedCost: planPremium(p, S.quote.total),
    bookingTotal: S.quote.total,
  };
  return api('buyBookingProtectionPlan', 'POST', '/public/bookings/' + encodeURIComponent(S.booking.rentalId) + '/protection-plans', body).then(function (r) {
    if (r.status !== 200) return { error: errText(r) };
    // The premium is its own charge: the confirmation shows what the booking now totals and what was paid in all.
    S.booking.total = r.body.booking.total;
    S.booking.amountPaid = r.body.booking.amountPaid;
    S.booking.balanceDue = r.body.booking.balanceDue;
    return r.body;
  });
}

// ---------------------------------------------------------------------------------------------
// 8. Confirmation, pass

function passBlock(rentalId: string, then: (node: HTMLElement | null, p?: Ok<'getWalletPass'>) => void) {
  void api('getWalletPass', 'GET', '/public/bookings/' + encodeURIComponent(rentalId) + '/wallet-pass-a').then(function (r) {
    if (r.status !== 200) return then(null);
    const p = r.body;
    void api('getWalletSaveLink', 'GET', '/public/bookings/' + encodeURIComponent(rentalId) + '/wallet-pass-b').then(function (b) {
      const save = b.status === 200 ? b.body : null;
      const links = [];
      if (p.download.available) links.push(h('a', { class: 'bw-btn bw-secondary', href: p.download.url, download: 'booking.pkpass' }, 'Add to Apple Wallet'));
      if (save && save.configured)
        links.push(h('a', { class: 'bw-btn bw-secondary', href: save.saveUrl, target: '_blank', rel: 'noopener' }, 'Save to Google Wallet'));
      else if (save && !Q.get('pass'))
        links.push(h('a', { class: 'bw-btn bw-secondary', href: save.saveUrl, target: '_blank', rel: 'noopener' }, 'Open your pass'));
      links.push(
        h(
          'a',
          { class: 'bw-btn bw-secondary', href: ORIGIN + '/public/bookings/' + encodeURIComponent(rentalId) + '/calendar.ics', download: 'booking.ics' },
          'Add to calendar (.ics)',
        ),
      );
      then(
        h('div', null, [
          h('img', {
            class: 'bw-qr',
            alt: 'Check-in QR code of booking ' + rentalId,
            width: '220',
            height: '220',
            src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(p.barcode.svg),
          }),
          h('p', { class: 'bw-hint' }, 'Show this code when you arrive.'),
          h('div', { class: 'bw-actions' }, links),
        ]),
        p,
      );
    });
  });
}

function confirmationView(plan: { error?: string } | null) {
  const b = S.booking;
  S.loc = S.loc || ({} as Loc);
  const facts = h('dl', { class: 'bw-summary' }, []);
  [
    // One public reference per booking: the booking id, as the e-mails, the pass and the manage page show it.
    ['Booking reference', b.reference || b.rentalId],
    ['What', S.item.name],
    ['When', longDate(S.date) + ', ' + timeAt(b.startTime) + ' – ' + timeAt(b.endTime) + ' (' + zoneName() + ')'],
    ['Where', S.loc.name + ', ' + S.loc.address],
    ['Paid', money(b.amountPaid, b.currency)],
  ].forEach(function (r) {
    facts.appendChild(h('dt', null, r[0]));
    facts.appendChild(h('dd', null, r[1]));
  });
  const holder = h('div', null, h('p', { class: 'bw-loading' }, 'Loading your pass…'));
  const coverage = b.coverage && b.coverage.status !== 'not_requested' ? h('div', { class: 'bw-summary', id: 'bw-coverage' }) : null;
  show('done', 'You are booked!', [
    h('p', null, 'A confirmation is on its way to ' + S.renter.email + '.'),
    facts,
    coverage,
    plan && plan.error
      ? h('p', { class: 'bw-error' }, 'The protection plan could not be added: ' + plan.error)
      : plan
        ? h('p', null, 'Protection plan added.')
        : null,
    holder,
    h('div', { class: 'bw-actions' }, [
      h(
        'button',
        {
          type: 'button',
          class: 'bw-secondary',
          onclick: function () {
            participantsView(b.rentalId, b.renterToken);
          },
        },
        'Add the names of your party',
      ),
      h('a', { class: 'bw-btn bw-secondary', href: b.links.manage }, 'Manage or cancel'),
      h('button', { type: 'button', class: 'bw-secondary', onclick: restart }, 'Book something else'),
    ]),
  ]);
  announce('Booked. Reference ' + b.transactionId + '.');
  if (coverage) {
    if (b.coverage.status === 'purchased') coverBlock(coverage, b.transactionId, 12);
    else
      coverage.appendChild(
        h('p', null, 'The coverage was not added (' + (b.coverage.reason || 'not available') + '). Nothing was charged for it; your booking stands.'),
      );
  }
  passBlock(b.rentalId, function (node) {
    holder.textContent = '';
    if (node) holder.appendChild(node);
    resize();
  });
}

/**
 * The coverage of an order on the renter's booking page (GET /public/coverage): each policy's status, its number and
 * document once issued. While the underwriter is still confirming it, looks again a few times (`tries`).
 */
function coverBlock(box: HTMLElement, transactionId: string, tries: number) {
  void api('getPublicCoverage', 'GET', '/public/coverage?' + qs({ TransactionId: transactionId })).then(function (r) {
    if (r.status !== 200 || !r.body.policies.length) return;
    box.hidden = false;
    box.textContent = '';
    box.appendChild(h('h3', null, 'Your coverage'));
    let pending = false;
    r.body.policies.forEach(function (p) {
      const doc = p.documentUrl && /^https:\/\//.test(p.documentUrl) ? p.documentUrl : null;
      if (p.status === 'not_issued_yet') pending = true;
      const dl = h('dl', { class: 'bw-cover-policy', 'data-status': p.status });
      [
        ['Coverage', p.offeringName + ' · ' + money(p.premium, p.currency)],
        ['Status', p.statusText],
        p.policyNumber ? ['Policy number', p.policyNumber] : null,
        ['Questions or claims', p.supportEmail],
      ].forEach(function (row) {
        if (!row) return;
        dl.appendChild(h('dt', null, row[0]));
        dl.appendChild(h('dd', null, row[1]));
      });
      box.appendChild(dl);
      if (doc) box.appendChild(h('p', null, h('a', { href: doc, target: '_blank', rel: 'noopener noreferrer' }, 'Policy document (' + p.policyNumber + ')')));
    });
    resize();
    if (pending && tries > 0)
      setTimeout(function () {
        if (document.body.contains(box)) coverBlock(box, transactionId, tries - 1);
      }, 1500);
    else if (!pending) announce('Your coverage policy is issued.');
  });
}

function restart() {
  S.date = null;
  S.slot = null;
  S.quote = null;
  S.cover = null;
  S.coverage = null;
  S.coverChoice = '';
  S.signatures = [];
  itemsView();
}

function passView(rentalId: string) {
  show('done', 'Your pass', [h('p', { class: 'bw-loading' }, 'Loading…')], { keepFocus: true });
  passBlock(rentalId, function (node, p) {
    if (!node) return fatal('No pass was found for this booking (it may be cancelled).');
    S.loc = { timezone: p.timezone } as Loc;
    const coverage = h('div', { class: 'bw-summary', id: 'bw-coverage', hidden: true });
    show('done', p.itemName + ' with ' + p.businessName, [
      h('p', null, 'Booking reference ' + (p.reference || p.rentalId)),
      h('p', null, p.localDate + ', ' + p.localStartTime + ' – ' + p.localEndTime + ' (' + zoneName() + ')'),
      h('p', null, p.locationName + ', ' + p.address),
      h('p', null, p.renterName + ' · party of ' + p.partySize),
      node,
      coverage,
      h(
        'div',
        { class: 'bw-actions' },
        h('a', { class: 'bw-btn bw-secondary', href: ORIGIN + '/widget?' + qs({ manage: rentalId, customer: S.customer }) }, 'Manage or cancel'),
      ),
    ]);
    coverBlock(coverage, p.transactionId, 3);
  });
}

// ---------------------------------------------------------------------------------------------
// Participants (with the checkout's renter token)

function participantsView(rentalId: string, token: string) {
  const headers = { 'x-renter-token': token };
  function render(data: Ok<'listBookingParticipantsAsRenter'>, note?: string) {
    const list = h(
      'ul',
      null,
      data.participants.map(function (p) {
        return h('li', null, [
          p.firstName + ' ' + p.lastName + ' · waiver ' + (p.waiver.status === 'signed' ? 'signed' : 'missing') + ' ',
          h(
            'button',
            {
              type: 'button',
              class: 'bw-secondary',
              'aria-label': 'Remove ' + p.firstName + ' ' + p.lastName,
              onclick: function () {
                void api(
                  'removeBookingParticipant',
                  'DELETE',
                  '/public/bookings/' + encodeURIComponent(rentalId) + '/participants/' + encodeURIComponent(p.participantId),
                  undefined,
                  headers,
                ).then(function (r) {
                  if (r.status === 200) render(r.body, p.firstName + ' removed.');
                });
              },
            },
            'Remove',
          ),
        ]);
      }),
    );
    const f = formFields([
      ['pFirst', 'First name', 'text', 'off', ''],
      ['pLast', 'Last name', 'text', 'off', ''],
    ]);
    const msg = h('p', { class: 'bw-error', role: 'alert' });
    const form = h('form', { novalidate: true }, [
      f.node,
      msg,
      h('div', { class: 'bw-actions' }, [
        h('button', { type: 'submit', disabled: data.spotsLeft === 0 }, 'Add person'),
        backButton('Back to the confirmation', function () {
          confirmationView(null);
        }),
      ]),
    ]);
    form.addEventListener('submit', function (e: Event) {
      e.preventDefault();
      if (!f.valid()) return;
      const v = f.values();
      void api(
        'addBookingParticipant',
        'POST',
        '/public/bookings/' + encodeURIComponent(rentalId) + '/participants',
        { firstName: v.pFirst, lastName: v.pLast },
        headers,
      ).then(function (r) {
        if (r.status === 201) render(r.body, v.pFirst + ' added.');
        else msg.textContent = errText(r);
      });
    });
    show('done', 'Your party (' + data.participants.length + ' of ' + data.partySize + ')', [
      data.participants.length ? list : h('p', null, 'No names yet.'),
      form,
    ]);
    if (note) announce(note);
  }
  void api('listBookingParticipantsAsRenter', 'GET', '/public/bookings/' + encodeURIComponent(rentalId) + '/participants', undefined, headers).then(
    function (r) {
      if (r.status === 200) render(r.body);
      else fatal(errText(r));
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Manage: change or cancel with an e-mailed code

function manageView(rentalId: string) {
  const enc = encodeURIComponent(rentalId);
  void api('getCancellationEligibility', 'GET', '/public/bookings/' + enc + '/cancellation-eligibility').then(function (r) {
    if (r.status !== 200) return fatal(errText(r, 'This booking was not found.'));
    const e = r.body;
    S.loc = { timezone: e.timezone } as Loc;
    S.customer = S.customer || e.customerId;
    const msg = h('p', { class: 'bw-error', role: 'alert' });
    const passLink = (text: string) => h('a', { class: 'bw-btn bw-secondary', href: ORIGIN + '/widget?' + qs({ pass: rentalId, customer: S.customer }) }, text);
    // Changes close with online cancellation's cutoff (the server also applies the item's minimum notice).
    const changeable =
      (e.status === 'pending' || e.status === 'confirmed') &&
      ['booked_through_partner', 'started'].indexOf(e.reason || '') < 0 &&
      e.hoursBeforeStart > e.policy.cutoffHours;
    const nodes = [
      h(
        'p',
        null,
        'Booking ' +
          e.rentalId +
          ' on ' +
          new Intl.DateTimeFormat('en-US', { timeZone: e.timezone, dateStyle: 'full', timeStyle: 'short' }).format(new Date(e.startTime)) +
          ' (' +
          zoneName() +
          ').',
      ),
      h('p', { class: 'bw-note' }, e.message),
      h('p', { class: 'bw-hint' }, 'Policy: ' + e.policy.description),
    ];
    if (!e.cancellable && !changeable) {
      nodes.push(h('div', { class: 'bw-actions' }, [e.reason !== 'already_cancelled' ? passLink('Your booking and pass') : null, bookAgain()]));
      return show('manage', 'Manage your booking', nodes);
    }
    /** E-mails a code, then (once verified) goes on with the session. */
    function withCode(next: (token: string) => void) {
      return function () {
        void api('requestCancellationCode', 'POST', '/public/bookings/' + enc + '/cancellation-otp').then(function (o) {
          if (o.status !== 200) {
            msg.textContent = errText(o);
            return;
          }
          codeView(rentalId, o.body, next);
        });
      };
    }
    nodes.push(
      h(
        'p',
        null,
        'To ' + (changeable ? (e.cancellable ? 'change or cancel' : 'change it') : 'cancel') + ', we e-mail a 6-digit code to the address of the booking.',
      ),
      msg,
      h('div', { class: 'bw-actions' }, [
        changeable
          ? h(
              'button',
              {
                type: 'button',
                onclick: withCode(function (token) {
                  startChange(rentalId, token);
                }),
              },
              'Change date, time, party or add-ons',
            )
          : null,
        e.cancellable
          ? h(
              'button',
              {
                type: 'button',
                class: changeable ? 'bw-secondary' : null,
                onclick: withCode(function (token) {
                  confirmCancelView(rentalId, token, e);
                }),
              },
              'Cancel: e-mail me a code',
            )
          : null,
        passLink('Keep it: back to my booking'),
      ]),
    );
    show('manage', changeable && e.cancellable ? 'Change or cancel your booking' : changeable ? 'Change your booking' : 'Cancel your booking', nodes);
  });
}

/** A way forward from the manage pages: the operator's booking page. */
function bookAgain() {
  return S.customer ? h('a', { class: 'bw-btn bw-secondary', href: ORIGIN + '/widget?' + qs({ customer: S.customer }) }, 'Book something else') : null;
}

function codeView(rentalId: string, session: Ok<'requestCancellationCode'>, next: (token: string) => void) {
  const enc = encodeURIComponent(rentalId);
  const input = h('input', {
    type: 'text',
    id: 'bw-code',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    maxlength: '6',
    pattern: '[0-9]{6}',
    required: true,
    'aria-describedby': 'bw-code-hint',
  });
  const msg = h('p', { class: 'bw-error', role: 'alert' });
  const form = h('form', { novalidate: true }, [
    h('p', { id: 'bw-code-hint' }, 'We sent a code to ' + session.sentTo + '. It is valid for 10 minutes.'),
    h('label', { for: 'bw-code' }, '6-digit code'),
    input,
    msg,
    h('div', { class: 'bw-actions' }, [
      h('button', { type: 'submit' }, 'Verify'),
      backButton('Send a new code', function () {
        manageView(rentalId);
      }),
    ]),
  ]);
  form.addEventListener('submit', function (ev: Event) {
    ev.preventDefault();
    void api('verifyCancellationCode', 'POST', '/public/bookings/' + enc + '/verify-cancellation-otp', {
      sessionId: session.sessionId,
      code: input.value.trim(),
    }).then(function (r) {
      if (r.status !== 200) {
        msg.textContent = errText(r);
        input.setAttribute('aria-invalid', 'true');
        input.focus();
        return;
      }
      next(r.body.token);
    });
  });
  show('manage', 'Enter your code', [form]);
}

function confirmCancelView(rentalId: string, token: string, elig: Ok<'getCancellationEligibility'>) {
  const msg = h('p', { class: 'bw-error', role: 'alert' });
  const btn = h(
    'button',
    { type: 'button' },
    elig.refund.amount > 0 ? 'Cancel and refund ' + money(elig.refund.amount, elig.refund.currency) : 'Cancel the booking',
  );
  btn.addEventListener('click', function () {
    void api('cancelBookingAsRenter', 'POST', '/public/bookings/' + encodeURIComponent(rentalId) + '/cancel', {}, { 'x-renter-token': token }).then(
      function (r) {
        if (r.status !== 200) {
          msg.textContent = errText(r);
          return;
        }
        post('booking.cancelled', { rentalId: rentalId });
        const rf = r.body.refund;
        show('manage', 'Your booking is cancelled', [
          h(
            'p',
            null,
            rf && rf.status === 'succeeded'
              ? 'We refunded ' + money(rf.amount, rf.currency) + ' to your card.'
              : r.body.alreadyCancelled
                ? 'It was already cancelled.'
                : 'Nothing was refunded.',
          ),
          h('div', { class: 'bw-actions' }, bookAgain()),
        ]);
      },
    );
  });
  show('manage', 'Cancel your booking?', [
    h('p', { class: 'bw-note' }, elig.message),
    msg,
    h('div', { class: 'bw-actions' }, [
      btn,
      backButton('Keep my booking', function () {
        manageView(rentalId);
      }),
    ]),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Change: a new date or time (the calendar and times views), the party and the add-ons, the repriced quote, then the change

type ChangeQuote = Ok<'quoteBookingChangeAsRenter'>;
type Shape = ChangeQuote['current'];
type ChangeBody = Body<'changeBookingAsRenter'>;
/** The change being prepared on the manage page: the session, the booking as it is, and what the renter picked. */
let CH: {
  rentalId: string;
  token: string;
  now: ChangeQuote;
  startTime: string;
  endTime: string;
  people: number;
  tickets: Record<string, number>;
  addons: Record<string, number>;
} | null = null;

function changeCall<Op extends 'quoteBookingChangeAsRenter' | 'changeBookingAsRenter'>(op: Op, path: string, body: Body<Op>) {
  return api(op, 'POST', '/public/bookings/' + encodeURIComponent(CH.rentalId) + '/' + path, body, { 'x-renter-token': CH.token });
}

/** The booking as it is (an empty change quote) and its item from the operator's catalog, then the change form. */
function startChange(rentalId: string, token: string) {
  CH = { rentalId, token, now: null, startTime: '', endTime: '', people: 1, tickets: {}, addons: {} };
  show('manage', 'Change your booking', [h('p', { class: 'bw-loading' }, 'Loading your booking…')]);
  void changeCall('quoteBookingChangeAsRenter', 'change-quote', {}).then(function (r) {
    if (r.status !== 200) return changeDead(rentalId, errText(r));
    const q = r.body;
    void api('getWidgetCatalog', 'GET', '/public/widget/catalog?' + qs({ customerId: q.customerId, locationId: q.locationId })).then(function (c) {
      const item = c.status === 200 ? c.body.items.filter((i) => i.inventoryId === q.inventoryId)[0] : null;
      if (!item) return changeDead(rentalId, 'This booking cannot be changed online; please contact the operator.');
      S.catalog = c.body;
      S.clockOffset = c.body.now ? Date.parse(c.body.now) - Date.now() : 0;
      const cur = q.current;
      beginItem(item, dayOf(cur.startTime));
      const hours = (Date.parse(cur.endTime) - Date.parse(cur.startTime)) / 3600000;
      if (item.durations.indexOf(hours) >= 0) S.hours = hours;
      const addons: Record<string, number> = {};
      cur.addons.forEach((a) => (addons[a.addonId] = a.quantity));
      Object.assign(CH, { now: q, startTime: cur.startTime, endTime: cur.endTime, people: cur.participants || 1, tickets: { ...(cur.tickets || {}) }, addons });
      changeForm();
    });
  });
}

function changeDead(rentalId: string, why: string) {
  CH = null;
  show('manage', 'Your booking cannot be changed online', [
    h('p', { class: 'bw-error' }, why),
    h(
      'div',
      { class: 'bw-actions' },
      backButton('Back to my booking', () => manageView(rentalId)),
    ),
  ]);
}

/** A local date (YYYY-MM-DD) of an instant, in the location's zone. */
function dayOf(iso: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz(), year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

function whenText(from: string, to: string): string {
  return longDate(dayOf(from)) + ', ' + timeAt(from) + ' – ' + timeAt(to);
}

function partyText(x: Shape): string {
  const t = Object.keys(x.tickets || {}).filter((k) => x.tickets[k] > 0);
  if (t.length) return t.map((k) => x.tickets[k] + ' ' + k).join(', ');
  const n = x.participants || 0;
  return n ? n + (n === 1 ? ' person' : ' people') : 'Not given';
}

function addonsText(x: Shape): string {
  return x.addons.length ? x.addons.map((a) => a.name + (a.quantity > 1 ? ' × ' + a.quantity : '')).join(', ') : 'None';
}

/** A box of label / value rows. */
function facts(rows: (string[] | null)[]): HTMLElement {
  const dl = h('dl');
  rows.forEach(function (r) {
    if (!r) return;
    dl.appendChild(h('dt', null, r[0]));
    dl.appendChild(h('dd', null, r[1]));
  });
  return h('div', { class: 'bw-summary' }, dl);
}

function shapeFacts(x: Shape, was?: Shape): HTMLElement {
  const cur = CH.now.currency;
  const row = (label: string, now: string, before?: string) => [label, before !== undefined && before !== now ? now + ' (was ' + before + ')' : now];
  return facts([
    row('When', whenText(x.startTime, x.endTime), was && whenText(was.startTime, was.endTime)),
    row('Party', partyText(x), was && partyText(was)),
    row('Add-ons', addonsText(x), was && addonsText(was)),
    row('Total', money(x.total, cur), was && money(was.total, cur)),
  ]);
}

function changeForm() {
  const it = S.item;
  const q = CH.now;
  const party = h('fieldset', null, [h('legend', null, 'Your party')]);
  if (it.type === 'tour' && it.tiers.length)
    it.tiers.forEach(function (t, i) {
      party.appendChild(
        counter('bw-ch-t-' + i, t.name + ' (' + money(t.price, it.currency) + ')', CH.tickets[t.name] || 0, 0, 50, (v) => (CH.tickets[t.name] = v)),
      );
    });
  else
    party.appendChild(
      counter('bw-ch-people', it.type === 'tour' ? 'Guests' : 'People', CH.people, 1, Math.max(1, it.capacity * q.units), (v) => (CH.people = v)),
    );
  const extras = it.addons.length ? h('fieldset', null, [h('legend', null, 'Add-ons')]) : null;
  it.addons.forEach(function (a, i) {
    const text = a.name + ' (' + money(a.price, it.currency) + ')';
    extras.appendChild(counter('bw-ch-a-' + i, text, CH.addons[a.addonId] || 0, 0, a.maxQuantity || 1, (v) => (CH.addons[a.addonId] = v)));
  });
  const msg = h('p', { class: 'bw-error', role: 'alert' });
  show('manage', 'Change your booking', [
    h('h3', null, 'Your booking now'),
    shapeFacts(q.current),
    h('p', { class: 'bw-hint' }, 'You can change it online until ' + timeAt(q.changeableUntil) + ' on ' + longDate(dayOf(q.changeableUntil)) + '.'),
    h('fieldset', null, [
      h('legend', null, 'Date and time'),
      h('p', null, whenText(CH.startTime, CH.endTime) + ' (' + zoneName() + ')'),
      backButton('Pick another date or time', function () {
        S.month = dayOf(CH.startTime).slice(0, 7);
        loadMonth(calendarView);
      }),
    ]),
    party,
    extras,
    msg,
    h('div', { class: 'bw-actions' }, [
      h('button', { type: 'button', onclick: () => previewChange(msg) }, 'See the new price'),
      backButton('Keep my booking as it is', () => manageView(CH.rentalId)),
    ]),
  ]);
}

/** What the renter changed (only that: what is not sent stays as it is). */
function changeBody(): ChangeBody {
  const cur = CH.now.current;
  const b: ChangeBody = {};
  const tour = S.item.type === 'tour';
  if (CH.startTime !== cur.startTime || CH.endTime !== cur.endTime) {
    b.startTime = CH.startTime;
    if (!tour) b.endTime = CH.endTime;
  }
  const sig = (o: Record<string, number>) =>
    Object.keys(o)
      .filter((k) => o[k] > 0)
      .sort()
      .map((k) => k + ':' + o[k])
      .join(',');
  if (tour && S.item.tiers.length) {
    if (sig(CH.tickets) !== sig(cur.tickets || {})) b.tickets = CH.tickets;
  } else if (CH.people !== (cur.participants || 1)) b.participants = CH.people;
  const had: Record<string, number> = {};
  cur.addons.forEach((a) => (had[a.addonId] = a.quantity));
  if (sig(CH.addons) !== sig(had))
    b.addons = Object.keys(CH.addons)
      .filter((k) => CH.addons[k] > 0)
      .map((k) => ({ addonId: k, quantity: CH.addons[k] }));
  return b;
}

function previewChange(msg: HTMLElement) {
  const body = changeBody();
  if (!Object.keys(body).length) {
    msg.textContent = 'Nothing is changed yet: pick another time, party or add-ons.';
    return;
  }
  msg.textContent = '';
  void changeCall('quoteBookingChangeAsRenter', 'change-quote', body).then(function (r) {
    if (r.status !== 200) msg.textContent = errText(r);
    else priceView(r.body, body);
  });
}

/** What the difference does: "You pay $20.00 more: ...". */
function differenceText(c: ChangeQuote['change'], currency: string, done: boolean): string {
  const amount = money(c.amount, currency);
  if (c.settlement === 'charged')
    return done ? 'We charged ' + amount + ' to the card you paid with.' : 'You pay ' + amount + ' more: we charge it to the card you paid with.';
  if (c.settlement === 'refunded') return (done ? 'We refunded ' : 'We refund ') + amount + ' to the card you paid with.';
  if (c.settlement === 'balance_due') return 'The price is ' + money(c.difference, currency) + ' higher: ' + amount + ' is due.';
  if (c.settlement === 'credit' || c.settlement === 'refund_failed') return amount + ' stays on your booking as credit.';
  return 'The price stays ' + money(c.newTotal, currency) + '.';
}

function priceView(q: ChangeQuote, body: ChangeBody) {
  const msg = h('p', { class: 'bw-error', role: 'alert' });
  const confirmBtn = h('button', { type: 'button' }, 'Confirm the change');
  confirmBtn.addEventListener('click', function () {
    confirmBtn.disabled = true;
    void changeCall('changeBookingAsRenter', 'change', body).then(function (r) {
      confirmBtn.disabled = false;
      if (r.status !== 200) {
        msg.textContent = errText(r);
        return;
      }
      post('booking.changed', { rentalId: CH.rentalId });
      const rentalId = CH.rentalId;
      show('manage', 'Your booking is changed', [
        shapeFacts(r.body.booking),
        h('p', { class: 'bw-note' }, differenceText(r.body.change, q.currency, true)),
        h('p', null, 'We e-mailed you the details.'),
        h('div', { class: 'bw-actions' }, [
          h('a', { class: 'bw-btn', href: ORIGIN + '/widget?' + qs({ pass: rentalId, customer: S.customer }) }, 'Your booking and pass'),
          bookAgain(),
        ]),
      ]);
      CH = null;
      announce('Your booking is changed.');
    });
  });
  show('manage', 'Your new price', [
    shapeFacts(q.proposed, q.current),
    h('p', { class: 'bw-note' }, differenceText(q.change, q.currency, false)),
    msg,
    h('div', { class: 'bw-actions' }, [confirmBtn, backButton('Back to the change', changeForm)]),
  ]);
  announce('New total ' + money(q.proposed.total, q.currency) + '.');
}

export { start };
