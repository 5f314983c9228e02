import { route } from '../../lib/openapi';
import { TENANT_AUTH } from './auth';
import * as s from './schemas';
import { LINK_MINUTES, SESSION_HOURS, SESSION_RATE_LIMIT } from './types';

const tags = ['Slip tenant portal'];
const portal = { tags, access: 'none' as const, auth: TENANT_AUTH };

const SIGN_IN = `**Signing in**: POST /slip-portal/magic-link (the tenant's e-mail and the location) or POST /slip-portal/invite (staff, for a reservation) e-mails the renter a single-use link (${LINK_MINUTES} minutes) to the location's portal page (slip settings \`portalUrl\`, else \`{PUBLIC_BASE_URL}/slip-portal\`) with \`?token=spl_...\`; the page exchanges it once with POST /slip-portal/session for a session token (${SESSION_HOURS} hours), sent as \`Authorization: Bearer sps_...\` to every other portal route (${SESSION_RATE_LIMIT} requests a minute per session).`;
const OWN = `Tenant session (\`Authorization: Bearer sps_...\`, 401 without one). Only the session's own reservations: another tenant's reservation answers 404.`;

export const page = route({
  method: 'get',
  path: '/slip-portal',
  operationId: 'getSlipPortalPage',
  tags,
  access: 'none',
  security: [],
  summary: 'The tenant portal page (HTML)',
  query: s.PortalPageQuery,
  produces: 'text/html',
  description: `The page tenants open from their e-mails: \`?customer=cus_...&location=loc_...\` (the operator's name, logo and colour;
the marina a new link is asked for) and \`&token=spl_...\` (a sign-in link). The page exchanges the token once (POST /slip-portal/session),
keeps the session in the tab (sessionStorage) and removes the token from the address; without a token it asks for the tenant's e-mail
and sends a new link (POST /slip-portal/magic-link). Signed in: the tenant's reservations; for each, its dates, unit, vessel and balance,
the bill (its lines, payments and balance) paid with a saved or a new card, the documents the marina requires (upload a file), the
contract (read, download, sign with a typed name), and guest passes (create, list, revoke). Sign-out ends the session. Scripts and
styles are this deployment's static files; the Content-Security-Policy allows scripts from Berth's origin only, and no site may frame
the page. ${SIGN_IN}`,
});

export const magicLink = route({
  method: 'post',
  path: '/slip-portal/magic-link',
  operationId: 'requestSlipPortalLink',
  tags,
  access: 'public',
  summary: 'E-mail a tenant-portal sign-in link',
  description: `No credentials needed. Always answers the same, whether or not the e-mail belongs to a renter with a reservation at the location (no account discovery); at most 10 requests a minute per IP address (429). An unknown location answers 404. ${SIGN_IN}`,
  body: s.MagicLinkBody,
  ok: s.MagicLinkResult,
  errors: [404, 429],
});

export const invite = route({
  method: 'post',
  path: '/slip-portal/invite',
  operationId: 'inviteSlipPortalTenant',
  tags,
  summary: "E-mail a reservation's renter a portal link",
  description: `Staff send the renter of the reservation a single-use sign-in link (\`marina\` permission). ${SIGN_IN}`,
  body: s.InviteBody,
  ok: s.InviteResult,
  errors: [403, 404],
});

export const openSession = route({
  method: 'post',
  path: '/slip-portal/session',
  operationId: 'openSlipPortalSession',
  tags,
  access: 'none',
  security: [],
  summary: 'Exchange a portal link for a tenant session',
  description: `The link token works once: unknown 404, used before or older than ${LINK_MINUTES} minutes 410 \`expired\` (two pages racing with one link: one session). ${SIGN_IN}`,
  body: s.SessionBody,
  ok: s.SessionOpened,
  status: 201,
  errors: [404, 410],
});

export const session = route({
  method: 'get',
  path: '/slip-portal/session',
  operationId: 'getSlipPortalSession',
  ...portal,
  summary: 'The tenant session',
  description: `The renter signed in, the session's expiry, and how many reservations the tenant has. ${OWN}`,
  ok: s.Session,
});

