/*
 * The marina's tenant portal (/slip-portal; no framework, no third-party script). A tenant opens the link of their e-mail
 * (`?token=spl_...&customer=cus_...&location=loc_...`): the page exchanges the token once for a session (kept in this tab) and
 * removes it from the address. Signed in: the tenant's reservations; for each, its dates, unit, vessel and balance, the bill
 * (lines, payments, balance) paid with a saved or a new card, the documents the marina requires (upload a file), the contract
 * (read, download, sign with a typed name) and guest passes (create, list, revoke). Without a token (or with a used or expired
 * one) the page asks for the tenant's e-mail (and the marina) and sends a new link.
 */
import { api, errText } from '../api';
import type { Body, Ok, Res } from '../api';
import { announce, declineText, formFields, h, shout } from '../ui';
import type { El } from '../ui';
import {
  badge,
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
  portalSession,
  readOr,
  show,
  showNote,
  signInView,
  statusBadge,
  statusText,
  takeToken,
  whenText,
} from './shell';
import type { Session, Statuses } from './shell';

type Reservation = Ok<'getSlipPortalReservation'>;
type Brief = Ok<'listSlipPortalReservations'>['data'][number];
type Pass = Ok<'listSlipPortalGuestPasses'>['data'][number];
type Upload = Ok<'uploadSlipPortalFile'>;

const NAME = 'Tenant portal';
let customer = idParam('customer');
const locationParam = idParam('location');
let opened = false;
const session = portalSession('berth:tenant-portal', (notice) => signIn(notice));
const call = session.call;

/** The marina of the sign-in: the address's, else the operator's only location, else a choice. */
function marinaField(): { node: El | null; value: () => string } {
  const locs = currentBrand() ? currentBrand().catalog.locations : [];
  if (locationParam || locs.length < 2) return { node: null, value: () => locationParam || (locs[0] ? locs[0].locationId : '') };
  const select = h(
    'select',
    { id: 'pt-marina', name: 'location' },
    locs.map((l) => h('option', { value: l.locationId }, l.name)),
  );
  return { node: h('div', null, [h('label', { for: 'pt-marina' }, 'Marina'), select]), value: () => select.value };
}

function signIn(notice?: string) {
  if (!customer && !locationParam)
    return fatal('We could not open the tenant portal', 'Open the tenant portal from the link in your e-mail, or from your marina’s website.');
  const marina = marinaField();
  const locs = currentBrand() ? currentBrand().catalog.locations : [];
  const here = locs.filter((l) => l.locationId === locationParam)[0];
  signInView({
    notice: notice,
    intro: 'Enter the e-mail address of your slip reservation' + (here ? ' at ' + here.name : '') + '. We will e-mail you a link that signs you in.',
    extra: marina.node,
    request: (email) => api('requestSlipPortalLink', 'POST', '/slip-portal/magic-link', { email: email, locationId: marina.value() }),
  });
}

function menu(onList: boolean) {
  nav([{ label: 'Reservations', current: onList, go: () => listView() }], () => session.signOut('closeSlipPortalSession', '/slip-portal/session'));
}

// ---------------------------------------------------------------------------------------------
// Start

function start() {
  const token = takeToken('spl_');
  if (token) {
    void api('openSlipPortalSession', 'POST', '/slip-portal/session', { token: token }).then(function (r) {
      if (!r.ok) return void loadBrand(customer, NAME).then(() => signIn(linkProblem(r)));
      const s = { token: r.body.sessionToken, expiresAt: r.body.expiresAt, customerId: customer };
      session.keep(s);
      void signedIn(s);
    });
    return;
  }
  const kept = session.restore(customer);
  if (!kept) return void loadBrand(customer, NAME).then(() => signIn());
  customer = kept.customerId;
  void signedIn(kept);
}

/** A session: the operator it belongs to (its look), then the reservations. */
function signedIn(s: Session) {
  return call('getSlipPortalSession', 'GET', '/slip-portal/session').then(function (r) {
    const info = readOr(r, 'We could not open the tenant portal');
    if (!info) return;
    customer = info.customerId;
    session.keep(Object.assign(s, { customerId: customer }));
    return loadBrand(customer, NAME).then(() => listView());
  });
}

