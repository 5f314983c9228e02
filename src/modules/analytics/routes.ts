import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Analytics'];

const LOCATIONS = `\`locationIds\` are the caller's locations (comma-separated, at most 50, one currency); an id that is not one of them answers 404.
Needs the \`analytics\` permission (admins and managers have it).`;

export const getMetrics = route({
  method: 'get',
  path: '/analytics/metrics',
  operationId: 'getAnalyticsMetrics',
  tags,
  summary: 'Revenue, tax, tips, discounts and booking counts with a daily breakdown',
  query: s.MetricsQuery,
  ok: s.Metrics,
  errors: [403, 404],
  description: `Figures of the local days \`startDate\` to \`endDate\` (inclusive, at most 731 days), each location counted over its own days in its
own time zone (23 or 25 hours on DST changes): totals, one row per date (\`daily\`, every date of the range, zeros included) and per location.

Everything comes from the records, never from the client: money from the ledger (signed cents). \`revenueCents\` is the revenue every report
shows (year-over-year's for the same days is the same figure): the money kept, that is sales (rentals and add-ons, point of sale, slips, others)
less discounts, plus cancellation fees kept (\`cancellationFeesCents\`), protection plan and coverage premiums (\`premiumsCents\`) and
security deposits captured (\`depositCapturesCents\`), net of cancellations (their reversals) and of refunds: a point-of-sale refund takes
its share of the sale's revenue, discount and tax off the day it is given (a full refund leaves nothing of the sale). It is split by kind (booking,
pos, slip, other); \`grossRevenueCents\` is it before discounts and \`netRevenueCents\` repeats it. \`discountsCents\`, \`refundsCents\`
(money given back) and \`paymentsCents\` are positive; \`realizedRevenueCents\` is the revenue of rentals realized in the period;
\`deferredRevenueCents\` the net revenue of the period's rentals that are not realized yet. Booking counts come from the bookings by their local start
date (\`bookingCount\` excludes cancelled ones; \`renters\` counts participants, else quantity), \`posSales\` from the point-of-sale
transactions. Sandbox (test-mode) channel bookings are left out. \`memberships\` is the account's membership revenue, from the ledger like the rest:
invoice charges less proration credits, net of refunds (memberships belong to the account, not to a location, so it is apart from the
locations' figures), over the requested days in the first location's time zone; \`invoicesPaid\` and \`newMemberships\` count the invoices paid.

${LOCATIONS}`,
});

export const getInventoryPerformance = route({
  method: 'get',
  path: '/analytics/inventory-performance',
  operationId: 'getInventoryPerformance',
  tags,
  summary: 'Top items and assets by revenue',
  query: s.PerformanceQuery,
  ok: s.InventoryPerformance,
  errors: [403, 404],
  description: `The inventory items and assets that earned most over the local days \`startDate\` to \`endDate\`, by the revenue of their rentals
from the ledger (as metrics counts it: less discounts, with the fees kept, premiums and deposit captures, cancellations reversed; \`rentalRevenueCents\`
is metrics' \`bookingRevenueCents\` for the same days), with their bookings and hours booked (bookings not cancelled, by their local start
date) and the share of the period's rental revenue; and the best-selling point-of-sale products. \`limit\` rows per list (default 10, at most 100). A booking's
asset is its first asset. ${LOCATIONS}`,
});

export const getYearOverYear = route({
  method: 'get',
  path: '/analytics/year-over-year',
  operationId: 'getYearOverYear',
  tags,
  summary: 'Monthly revenue, this year against the year before',
  query: s.YearOverYearQuery,
  ok: s.YearOverYear,
  errors: [403, 404],
  description: `Revenue (the same figure as metrics' \`revenueCents\`: the money kept, net of cancellations and refunds; from the ledger: rentals,
point of sale, slips and others) of each month of \`currentYear\`
(default: this year in the first location's time zone) and of the year before, each location's months in its own time zone. \`totals\` compares
the two years, with each location's \`previousYearRevenueOverride\` (see \`PATCH /analytics/revenue-target\`) in place of its own ledger figure
when one is set; \`target\` sums the locations' revenue targets of \`currentYear\` and the progress toward them. ${LOCATIONS}`,
});