export const signOut = route({
  method: 'delete',
  path: '/slip-portal/session',
  operationId: 'closeSlipPortalSession',
  ...portal,
  summary: 'Sign out of the tenant portal',
  description: `The session token stops working at once. ${OWN}`,
  ok: s.SignedOut,
});

export const reservations = route({
  method: 'get',
  path: '/slip-portal/reservations',
  operationId: 'listSlipPortalReservations',
  ...portal,
  summary: "The tenant's reservations",
  description: `By arrival date; optional \`status\`; \`limit\`/\`offset\` with \`total\`. ${OWN}`,
  query: s.ListQuery,
  ok: s.ReservationList,
});

export const reservation = route({
  method: 'get',
  path: '/slip-portal/reservations/{id}',
  operationId: 'getSlipPortalReservation',
  ...portal,
  summary: 'A reservation of the tenant with its details',
  description: `The reservation with its payments, the latest messages (staff notes excluded), the document requirements and documents, and the guest passes. ${OWN}`,
  params: s.IdParams,
  ok: s.ReservationDetail,
  errors: [404],
});

export const vessel = route({
  method: 'put',
  path: '/slip-portal/reservations/{id}/vessel',
  operationId: 'updateSlipPortalVessel',
  ...portal,
  summary: 'Update the vessel of a reservation',
  description: `Name, registration, make, model, year, type: any time while the reservation is live (pending, awaiting payment, confirmed, checked in; 409 otherwise). Dimensions must still fit the unit (409 \`slip_does_not_fit\` with the failing dimensions); a new length re-prices the stay at the reservation's rate (\`booking.updated\`). ${OWN}`,
  params: s.IdParams,
  body: s.VesselBody,
  ok: s.Reservation,
  errors: [404, 409],
});

export const contract = route({
  method: 'get',
  path: '/slip-portal/reservations/{id}/contract',
  operationId: 'getSlipPortalContract',
  ...portal,
  summary: 'The contract to sign',
  description: `The contract the marina sent for the reservation (or the signed one); \`?format=pdf\` answers the PDF itself (the signed PDF once signed). None sent yet: 404. ${OWN}`,
  params: s.IdParams,
  query: s.ContractQuery,
  ok: s.Contract,
  errors: [404],
});

export const sign = route({
  method: 'post',
  path: '/slip-portal/reservations/{id}/contract/sign',
  operationId: 'signSlipPortalContract',
  ...portal,
  summary: 'Sign the contract',
  description: `Signs the contract the marina sent: a typed name or a drawn signature (data URL), \`agreed: true\`. The signature page (name, time, IP address, the document's SHA-256) is added to the PDF and the reservation's contract becomes signed. Already signed, voided or never sent: 409 / 404. ${OWN}`,
  params: s.IdParams,
  body: s.SignBody,
  ok: s.Contract,
  errors: [404, 409],
});

export const documents = route({
  method: 'get',
  path: '/slip-portal/reservations/{id}/documents',
  operationId: 'listSlipPortalDocuments',
  ...portal,
  summary: 'Document requirements and submitted documents',
  description: `The location's required documents (slip settings \`requiredDocuments\`) with the status of each (missing, submitted, approved, rejected, expired past \`expiresOn\`), and every document submitted for the reservation with the marina's review. ${OWN}`,
  params: s.IdParams,
  ok: s.Requirements,
  errors: [404],
});

export const submitDocument = route({
  method: 'post',
  path: '/slip-portal/reservations/{id}/documents',
  operationId: 'submitSlipPortalDocument',
  ...portal,
  summary: 'Submit a document for a reservation',
  description: `Attaches a file uploaded with POST /slip-portal/upload (by its \`uploadId\`; an upload is attached once) as a document of \`type\` (a required type such as insurance or registration, or another), with the date it runs out. It is \`submitted\` until the marina reviews it. A reservation that ended answers 409. ${OWN}`,
  params: s.IdParams,
  body: s.AttachBody,
  ok: s.Document,
  status: 201,
  errors: [404, 409],
});