// ---------------------------------------------------------------------------------------------
// Reservations

const STATUS: Statuses = {
  pending: ['Waiting for the marina', 'wait'],
  awaiting_payment: ['Awaiting payment', 'wait'],
  confirmed: ['Confirmed', 'ok'],
  checked_in: ['Checked in', 'ok'],
  checked_out: ['Checked out', 'off'],
  cancelled: ['Cancelled', 'off'],
  expired: ['Expired', 'off'],
};

const unitName = (r: Brief) =>
  r.unit ? (r.unit.unitType === 'slip' ? 'Slip ' : '') + r.unit.unitNumber + (r.unit.section ? ', ' + r.unit.section : '') : 'Unit to be assigned';
const stay = (r: Brief) => dateText(r.arrivalDate, { short: true }) + ' – ' + dateText(r.departureDate, { short: true });
const live = (r: Brief) => r.status !== 'cancelled' && r.status !== 'expired' && r.status !== 'checked_out';

function balanceLine(r: Brief): string {
  if (r.balanceCents > 0) return cents(r.balanceCents, r.currency) + ' due';
  if (r.balanceCents < 0) return cents(-r.balanceCents, r.currency) + ' in your favour';
  return 'Paid in full';
}

function listView() {
  menu(true);
  const request = call('listSlipPortalReservations', 'GET', '/slip-portal/reservations?limit=50');
  loadingView('Your reservations', 'Loading your reservations…', request, 'We could not load your reservations', function (found) {
    const list = found.data;
    // One reservation: straight to it on arrival (the list stays one press away).
    if (!opened && list.length === 1) {
      opened = true;
      return reservationView(list[0].id);
    }
    opened = true;
    show('Your reservations', [
      list.length
        ? h(
            'ul',
            { class: 'pt-list' },
            list.map((x) =>
              h(
                'li',
                null,
                h('button', { type: 'button', class: 'pt-open', onclick: () => reservationView(x.id) }, [
                  h('strong', null, unitName(x) + ' · ' + x.boat.vesselName),
                  h('span', null, stay(x) + ' · ' + statusText(STATUS, x.status)),
                  h('span', null, balanceLine(x)),
                ]),
              ),
            ),
          )
        : h('p', null, 'You have no reservations with this marina.'),
    ]);
  });
}

/** Reads the reservation, then shows `then` (its overview by default). */
function reservationView(id: string, then?: (r: Reservation) => void, note?: string) {
  void call('getSlipPortalReservation', 'GET', '/slip-portal/reservations/' + encodeURIComponent(id)).then(function (r) {
    const detail = readOr(r, 'We could not load this reservation');
    if (!detail) return;
    menu(false);
    (then || overview)(detail);
    if (note) showNote(note);
  });
}

function backTo(r: Reservation) {
  return h('button', { type: 'button', class: 'bw-secondary', onclick: () => overview(r) }, 'Back to the reservation');
}

function task(title: string, state: El, open: () => void, label: string): El {
  return h('li', { class: 'pt-item' }, [
    h('h3', null, title),
    h('p', null, state),
    h('div', { class: 'bw-actions' }, h('button', { type: 'button', class: 'bw-secondary', onclick: open }, label)),
  ]);
}

