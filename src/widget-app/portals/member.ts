/*
 * The member portal (/member-portal; no framework, no third-party script). A member opens the link of their e-mail
 * (`?token=mpl_...&customer=cus_...`): the page exchanges the token once for a session (kept in this tab) and removes it from
 * the address. Signed in: the membership card (tier, status, member number, renewal, benefits, credits, family), pause and
 * resume within the tier's policy, cancellation at the period end (confirmed first), invoices, and a new card for renewals.
 * Without a token (or with a used or expired one) the page asks for the member's e-mail and sends a new link.
 */
import { api, errText } from '../api';
import type { Body, Ok, Res } from '../api';
import { announce, h, shout } from '../ui';
import type { El } from '../ui';
import {
  busyForm,
  cap,
  cardFields,
  cents,
  currentBrand,
  dateText,
  doneOr,
  facts,
  fatal,
  idParam,
  linkProblem,
  loadBrand,
  loadingView,
  nav,
  now,
  portalSession,
  readOr,
  show,
  showNote,
  signInView,
  statusBadge,
  takeToken,
} from './shell';
import type { Statuses } from './shell';

type Membership = Ok<'getMemberPortal'>;
type Invoice = Ok<'listMemberPortalInvoices'>['data'][number];

const NAME = 'Member portal';
const DAY = 86_400_000;
let member: Membership | null = null;
let customer = idParam('customer');
const session = portalSession('berth:member-portal', function (notice) {
  member = null;
  signIn(notice);
});
const call = session.call;

function signIn(notice?: string) {
  if (!customer) return fatal('We could not open the member portal', 'Open the member portal from the link in your e-mail, or from your club’s website.');
  signInView({
    notice: notice,
    intro: 'Enter the e-mail address of your membership. We will e-mail you a link that signs you in.',
    request: (email) => api('requestMemberPortalLink', 'POST', '/public/memberships/portal/link', { customerId: customer, email: email }),
  });
}

function menu(current: 'card' | 'invoices') {
  nav(
    [
      { label: 'Membership', current: current === 'card', go: () => home() },
      { label: 'Invoices', current: current === 'invoices', go: () => invoicesView() },
    ],
    () => session.signOut('closeMemberPortalSession', '/public/memberships/portal/session'),
  );
}

// ---------------------------------------------------------------------------------------------
// Start

