import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Public'];

export const passA = route({
  method: 'get',
  path: '/public/bookings/{rentalId}/wallet-pass-a',
  operationId: 'getWalletPass',
  tags,
  access: 'public',
  summary: 'Pass data of a booking with its check-in QR code',
  params: s.RentalParams,
  ok: s.PassData,
  errors: [404],
  description: `What the booking's pass shows (item, local date and times labelled with the location's zone, location, the renter's first name and
last initial, party size) and its QR code: an SVG (made with the uqr library) encoding the signed check-in code (HMAC-SHA256, valid until a day after
the booking ends) that the operator's POST /coreBooking/check-in/scan accepts. \`download\` says whether the Apple Wallet file can be built here. A
cancelled or unknown booking: 404. No credentials needed (the rental id is the secret).`,
});

export const passADownload = route({
  method: 'get',
  path: '/public/bookings/{rentalId}/wallet-pass-a/download',
  operationId: 'downloadWalletPass',
  tags,
  access: 'public',
  summary: 'The Apple Wallet pass file (.pkpass) of a booking',
  params: s.RentalParams,
  produces: 'application/vnd.apple.pkpass',
  errors: [404],
  description: `A signed \`.pkpass\` (zip of pass.json, icons, manifest.json and a detached PKCS #7 signature of the manifest with the pass type
certificate, carrying Apple's WWDR certificate). Needs APPLE_PASS_CERT_PEM, APPLE_PASS_KEY_PEM (unencrypted PKCS #8), APPLE_WWDR_CERT_PEM,
APPLE_PASS_TYPE_ID and APPLE_TEAM_ID on the deployment; without them the answer is **501** \`wallet_pass_not_configured\`, as the spec says. A
cancelled or unknown booking: 404. No credentials needed.`,
});

export const passB = route({
  method: 'get',
  path: '/public/bookings/{rentalId}/wallet-pass-b',
  operationId: 'getWalletSaveLink',
  tags,
  access: 'public',
  summary: 'A link that saves the booking pass to a wallet',
  params: s.RentalParams,
  ok: s.SaveLink,
  errors: [404],
  description: `With GOOGLE_WALLET_ISSUER_ID, GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL and GOOGLE_WALLET_PRIVATE_KEY_PEM configured: the Google Wallet save
link \`https://pay.google.com/gp/v/save/<JWT>\`, the JWT signed (RS256) with the service account key and carrying the pass (a generic object with
the QR code). Otherwise Berth's own pass page (\`/widget?pass=<rentalId>\`, the QR code and the booking, ready to save or print). A cancelled or
unknown booking: 404. No credentials needed.`,
});

export const scan = route({
  method: 'post',
  path: '/coreBooking/check-in/scan',
  operationId: 'checkInByPassCode',
  tags: ['Bookings'],
  summary: "Check a booking in by scanning its pass's QR code",
  body: s.ScanBody,
  ok: s.ScanResult,
  errors: [403, 404, 409],
  description: `\`token\`: the text of the QR code of the booking's pass (wallet-pass-a, wallet-pass-b or the widget's confirmation). A code that is
not a valid, unexpired Berth check-in code answers 400 \`invalid_pass_token\`; a booking of another operator 404. The booking moves confirmed ->
checked_in through the booking lifecycle (\`booking.checked_in\`); one already checked in answers 200 with \`alreadyCheckedIn: true\`; a pending,
cancelled or no-show booking 409 \`invalid_state\`. Needs the \`bookings\` permission.`,
});

export const calendar = route({
  method: 'get',
  path: '/public/bookings/{rentalId}/calendar.ics',
  operationId: 'downloadBookingCalendarEvent',
  tags,
  access: 'public',
  summary: 'The booking as a calendar event (.ics)',
  params: s.RentalParams,
  produces: 'text/calendar',
  errors: [404],
  description: `An iCalendar (RFC 5545) event for "add to calendar": start and end as UTC instants (calendars show them in the viewer's zone; the
description repeats them in the location's zone, labelled), the location, the booking reference, a link to the pass and a reminder a day before. A
cancelled or unknown booking: 404. No credentials needed.`,
});