function overview(r: Reservation) {
  const c = r.contract.status;
  const docs = r.documents;
  const missing = docs.requirements.filter((q) => q.status === 'missing' || q.status === 'rejected' || q.status === 'expired').length;
  const activePasses = r.guestPasses.filter((p) => p.status === 'active').length;
  const tasks: El[] = [
    task(
      'Bill and payments',
      badge(balanceLine(r), r.balanceCents > 0 ? 'wait' : 'ok'),
      () => billView(r),
      r.balanceCents > 0 && live(r) ? 'Pay the balance' : 'See the bill',
    ),
  ];
  if (c === 'sent' || c === 'signed')
    tasks.push(
      task(
        'Contract',
        c === 'signed' ? badge('Signed', 'ok') : badge('Waiting for your signature', 'wait'),
        () => contractView(r),
        c === 'signed' ? 'Read the contract' : 'Read and sign',
      ),
    );
  tasks.push(
    task(
      'Documents',
      docs.complete ? badge('Complete', 'ok') : badge(missing ? missing + ' missing' : 'Waiting for review', missing ? 'wait' : 'ok'),
      () => documentsView(r),
      docs.complete ? 'See the documents' : 'Send documents',
    ),
  );
  if (live(r)) tasks.push(task('Guest passes', badge(activePasses + ' active', activePasses ? 'ok' : 'off'), () => passesView(r), 'Manage guest passes'));
  show(unitName(r) + ', ' + stay(r), [
    facts([
      ['Reservation', r.reservationNumber],
      ['Status', statusBadge(STATUS, r.status)],
      ['Unit', unitName(r)],
      ['Vessel', r.boat.vesselName + ' (' + r.boat.loaFt + ' ft)'],
      ['Arrival', dateText(r.arrivalDate)],
      ['Departure', dateText(r.departureDate)],
      ['Total', cents(r.totalCents, r.currency)],
      ['Balance', balanceLine(r)],
    ]),
    h('ul', { class: 'pt-list' }, tasks),
  ]);
}

// ---------------------------------------------------------------------------------------------
// The bill and paying it

function billTable(r: Reservation): El {
  const row = (label: string, amount: number, cls?: string) =>
    h('tr', { class: cls || null }, [h('th', { scope: 'row' }, label), h('td', null, ''), h('td', { class: 'pt-money' }, cents(amount, r.currency))]);
  const lines = r.pricing.lines.map((l) =>
    h('tr', null, [
      h('td', null, l.description),
      h('td', { class: 'pt-money' }, String(l.quantity)),
      h('td', { class: 'pt-money' }, cents(l.amountCents, r.currency)),
    ]),
  );
  const sums = [row('Total', r.totalCents, 'pt-total'), row('Paid', r.amountPaidCents)];
  if (r.amountRefundedCents) sums.push(row('Refunded', r.amountRefundedCents));
  sums.push(row(r.balanceCents < 0 ? 'In your favour' : r.balanceCents > 0 ? 'Balance due' : 'Balance', Math.abs(r.balanceCents), 'pt-total'));
  return h(
    'div',
    { class: 'pt-table-wrap' },
    h('table', { class: 'bw-table' }, [
      h('caption', { class: 'bw-sr' }, 'Charges of reservation ' + r.reservationNumber),
      h(
        'thead',
        null,
        h('tr', null, [
          h('th', { scope: 'col' }, 'Charge'),
          h('th', { scope: 'col', class: 'pt-money' }, 'Qty'),
          h('th', { scope: 'col', class: 'pt-money' }, 'Amount'),
        ]),
      ),
      h('tbody', null, lines.concat(sums)),
    ]),
  );
}

function paymentsList(r: Reservation): El | null {
  if (!r.payments.length) return null;
  return h('section', { 'aria-labelledby': 'pt-payments' }, [
    h('h3', { id: 'pt-payments' }, 'Payments'),
    h(
      'ul',
      null,
      r.payments.map((p) =>
        h(
          'li',
          null,
          (p.kind === 'refund' ? 'Refund ' : '') +
            cents(p.amountCents, p.currency) +
            ' on ' +
            whenText(p.createdAt, r.locationId) +
            (p.card && p.card.last4 ? ', ' + cap(p.card.brand || 'card') + ' ending in ' + p.card.last4 : ', ' + p.method.replace(/_/g, ' ')),
        ),
      ),
    ),
  ]);
}

function billView(r: Reservation) {
  const nodes: (El | null)[] = [billTable(r), paymentsList(r)];
  const owes = r.balanceCents > 0 && live(r);
  show('Bill for ' + unitName(r), nodes.concat(owes ? [h('p', { class: 'bw-loading' }, 'Loading your saved cards…')] : [backTo(r)]));
  if (!owes) return;
  void call('listSlipPortalPaymentMethods', 'GET', '/slip-portal/payment-methods').then(function (m) {
    if (!m) return;
    const saved = m.ok ? m.body.data : [];
    show('Bill for ' + unitName(r), nodes.concat([payForm(r, saved)]), { keepFocus: true });
  });
}