export const upload = route({
  method: 'post',
  path: '/slip-portal/upload',
  operationId: 'uploadSlipPortalFile',
  ...portal,
  summary: 'Upload a document file',
  description: `multipart/form-data with one \`file\` part: a PDF, JPEG, PNG, WebP or HEIC file by its content (the declared type is not trusted; 400 \`document_type_not_accepted\`), at most 10 MB (413). Stored in R2; attach it to a reservation with POST /slip-portal/reservations/{id}/documents (uploads never attached are removed after a day). ${OWN}`,
  multipart: s.UploadForm,
  bodyLimit: 11 * 1024 * 1024,
  ok: s.Upload,
  status: 201,
  errors: [413],
});

export const messages = route({
  method: 'get',
  path: '/slip-portal/reservations/{id}/messages',
  operationId: 'listSlipPortalMessages',
  ...portal,
  summary: 'The message thread of a reservation',
  description: `Messages from the marina (e-mail, SMS) and the tenant's own, newest first; staff notes are not shown. ${OWN}`,
  params: s.IdParams,
  query: s.PageQuery,
  ok: s.MessageList,
  errors: [404],
});

export const sendMessage = route({
  method: 'post',
  path: '/slip-portal/reservations/{id}/messages',
  operationId: 'sendSlipPortalMessage',
  ...portal,
  summary: 'Write to the marina',
  description: `Adds an inbound message (channel \`portal\`) to the reservation's thread, which staff read with GET /slip-reservations/{id}/messages. ${OWN}`,
  params: s.IdParams,
  body: s.MessageBody,
  ok: s.Message,
  status: 201,
  errors: [404],
});

export const paymentMethods = route({
  method: 'get',
  path: '/slip-portal/payment-methods',
  operationId: 'listSlipPortalPaymentMethods',
  ...portal,
  summary: 'Saved cards of the tenant',
  description: `The cards saved at the payment provider for the renter (brand, last 4, expiry; the default one marked). ${OWN}`,
  ok: s.PaymentMethods,
});

export const setupIntent = route({
  method: 'post',
  path: '/slip-portal/setup-intent',
  operationId: 'createSlipPortalSetupIntent',
  ...portal,
  summary: 'Add a payment method',
  description: `Answers a setup intent (\`clientSecret\`) for the provider's card element, which saves the card to the renter. With \`paymentMethodId\` (a card the page already tokenized) the card is saved at once as the default and answered. ${OWN}`,
  body: s.SetupIntentBody,
  ok: s.SetupIntent,
  status: 201,
  errors: [400],
});

export const pay = route({
  method: 'post',
  path: '/slip-portal/reservations/{id}/pay',
  operationId: 'paySlipPortalReservation',
  ...portal,
  idempotent: true,
  summary: 'Pay a reservation',
  description: `Charges \`amountCents\` (default: the balance; above the balance 400) to \`paymentMethodId\` or the saved default card, or records \`paymentIntentId\` (an intent of POST .../create-payment-intent the card element confirmed; once per intent). Through the shared payments service: \`payment.completed\` fires with the payment, a decline answers 402 \`payment_failed\` with nothing recorded. A payment that covers the deposit (or the total) of a reservation awaiting payment confirms it. A cancelled reservation answers 409. ${OWN}`,
  params: s.IdParams,
  body: s.PayBody,
  ok: s.PayResult,
  errors: [402, 404, 409],
});

export const createIntent = route({
  method: 'post',
  path: '/slip-portal/reservations/{id}/create-payment-intent',
  operationId: 'createSlipPortalPaymentIntent',
  ...portal,
  summary: 'A payment intent for the card element',
  description: `An unconfirmed card intent for \`amountCents\` (default: the balance) that the page confirms with the provider's card element; record it with POST .../pay \`{"paymentIntentId": ...}\`. Nothing is written here. Nothing owed: 409 \`nothing_to_bill\`. ${OWN}`,
  params: s.IdParams,
  body: s.IntentBody,
  ok: s.Intent,
  status: 201,
  errors: [404, 409],
});

