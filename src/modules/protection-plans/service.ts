/**
 * Protection plans: the shipped catalog (catalog.ts), location settings (settings.ts), catalog reads
 * (plans.ts) and the purchase of a plan for a booking (purchase.ts).
 */
export { listPlans, listBundles, getPlan, getBundle } from './plans';
export { getSettings, putSettings, togglePlan, setOverride } from './settings';
export { purchasePlan } from './purchase';
export { PLANS, BUNDLES, premiumOf } from './catalog';