function payForm(r: Reservation, saved: Ok<'listSlipPortalPaymentMethods'>['data']): El {
  const msg = h('p', { class: 'bw-error', role: 'alert' });
  const renter = r.renter ? r.renter.firstName + ' ' + r.renter.lastName : '';
  const card = cardFields(msg, renter);
  const newBox = h('div', null, [
    card.node,
    h('div', { class: 'bw-check' }, [h('input', { type: 'checkbox', id: 'pt-save' }), h('label', { for: 'pt-save' }, 'Save this card for next time')]),
  ]);
  const choose = function () {
    const picked = form.querySelector('input[name=pt-card]:checked') as HTMLInputElement;
    newBox.hidden = !!(picked && picked.value !== 'new');
  };
  const choices = saved.length
    ? h(
        'fieldset',
        null,
        [h('legend', null, 'Pay with')].concat(
          saved
            .map((c, i) =>
              h('div', { class: 'bw-check' }, [
                h('input', {
                  type: 'radio',
                  name: 'pt-card',
                  id: 'pt-card-' + i,
                  value: c.id,
                  checked: c.isDefault || (i === 0 && !saved.some((x) => x.isDefault)),
                  onchange: choose,
                }),
                h(
                  'label',
                  { for: 'pt-card-' + i },
                  cap(c.brand) + ' ending in ' + c.last4 + ' (expires ' + c.expMonth + '/' + String(c.expYear).slice(-2) + ')',
                ),
              ]),
            )
            .concat([
              h('div', { class: 'bw-check' }, [
                h('input', { type: 'radio', name: 'pt-card', id: 'pt-card-new', value: 'new', onchange: choose }),
                h('label', { for: 'pt-card-new' }, 'A new card'),
              ]),
            ]),
        ),
      )
    : null;
  const total = cents(r.balanceCents, r.currency);
  // One key per press of Pay: a retried request (a lost answer) is not charged twice.
  const form = busyForm(
    [h('h3', null, 'Pay the balance'), choices, newBox, msg, h('div', { class: 'bw-actions' }, [h('button', { type: 'submit' }, 'Pay ' + total), backTo(r)])],
    function (m) {
      const picked = form.querySelector('input[name=pt-card]:checked') as HTMLInputElement;
      const pm = picked && picked.value !== 'new' ? Promise.resolve(picked.value) : card.paymentMethod().then((x) => (x ? keepCard(x, m) : null));
      return pm.then(function (id) {
        if (!id) return;
        announce('Paying, please wait.');
        const key = 'pay-' + r.id + '-' + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
        return call(
          'paySlipPortalReservation',
          'POST',
          '/slip-portal/reservations/' + encodeURIComponent(r.id) + '/pay',
          { paymentMethodId: id, amountCents: r.balanceCents },
          { 'idempotency-key': key },
        ).then(function (p) {
          const paid = doneOr(p, m, (x) => (x.status === 402 ? declineText(x) : errText(x)));
          if (paid) reservationView(r.id, billView, 'Paid ' + cents(paid.payment.amountCents, paid.payment.currency) + '. Thank you.');
        });
      });
    },
    msg,
  );
  if (saved.length) newBox.hidden = true;
  return form;
}

/** A new card: saved first when the tenant asked for it (then paid as the saved card), else paid as typed. */
function keepCard(pm: string, msg: El): Promise<string | null> {
  const save = document.getElementById('pt-save') as HTMLInputElement;
  if (!save || !save.checked) return Promise.resolve(pm);
  return call('createSlipPortalSetupIntent', 'POST', '/slip-portal/setup-intent', { paymentMethodId: pm }).then(function (r) {
    if (!r) return null;
    if (!r.ok || !r.body.paymentMethod) {
      msg.textContent = errText(r, 'The card could not be saved.');
      return null;
    }
    return r.body.paymentMethod.id;
  });
}

