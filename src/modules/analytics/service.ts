/**
 * The analytics module's face. Others use it for:
 * - revenue targets (the seed): setRevenueTarget.
 * Metrics, performance, year over year, realization, forecast and widget metrics are reached
 * through its router only.
 */
export { setRevenueTarget } from './targets';
