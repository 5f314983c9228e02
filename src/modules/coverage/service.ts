/**
 * The coverage module's face (embedded coverage, spec document 3). Other code uses it for:
 * - the widget's checkout with coverage: checkoutWithCoverage;
 * - the seed's sandbox offering: ensureSandboxCoverage;
 * - the question-schema guards (the coverage tests import them): sanitiseSchema, hasNestedQuantifier.
 */
export { checkoutWithCoverage } from './checkout';
export { ensureSandboxCoverage } from './sandbox';
export { sanitiseSchema, hasNestedQuantifier } from './questions';