// ---------------------------------------------------------------------------------------------
// The contract

function contractView(r: Reservation) {
  show('Contract', [h('p', { class: 'bw-loading' }, 'Loading the contract…')]);
  void call('getSlipPortalContract', 'GET', '/slip-portal/reservations/' + encodeURIComponent(r.id) + '/contract').then(function (c) {
    if (!c) return;
    if (!c.ok) return show('Contract', [h('p', null, errText(c, 'The marina has not sent a contract yet.')), backTo(r)]);
    const k = c.body;
    const text = h('div', { class: 'bw-waiver-text', tabindex: '0', role: 'region', 'aria-label': 'Contract text' }, k.body);
    const download = h('button', { type: 'button', class: 'bw-secondary', onclick: () => downloadPdf(k.pdfUrl, k.title) }, 'Download the PDF');
    const nodes: (El | null)[] = [h('h3', null, k.title), text, h('div', { class: 'bw-actions' }, download)];
    if (k.status === 'signed') {
      nodes.push(h('p', { class: 'bw-note' }, 'Signed by ' + k.signerName + ' on ' + whenText(k.signedAt, r.locationId) + '.'), backTo(r));
      return show('Contract', nodes);
    }
    const f = formFields([['signerName', 'Type your full name to sign', 'text', 'name', '']]);
    const agreeErr = h('p', { id: 'pt-agree-err', class: 'bw-error', hidden: true });
    const agree = h('input', {
      type: 'checkbox',
      id: 'pt-agree',
      'aria-describedby': 'pt-agree-err',
      onchange: () => {
        if (agree.checked) agreeErr.hidden = true;
      },
    });
    const form = busyForm(
      [
        h('h3', null, 'Sign'),
        f.node,
        h('div', { class: 'bw-check' }, [agree, h('label', { for: 'pt-agree' }, 'I have read this contract and I agree to it')]),
        agreeErr,
        h('div', { class: 'bw-actions' }, [h('button', { type: 'submit' }, 'Sign the contract'), backTo(r)]),
      ],
      function (msg) {
        if (!f.valid()) return;
        agreeErr.hidden = agree.checked;
        agreeErr.textContent = agree.checked ? '' : 'Tick the box to agree to the contract.';
        if (!agree.checked) {
          agree.focus();
          shout(agreeErr.textContent);
          return;
        }
        const name = f.values().signerName;
        const body: Body<'signSlipPortalContract'> = { signerName: name, signature: name, agreed: true };
        return call('signSlipPortalContract', 'POST', '/slip-portal/reservations/' + encodeURIComponent(r.id) + '/contract/sign', body).then(function (s) {
          if (doneOr(s, msg)) reservationView(r.id, contractView, 'Contract signed. Thank you.');
        });
      },
    );
    nodes.push(form);
    show('Contract', nodes);
  });
}

/** The contract's PDF (it needs the session, so it is fetched here and saved as a file). */
function downloadPdf(url: string, title: string) {
  void fetch(location.origin + url, { headers: { authorization: 'Bearer ' + session.token() }, credentials: 'omit' }).then(
    function (res) {
      if (!res.ok) return shout('The PDF could not be downloaded. Please try again.');
      return res.blob().then(function (b) {
        const a = h('a', { href: URL.createObjectURL(b), download: title.replace(/[^\w .-]+/g, '').trim() + '.pdf' });
        document.body.appendChild(a);
        a.click();
        a.remove();
        announce('The PDF is downloading.');
      });
    },
    () => shout('The network is unavailable; check your connection and try again.'),
  );
}

// ---------------------------------------------------------------------------------------------
// Documents

const DOC_STATUS: Statuses = {
  missing: ['Missing', 'bad'],
  pending_upload: ['Waiting for the file', 'wait'],
  submitted: ['Sent, waiting for review', 'wait'],
  approved: ['Approved', 'ok'],
  rejected: ['Rejected', 'bad'],
  expired: ['Expired', 'bad'],
};
const typeName = (t: string) => cap(t.replace(/[_-]+/g, ' '));