function start() {
  const token = takeToken('mpl_');
  if (token) {
    void Promise.all([api('openMemberPortalSession', 'POST', '/public/memberships/portal/session', { token: token }), loadBrand(customer, NAME)]).then(
      function (both) {
        const r = both[0];
        if (!r.ok) return signIn(linkProblem(r));
        customer = r.body.membership.customerId;
        session.keep({ token: r.body.sessionToken, expiresAt: r.body.expiresAt, customerId: customer });
        member = r.body.membership;
        void loadBrand(customer, NAME).then(() => home());
      },
    );
    return;
  }
  const kept = session.restore(customer);
  if (kept) customer = kept.customerId;
  void loadBrand(customer, NAME).then(function (b) {
    if (!kept) return b || !customer ? signIn() : fatal('We could not open the member portal', 'This club was not found. Check the link in your e-mail.');
    void call('getMemberPortal', 'GET', '/public/memberships/portal').then(function (r) {
      member = readOr(r, 'We could not load your membership');
      if (member) home();
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The membership card

const STATUS: Statuses = {
  active: ['Active', 'ok'],
  paused: ['Paused', 'wait'],
  past_due: ['Payment due', 'bad'],
  canceled: ['Canceled', 'off'],
  incomplete: ['Not started', 'off'],
};

function priceText(m: Membership) {
  return cents(m.price, m.currency) + (m.billingCycle === 'yearly' ? ' a year' : ' a month');
}

/** When the membership next changes: its renewal, its end, or when a pause ends. */
function nextEvent(m: Membership): [string, string] {
  if (m.status === 'paused') return ['Resumes on', dateText(m.resumeAt)];
  if (m.status === 'canceled') return ['Ended on', dateText(m.currentPeriodEnd)];
  if (m.cancelAtPeriodEnd) return ['Ends on', dateText(m.currentPeriodEnd)];
  if (m.status === 'past_due') return ['Renewal unpaid since', dateText(m.currentPeriodStart)];
  return ['Renews on', dateText(m.nextBillingDate || m.currentPeriodEnd)];
}

function benefitsList(m: Membership): El | null {
  const b = m.benefits;
  if (!b) return null;
  const items: string[] = [];
  if (b.discountPercentage > 0) items.push(b.discountPercentage + '% off every booking');
  if (b.creditsPerPeriod > 0) items.push(cents(b.creditsPerPeriod, m.currency) + ' of credits every ' + (m.billingCycle === 'yearly' ? 'year' : 'month'));
  b.perks.forEach((p) => items.push(p));
  if (!items.length) return null;
  return h('section', { 'aria-labelledby': 'pt-benefits' }, [
    h('h3', { id: 'pt-benefits' }, 'Your benefits'),
    h(
      'ul',
      null,
      items.map((x) => h('li', null, x)),
    ),
  ]);
}

function home() {
  const m = member;
  menu('card');
  const next = nextEvent(m);
  const card = h('section', { class: 'pt-card', 'aria-labelledby': 'pt-card-title' }, [
    h('p', { class: 'pt-card-brand' }, currentBrand() ? currentBrand().catalog.businessName : ''),
    h('h3', { id: 'pt-card-title' }, m.tierName || 'Membership'),
    h('p', null, [
      m.cancelAtPeriodEnd && m.status === 'active'
        ? statusBadge({ ending: ['Active until ' + dateText(m.currentPeriodEnd, { short: true }), 'ok'] }, 'ending')
        : statusBadge(STATUS, m.status),
    ]),
    facts([
      ['Member', m.memberName || m.memberEmail],
      ['Member number', m.membershipId],
      ['Price', priceText(m)],
      [next[0], next[1]],
      ['Credits', m.creditBalance > 0 ? cents(m.creditBalance, m.currency) : ''],
    ]),
  ]);
  const family = m.familyMembers.length
    ? h('section', { 'aria-labelledby': 'pt-family' }, [
        h('h3', { id: 'pt-family' }, 'Family members'),
        h(
          'ul',
          null,
          m.familyMembers.map((f) => h('li', null, f.name ? f.name + ' (' + f.email + ')' : f.email)),
        ),
      ])
    : null;
  const live = m.status !== 'canceled';
  const cardOnFile = h('section', { 'aria-labelledby': 'pt-cardfile' }, [
    h('h3', { id: 'pt-cardfile' }, 'Card for renewals'),
    h('p', null, m.card ? cap(m.card.brand) + ' ending in ' + m.card.last4 : 'No card on file.'),
    live ? h('div', { class: 'bw-actions' }, h('button', { type: 'button', class: 'bw-secondary', onclick: () => cardView() }, 'Update card')) : null,
  ]);
  const actions: El[] = [];
  const p = m.pausePolicy;
  if (m.status === 'active' && !m.cancelAtPeriodEnd && p && p.enabled)
    actions.push(h('button', { type: 'button', onclick: () => pauseView() }, 'Pause membership'));
  if (m.status === 'paused') actions.push(h('button', { type: 'button', onclick: resume }, 'Resume membership'));
  if (live && !m.cancelAtPeriodEnd) actions.push(h('button', { type: 'button', class: 'bw-secondary', onclick: () => cancelView() }, 'Cancel membership'));
  show('Your membership', [
    card,
    benefitsList(m),
    family,
    cardOnFile,
    actions.length
      ? h('section', { 'aria-labelledby': 'pt-manage' }, [h('h3', { id: 'pt-manage' }, 'Manage'), h('div', { class: 'bw-actions' }, actions)])
      : null,
  ]);
}

function backHome() {
  return h('button', { type: 'button', class: 'bw-secondary', onclick: () => home() }, 'Back to your membership');
}

/** After a change: the membership as answered and the card view with a note (announced); a failure is said in `msg`. */
function changed(r: Res<Membership> | null, msg: El, note: (m: Membership) => string) {
  const m = doneOr(r, msg);
  if (!m) return;
  member = m;
  home();
  showNote(note(m));
}

// ---------------------------------------------------------------------------------------------
// Pause, resume, cancel

function pauseView() {
  const m = member;
  const p = m.pausePolicy;
  const max = p.maxPauseDays;
  // Shorter pauses (a week, two weeks, a month) end at an instant from now; the longest is the tier's, counted by Berth.
  const lengths = [7, 14, 30, 60, 90].filter((d) => d < max).concat([max]);
  const until = (d: number) => dateText(new Date(now() + d * DAY).toISOString());
  const options = h(
    'fieldset',
    null,
    [h('legend', null, 'Pause for')].concat(
      lengths.map(function (d, i) {
        const id = 'pt-pause-' + d;
        return h('div', { class: 'bw-check' }, [
          h('input', { type: 'radio', name: 'pause', id: id, value: String(d), checked: i === 0 }),
          h('label', { for: id }, d + ' days, until ' + until(d)),
        ]);
      }),
    ),
  );
  const form = busyForm([options, h('div', { class: 'bw-actions' }, [h('button', { type: 'submit' }, 'Pause membership'), backHome()])], function (msg) {
    const chosen = Number((form.querySelector('input[name=pause]:checked') as HTMLInputElement).value);
    const body: Body<'pauseMemberPortal'> = chosen === max ? {} : { resumeAt: new Date(now() + chosen * DAY).toISOString() };
    return call('pauseMemberPortal', 'POST', '/public/memberships/portal/pause', body).then((r) =>
      changed(r, msg, (x) => 'Your membership is paused until ' + dateText(x.resumeAt) + '.'),
    );
  });
  show('Pause your membership', [
    h(
      'p',
      null,
      'While paused you are not charged and your benefits rest; your renewal date moves by the days paused. ' +
        'You can pause up to ' +
        p.maxPausesPerYear +
        (p.maxPausesPerYear === 1 ? ' time' : ' times') +
        ' a year, for at most ' +
        max +
        ' days, and resume at any time.',
    ),
    form,
  ]);
}

function resume() {
  void call('resumeMemberPortal', 'POST', '/public/memberships/portal/resume').then(function (r) {
    if (r && !r.ok) return shout(errText(r));
    changed(r, null, () => 'Welcome back: your membership is active again.');
  });
}

function cancelView() {
  const m = member;
  const reason = h('textarea', { id: 'pt-reason', name: 'reason', rows: '3', maxlength: '1000' });
  const immediate = m.status === 'paused' || m.status === 'past_due';
  const form = busyForm(
    [
      h('label', { for: 'pt-reason' }, 'Why are you leaving? (optional)'),
      reason,
      h('div', { class: 'bw-actions' }, [
        h('button', { type: 'submit' }, 'Yes, cancel my membership'),
        h('button', { type: 'button', class: 'bw-secondary', onclick: () => home() }, 'Keep my membership'),
      ]),
    ],
    function (msg) {
      const body: Body<'cancelMemberPortal'> = reason.value.trim() ? { reason: reason.value.trim() } : {};
      return call('cancelMemberPortal', 'POST', '/public/memberships/portal/cancel', body).then((r) =>
        changed(r, msg, (x) =>
          x.status === 'canceled'
            ? 'Your membership is canceled.'
            : 'Your membership is canceled: it stays active until ' + dateText(x.currentPeriodEnd) + ' and will not renew.',
        ),
      );
    },
  );
  show('Cancel your membership?', [
    h(
      'p',
      null,
      immediate
        ? 'Your membership ends now and your benefits stop.'
        : 'Your membership stays active until ' + dateText(m.currentPeriodEnd) + ', then ends and is not renewed. You keep your benefits until then.',
    ),
    form,
  ]);
}

// ---------------------------------------------------------------------------------------------
// A new card

function cardView() {
  const m = member;
  const msgBox = h('p', { class: 'bw-error', role: 'alert' });
  const card = cardFields(msgBox, m.memberName || '');
  const form = busyForm(
    [card.node, msgBox, h('div', { class: 'bw-actions' }, [h('button', { type: 'submit' }, 'Save card'), backHome()])],
    function (msg) {
      return card.paymentMethod().then(function (pm) {
        if (!pm) return;
        announce('Saving your card, please wait.');
        return call('updateMemberPortalCard', 'POST', '/public/memberships/portal/card', { paymentMethodId: pm }).then(function (r) {
          const done = doneOr(r, msg, (x) => errText(x, 'The card could not be saved.'));
          if (!done) return;
          member = done.membership;
          const saved = cap(done.card.brand) + ' ending in ' + done.card.last4;
          const pay = done.payment.status;
          const note =
            pay === 'paid'
              ? 'Card saved: ' + saved + '. Your unpaid renewal was paid with it; your membership is active again.'
              : pay === 'declined'
                ? 'Card saved: ' + saved + ', but it was declined for your unpaid renewal. Please try another card.'
                : 'Card saved: ' + saved + '. It pays your renewals from now on.';
          home();
          showNote(note);
        });
      });
    },
    msgBox,
  );
  show('Update your card', [h('p', null, 'This card pays your renewals' + (m.status === 'past_due' ? ' and, at once, your unpaid renewal.' : '.')), form]);
}

// ---------------------------------------------------------------------------------------------
// Invoices

const INVOICE_STATUS: Statuses = {
  paid: ['Paid', 'ok'],
  open: ['Unpaid', 'bad'],
  uncollectible: ['Unpaid', 'bad'],
  void: ['Void', 'off'],
  credited: ['Credited', 'off'],
};

function invoiceItem(inv: Invoice): El {
  const id = 'pt-inv-' + inv.invoiceId;
  return h('li', { class: 'pt-item', 'aria-labelledby': id }, [
    h('h3', { id: id }, 'Invoice ' + inv.number),
    h('p', null, [statusBadge(INVOICE_STATUS, inv.status), ' ', dateText(inv.periodStart, { short: true }) + ' – ' + dateText(inv.periodEnd, { short: true })]),
    h('div', { class: 'pt-table-wrap' }, [
      h('table', { class: 'bw-table' }, [
        h('caption', { class: 'bw-sr' }, 'Lines of invoice ' + inv.number),
        h('thead', null, h('tr', null, [h('th', { scope: 'col' }, 'Description'), h('th', { scope: 'col', class: 'pt-money' }, 'Amount')])),
        h(
          'tbody',
          null,
          inv.lines
            .map((l) => h('tr', null, [h('td', null, l.description), h('td', { class: 'pt-money' }, cents(l.amount, inv.currency))]))
            .concat([h('tr', { class: 'pt-total' }, [h('th', { scope: 'row' }, 'Total'), h('td', { class: 'pt-money' }, cents(inv.total, inv.currency))])]),
        ),
      ]),
    ]),
    inv.paidAt ? h('p', { class: 'bw-hint' }, 'Paid ' + cents(inv.amountPaid, inv.currency) + ' on ' + dateText(inv.paidAt, { short: true }) + '.') : null,
    inv.amountRefunded > 0 ? h('p', { class: 'bw-hint' }, 'Refunded ' + cents(inv.amountRefunded, inv.currency) + '.') : null,
  ]);
}

function invoicesView() {
  menu('invoices');
  const request = call('listMemberPortalInvoices', 'GET', '/public/memberships/portal/invoices?limit=24');
  loadingView('Invoices', 'Loading your invoices…', request, 'We could not load your invoices', function (list) {
    show('Invoices', [
      list.data.length
        ? h(
            'ul',
            { class: 'pt-list' },
            list.data.map((inv) => invoiceItem(inv)),
          )
        : h('p', null, 'No invoices yet.'),
      list.total > list.data.length ? h('p', { class: 'bw-hint' }, 'The latest ' + list.data.length + ' of ' + list.total + ' invoices.') : null,
    ]);
  });
}

start();
