/**
 * Analytics services: metrics, inventory performance, year over year and revenue targets, the
 * realization of completed bookings' revenue, and the renter forecast. Every figure is computed
 * from the ledger and the bookings, point-of-sale and membership records (never from figures a
 * client sends), money in integer cents, days in each location's time zone.
 */
export { getMetrics } from './metrics';
export { getInventoryPerformance } from './performance';
export { getYearOverYear } from './year-over-year';
export { setRevenueTarget } from './targets';
export { realizeCompletedBookings } from './realize';
export { getForecast } from './forecast';
export { getWidgetMetrics } from './widget-metrics';