function documentsView(r: Reservation) {
  const d = r.documents;
  const types = d.requirements.map((q) => q.type);
  // The first type still missing is offered first.
  const missing = d.requirements.filter((q) => q.status === 'missing' || q.status === 'rejected' || q.status === 'expired')[0];
  const typeSelect = h(
    'select',
    { id: 'pt-doc-type', name: 'type' },
    types.concat(types.indexOf('other') < 0 ? ['other'] : []).map((t) => h('option', { value: t, selected: missing && missing.type === t }, typeName(t))),
  );
  const file = h('input', {
    type: 'file',
    id: 'pt-doc-file',
    name: 'file',
    accept: '.pdf,.jpg,.jpeg,.png,.webp,.heic,application/pdf,image/jpeg,image/png,image/webp,image/heic',
    'aria-describedby': 'pt-doc-file-hint',
  });
  const expires = h('input', { type: 'date', id: 'pt-doc-expires', name: 'expiresOn' });
  const form = busyForm(
    [
      h('h3', null, 'Send a document'),
      h('label', { for: 'pt-doc-type' }, 'Document'),
      typeSelect,
      h('label', { for: 'pt-doc-file' }, 'File'),
      file,
      h('p', { class: 'bw-hint', id: 'pt-doc-file-hint' }, 'A PDF or a photo (JPEG, PNG, WebP, HEIC), at most 10 MB.'),
      h('label', { for: 'pt-doc-expires' }, 'Runs out on (optional)'),
      expires,
      h('div', { class: 'bw-actions' }, [h('button', { type: 'submit' }, 'Send the document'), backTo(r)]),
    ],
    function (msg) {
      const picked = file.files && file.files[0];
      if (!picked) {
        msg.textContent = 'Choose the file to send.';
        file.focus();
        return;
      }
      if (picked.size > 10 * 1024 * 1024) {
        msg.textContent = 'This file is larger than 10 MB. Please send a smaller one.';
        return;
      }
      announce('Sending the document, please wait.');
      return upload(picked).then(function (u) {
        if (!u.ok) {
          msg.textContent = u.status === 413 ? 'This file is larger than 10 MB. Please send a smaller one.' : errText(u, 'The file could not be sent.');
          return;
        }
        const body: Body<'submitSlipPortalDocument'> = { uploadId: u.body.uploadId, type: typeSelect.value };
        if (expires.value) body.expiresOn = expires.value;
        return call('submitSlipPortalDocument', 'POST', '/slip-portal/reservations/' + encodeURIComponent(r.id) + '/documents', body).then(function (s) {
          const sent = doneOr(s, msg);
          if (sent) reservationView(r.id, documentsView, typeName(sent.type) + ' sent. The marina will review it.');
        });
      });
    },
  );
  show('Documents', [
    d.requirements.length
      ? h('section', { 'aria-labelledby': 'pt-needed' }, [
          h('h3', { id: 'pt-needed' }, 'What the marina needs'),
          h(
            'ul',
            { class: 'pt-list' },
            d.requirements.map((q) =>
              h('li', { class: 'pt-item' }, [
                h('strong', null, typeName(q.type)),
                ' ',
                statusBadge(DOC_STATUS, q.status),
                q.expiresOn ? h('p', { class: 'bw-hint' }, 'Runs out on ' + dateText(q.expiresOn)) : null,
              ]),
            ),
          ),
        ])
      : null,
    d.documents.length
      ? h('section', { 'aria-labelledby': 'pt-sent' }, [
          h('h3', { id: 'pt-sent' }, 'Documents you sent'),
          h(
            'ul',
            null,
            d.documents.map((x) =>
              h(
                'li',
                null,
                typeName(x.type) +
                  ': ' +
                  (x.fileName || 'file') +
                  ', ' +
                  statusText(DOC_STATUS, x.status).toLowerCase() +
                  (x.reviewNote ? ' (' + x.reviewNote + ')' : ''),
              ),
            ),
          ),
        ])
      : null,
    live(r) ? form : backTo(r),
  ]);
}