export const guestPasses = route({
  method: 'get',
  path: '/slip-portal/reservations/{id}/guest-access',
  operationId: 'listSlipPortalGuestPasses',
  ...portal,
  summary: 'Guest passes of a reservation',
  description: `Newest first with their codes, windows and status. ${OWN}`,
  params: s.IdParams,
  query: s.PageQuery,
  ok: s.GuestPassList,
  errors: [404],
});

export const addGuestPass = route({
  method: 'post',
  path: '/slip-portal/reservations/{id}/guest-access',
  operationId: 'addSlipPortalGuestPass',
  ...portal,
  summary: 'Add a guest pass',
  description: `A pass for a guest of a live reservation (pending, confirmed, checked in): a random 8-character code of an unambiguous alphabet, a window within the stay (default: now until the departure day's check-out time), e-mailed to \`guestEmail\` when given. At most 10 active passes per reservation from the portal (409 \`guest_pass_limit\`). ${OWN}`,
  params: s.IdParams,
  body: s.GuestPassBody,
  ok: s.Pass,
  status: 201,
  errors: [404, 409],
});

export const revokeGuestPass = route({
  method: 'delete',
  path: '/slip-portal/reservations/{id}/guest-access/{guestId}',
  operationId: 'revokeSlipPortalGuestPass',
  ...portal,
  summary: 'Revoke a guest pass',
  description: `The pass stops working at once (the gate answers \`revoked\`); it stays listed. A pass of another reservation answers 404. ${OWN}`,
  params: s.GuestParams,
  ok: s.Pass,
  errors: [404],
});

export const haulServices = route({
  method: 'get',
  path: '/slip-portal/reservations/{id}/haul-services',
  operationId: 'listSlipPortalHaulServices',
  ...portal,
  summary: 'Haul services of a reservation',
  description: `Requested, scheduled (with date and price), confirmed, in progress, completed and cancelled services, newest first. ${OWN}`,
  params: s.IdParams,
  query: s.PageQuery,
  ok: s.PortalHaulList,
  errors: [404],
});

export const requestHaul = route({
  method: 'post',
  path: '/slip-portal/reservations/{id}/haul-services',
  operationId: 'requestSlipPortalHaulService',
  ...portal,
  summary: 'Request a haul service',
  description: `A haul out, launch, haul and hold, round trip or relocation of the reservation's boat on \`requestedDate\` (not in the past). It starts \`requested\`; the marina schedules it with a price, then the tenant confirms it (POST .../confirm). A reservation that ended answers 409. ${OWN}`,
  params: s.IdParams,
  body: s.HaulRequestBody,
  ok: s.PortalHaulService,
  status: 201,
  errors: [404, 409],
});

export const cancelHaul = route({
  method: 'post',
  path: '/slip-portal/reservations/{id}/haul-services/{serviceId}/cancel',
  operationId: 'cancelSlipPortalHaulService',
  ...portal,
  summary: 'Cancel a haul service request',
  description: `Before the work starts (requested, scheduled or confirmed; 409 once started); its lifts go back to the day. A service of another reservation answers 404. ${OWN}`,
  params: s.ServiceParams,
  body: s.CancelBody,
  ok: s.PortalHaulService,
  errors: [404, 409],
});

export const confirmHaul = route({
  method: 'post',
  path: '/slip-portal/reservations/{id}/haul-services/{serviceId}/confirm',
  operationId: 'confirmSlipPortalHaulService',
  ...portal,
  summary: 'Confirm a scheduled haul service',
  description: `The tenant accepts the date and price the marina scheduled: \`scheduled\` → \`confirmed\` (other states 409; confirming twice answers it unchanged). ${OWN}`,
  params: s.ServiceParams,
  body: s.ConfirmBody,
  ok: s.PortalHaulService,
  errors: [404, 409],
});