export const setRevenueTarget = route({
  method: 'patch',
  path: '/analytics/revenue-target',
  operationId: 'setRevenueTarget',
  tags,
  summary: "Set a location's revenue target and previous-year revenue",
  body: s.RevenueTargetBody,
  ok: s.RevenueTarget,
  errors: [403, 404],
  description: `Sets the fields given for \`locationId\` and \`year\` (default: this year in the location's time zone): \`revenueTarget\`, the
revenue target of the year, and \`previousYearRevenueOverride\`, the previous year's revenue to compare with (for history from before Berth). Both
are dollars and must be positive (400 otherwise); \`null\` clears one; neither given answers 400 \`no_changes\`. An unknown location or another
operator's answers 404. Needs the \`analytics\` permission. Answers the stored values, in dollars and cents.`,
});

export const realizeCompletedBookings = route({
  method: 'post',
  path: '/analytics/realize-completed-bookings',
  operationId: 'realizeCompletedBookings',
  tags,
  summary: "Move completed bookings' deferred revenue to realized",
  body: s.RealizeBody,
  ok: s.RealizeResult,
  errors: [403, 404],
  description: `A rental's revenue is deferred until the rental is completed (checked out). This realizes every completed rental of
\`locationIds\` (default: all the caller's locations) not realized yet: one \`revenue_realized\` memo entry in the ledger per rental, with its net
revenue (revenue less discounts), dated when it was checked out; balances do not change. Idempotent: a rental is realized once, ever, and
parallel calls share the work (their counts add up to the number of rentals). \`dryRun: true\` changes nothing and answers only \`count\`. A
location that is not the caller's answers 404. Needs the \`analytics\` permission.`,
});

export const getWidgetMetrics = route({
  method: 'get',
  path: '/analytics/widget-metrics',
  operationId: 'getWidgetMetrics',
  tags,
  summary: "The booking widget's funnel, heatmap, daily engagement, sources and top products",
  query: s.WidgetMetricsQuery,
  ok: s.WidgetMetrics,
  errors: [403, 404],
  description: `From the events the booking widget recorded (\`POST /public/widget/events\` and its checkout): the funnel (visits that viewed,
chose a date, chose a time, reached checkout and booked, each as a share of the viewing visits, plus visits that joined a waitlist), an
hour-by-weekday heatmap of views (Monday first, each location's local time), daily engagement (visits, views, bookings and conversion per local
date, every date of the range), the embedding sites and affiliate codes that brought visits and bookings (top 20), and the top 10 items (views,
checkouts, bookings). A visit is the widget's random visit id; an event belongs to its location, else to its item's location. \`locationIds\` are the
caller's locations (comma-separated, at most 50); an id that is not one of them answers 404. Needs the \`analytics\` permission.`,
});

export const getForecast = route({
  method: 'get',
  path: '/forecast',
  operationId: 'getForecast',
  tags,
  summary: 'Predicted daily renter counts for the next 7 or 14 days',
  query: s.ForecastQuery,
  ok: s.Forecast,
  errors: [403, 404],
  description: `Predicts how many renters (\`units=renters\`, default: participants, else quantity) or bookings (\`units=bookings\`) each of the
next \`days\` (7 or 14; 400 otherwise) local days will have, from the location's own history of the last 16 weeks (bookings not cancelled).
Days are counted in \`timezone\` (default: the location's).

Method: with 21 days of history or more, additive Holt-Winters with a weekly season and no trend (level and weekday effects smoothed with alpha
and gamma, the pair of a fixed grid with the least one-day-ahead squared error); with less, the mean of the same weekday (\`weekday_mean\`);
with none, \`no_history\`. Each day answers \`predicted\` (never below \`booked\`, what is booked already) and the 80% interval \`low\`-\`high\`
(+/- 1.2816 sigma sqrt(1 + (h - 1) alpha^2), sigma the one-day-ahead errors' standard deviation). The answer names the method, its parameters
and the weekday effects. An unknown location or another operator's answers 404. Needs the \`analytics\` permission.`,
});