/** POST /slip-portal/upload (multipart/form-data): the file, stored until it is attached to the reservation. */
function upload(f: File): Promise<Res<Upload>> {
  const fd = new FormData();
  fd.append('file', f, f.name);
  return fetch(location.origin + '/slip-portal/upload', {
    method: 'POST',
    body: fd,
    headers: { authorization: 'Bearer ' + session.token() },
    credentials: 'omit',
  }).then(
    (res) =>
      res.text().then(function (t) {
        let body: unknown = null;
        try {
          body = t ? JSON.parse(t) : null;
        } catch {
          body = null;
        }
        if (res.status === 401) session.end('Your session has ended. Ask for a new sign-in link to continue.');
        return { status: res.status, ok: res.ok, body: body as Upload, error: res.ok ? null : ((body as Res<Upload>['error']) ?? {}) };
      }),
    () => ({ status: 0, ok: false, body: null, error: { message: 'The network is unavailable; check your connection and try again.' } }),
  );
}

// ---------------------------------------------------------------------------------------------
// Guest passes

const PASS_STATUS: Statuses = {
  active: ['Active', 'ok'],
  expired: ['Expired', 'off'],
  revoked: ['Revoked', 'off'],
};

function passItem(r: Reservation, p: Pass): El {
  const id = 'pt-pass-' + p.id;
  return h('li', { class: 'pt-item', 'aria-labelledby': id }, [
    h('h4', { id: id }, p.guestName),
    h('p', null, [
      h('span', { class: 'pt-code', 'aria-label': 'Code ' + p.accessCode.split('').join(' ') }, p.accessCode),
      ' ',
      statusBadge(PASS_STATUS, p.status),
    ]),
    h('p', { class: 'bw-hint' }, 'Valid ' + whenText(p.validFrom, r.locationId) + ' to ' + whenText(p.validUntil, r.locationId)),
    p.status === 'active'
      ? h(
          'div',
          { class: 'bw-actions' },
          h('button', { type: 'button', class: 'bw-secondary', onclick: () => revoke(r, p) }, [
            'Revoke',
            h('span', { class: 'bw-sr' }, ' the pass of ' + p.guestName),
          ]),
        )
      : null,
  ]);
}

function revoke(r: Reservation, p: Pass) {
  void call('revokeSlipPortalGuestPass', 'DELETE', '/slip-portal/reservations/' + encodeURIComponent(r.id) + '/guest-access/' + encodeURIComponent(p.id)).then(
    function (x) {
      if (!x) return;
      if (!x.ok) return shout(errText(x));
      reservationView(r.id, passesView, 'The pass of ' + p.guestName + ' is revoked.');
    },
  );
}

function passesView(r: Reservation) {
  const f = formFields([
    ['guestName', 'Guest name', 'text', 'off', ''],
    ['guestEmail', 'Guest e-mail, to send them the code', 'email', 'off', '', false],
  ]);
  const form = busyForm(
    [h('h3', null, 'New guest pass'), f.node, h('div', { class: 'bw-actions' }, [h('button', { type: 'submit' }, 'Create the pass'), backTo(r)])],
    function (msg) {
      if (!f.valid()) return;
      const v = f.values();
      const body: Body<'addSlipPortalGuestPass'> = { guestName: v.guestName, notifyGuest: true };
      if (v.guestEmail) body.guestEmail = v.guestEmail;
      return call('addSlipPortalGuestPass', 'POST', '/slip-portal/reservations/' + encodeURIComponent(r.id) + '/guest-access', body).then(function (p) {
        const pass = doneOr(p, msg);
        if (pass) reservationView(r.id, passesView, 'Pass created for ' + pass.guestName + ': code ' + pass.accessCode.split('').join(' ') + '.');
      });
    },
  );
  const passes = r.guestPasses;
  show('Guest passes', [
    h('p', null, 'A pass lets a guest through the gate and onto the dock during your stay with its code.'),
    passes.length
      ? h(
          'ul',
          { class: 'pt-list' },
          passes.map((p) => passItem(r, p)),
        )
      : h('p', null, 'No guest passes yet.'),
    form,
  ]);
}

start();
