/**
 * What the booking widget and the member and tenant portals build their pages with (no framework): elements (h), the page's
 * live regions (announce, shout), amounts, labelled form fields with their checks, the payment simulator's test cards and the
 * sentence for a refused payment. The pages share one stylesheet (public/static/widget/app.css) and these class names.
 */
import type { Res } from './api';

/** A child of h(): a node, text, or nothing (skipped). */
export type Kid = Node | string | number | null | undefined | false;
/**
 * An element h() built. Typed as an input whatever its tag, so the forms read `value`, `checked` and `disabled` off the
 * elements they built without a cast at every use (on other tags those are plain expando properties nobody reads).
 */
export type El = HTMLInputElement;

/** Builds an element: h('button', {class: 'x', onclick: fn, 'aria-label': '...'}, [children]). */
export function h(tag: string, attrs?: Record<string, unknown> | null, kids?: Kid | Kid[]): El {
  const el = document.createElement(tag) as El;
  attrs = attrs || {};
  Object.keys(attrs).forEach(function (k) {
    const v = attrs[k];
    if (v === null || v === undefined || v === false) return;
    if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'text') el.textContent = String(v);
    else if (k === 'value') el.value = String(v);
    else if (k === 'checked') el.checked = !!v;
    else el.setAttribute(k, v === true ? '' : String(v));
  });
  (Array.isArray(kids) ? kids : kids === undefined || kids === null ? [] : [kids]).forEach(function (c) {
    if (c === null || c === undefined || c === false) return;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  });
  return el;
}

/** Writes `msg` to a live region of the page, after emptying it, so the same message is said again. */
function say(regionId: string, msg: string) {
  const region = document.getElementById(regionId);
  region.textContent = '';
  setTimeout(function () {
    region.textContent = msg;
  }, 30);
}

/** Says `msg` politely (the page's status region, #bw-live). */
export const announce = (msg: string) => say('bw-live', msg);

/** Says `msg` at once (the page's alert region, #bw-alert). */
export const shout = (msg: string) => say('bw-alert', msg);

/** An amount in its currency: "$1,234.50" (amount in units of the currency, not cents). */
export function money(amount: number, currency?: string | null): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: (currency || 'usd').toUpperCase() }).format(amount);
  } catch (e) {
    return amount.toFixed(2) + ' ' + (currency || '').toUpperCase();
  }
}

/** A field of formFields(): [name, label, input type, autocomplete, value, required (default true)]. */
export type FieldDef = [string, string, string, string, string, boolean?];

/**
 * Labelled inputs with their error lines: `valid()` checks them (required, e-mail, phone), marks the wrong ones, focuses the
 * first and says so; `values()` answers the trimmed values by name. Each input's id is `bw-f-{name}`.
 */
export function formFields(defs: FieldDef[]) {
  const inputs: Record<string, { input: El; err: El; def: FieldDef }> = {};
  const node = h(
    'div',
    null,
    defs.map(function (d) {
      const id = 'bw-f-' + d[0];
      const err = h('p', { id: id + '-err', class: 'bw-error', hidden: true });
      const input = h('input', {
        id: id,
        name: d[0],
        type: d[2],
        autocomplete: d[3],
        value: d[4] || '',
        required: d[5] !== false,
        'aria-describedby': id + '-err',
        inputmode: d[2] === 'tel' ? 'tel' : null,
      });
      inputs[d[0]] = { input: input, err: err, def: d };
      return h('div', null, [h('label', { for: id }, d[1] + (d[5] === false ? ' (optional)' : '')), input, err]);
    }),
  );
  return {
    node: node,
    values: function () {
      const o: Record<string, string> = {};
      Object.keys(inputs).forEach(function (k) {
        o[k] = inputs[k].input.value.trim();
      });
      return o;
    },
    valid: function () {
      let first = null;
      Object.keys(inputs).forEach(function (k) {
        const f = inputs[k];
        const v = f.input.value.trim();
        let msg = '';
        if (f.def[5] !== false && !v) msg = f.def[1] + ' is required.';
        else if (v && f.def[2] === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) msg = 'Enter an e-mail address like name@example.com.';
        else if (v && f.def[2] === 'tel' && !/^\+?[0-9 ().-]{5,32}$/.test(v)) msg = 'Enter a phone number.';
        f.err.textContent = msg;
        f.err.hidden = !msg;
        f.input.setAttribute('aria-invalid', msg ? 'true' : 'false');
        if (msg && !first) first = f.input;
      });
      if (first) {
        first.focus();
        shout('Please correct the highlighted fields.');
      }
      return !first;
    },
  };
}

/** The payment simulator's test card numbers and the payment-method tokens they stand for. */
const TEST_CARDS: Record<string, string> = {
  '4242424242424242': 'pm_card_visa',
  '5555555555554444': 'pm_card_mastercard',
  '4000000000000002': 'pm_card_chargeDeclined',
  '4000002500003155': 'pm_card_authenticationRequired',
};

/**
 * Test mode: the card typed in formFields() named cardName, cardNumber, cardExp, cardCvc (checked) as the simulator's token,
 * else null (a number that is not a test card is said in `msg`).
 */
export function testCardPaymentMethod(fields: ReturnType<typeof formFields>, msg: HTMLElement): string | null {
  if (!fields.valid()) return null;
  const pm = TEST_CARDS[fields.values().cardNumber.replace(/\D/g, '')];
  if (pm) return pm;
  msg.textContent = 'In test mode, use one of the test card numbers shown above.';
  shout(msg.textContent);
  return null;
}

/** The parts of the payment provider's browser library (js.stripe.com/v3) the pages use. */
interface StripeJs {
  elements(): { create(kind: 'card'): { mount(el: HTMLElement): void } };
  createPaymentMethod(o: { type: 'card'; card: unknown }): Promise<{ paymentMethod?: { id: string }; error?: { message?: string } }>;
}
/** The provider's card element on a page: `paymentMethod()` tokenizes the card typed (null on an error, said in its message). */
export interface StripeCard {
  paymentMethod(): Promise<string | null>;
}

/** Loads the provider's library and mounts its card element in `mountEl`; errors are written to `msg`. */
export function mountStripeCard(key: string, mountEl: HTMLElement, msg: HTMLElement): StripeCard {
  let ready: { stripe: StripeJs; card: unknown } | null = null;
  const s = document.createElement('script');
  s.src = 'https://js.stripe.com/v3/';
  s.onload = function () {
    const stripe = (window as unknown as { Stripe: (k: string) => StripeJs }).Stripe(key);
    const card = stripe.elements().create('card');
    card.mount(mountEl);
    ready = { stripe: stripe, card: card };
  };
  s.onerror = function () {
    msg.textContent = 'The card form could not be loaded; check your connection.';
  };
  document.head.appendChild(s);
  return {
    paymentMethod() {
      if (!ready) return Promise.resolve(null);
      return ready.stripe.createPaymentMethod({ type: 'card', card: ready.card }).then(function (r) {
        if (r.error) {
          msg.textContent = r.error.message;
          return null;
        }
        return r.paymentMethod.id;
      });
    },
  };
}

/** A refused payment (402) in one sentence: the provider's reason (e.g. "Your card was declined.") and that nothing was charged. */
export function declineText(r: Res<unknown>): string {
  const reason = ((r.error && r.error.message) || '').trim();
  let text = !reason ? 'Your card was declined.' : /declin/i.test(reason) ? reason : 'The payment did not go through: ' + reason;
  if (!/[.!?]$/.test(text)) text += '.';
  return /nothing was charged/i.test(text) ? text : text + ' Nothing was charged.';
}
