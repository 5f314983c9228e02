/**
 * The sales module's face: `sell` and the types a sales path's policy is written with
 * (pipeline.ts). Every path that takes time out of inventory runs through it.
 */
export { sell, SALE_PHASES, type SaleJournal, type SalePhase, type SalePhaseFn, type SalePolicy } from './pipeline';
