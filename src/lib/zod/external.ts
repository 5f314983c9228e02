/**
 * zod's classic API without its 63 translations of the error messages: a copy of the export list of
 * `zod/v4/classic/external.js` (zod 4.6.7) in which `locales` holds English only. English is zod's
 * default locale (`zod/v4/classic/schemas.js` registers it on the first schema), so every message
 * stays what it was. See index.ts for why, and test/core/zod-slim.test.ts for the check that this
 * list matches zod's.
 */
import en from 'zod/v4/locales/en.js';

export * as core from './core';
export * from '../../../node_modules/zod/v4/classic/schemas.js';
export * from '../../../node_modules/zod/v4/classic/checks.js';
export * from '../../../node_modules/zod/v4/classic/errors.js';
export * from '../../../node_modules/zod/v4/classic/parse.js';
export * from '../../../node_modules/zod/v4/classic/compat.js';
export type { infer, CompileOptions } from 'zod/v4/core';
export type { JSONType } from '../../../node_modules/zod/v4/core/util.js';
export {
  globalRegistry,
  type GlobalMeta,
  registry,
  config,
  memoizer,
  $output,
  $input,
  $brand,
  clone,
  regexes,
  treeifyError,
  prettifyError,
  formatError,
  flattenError,
  TimePrecision,
  util,
  NEVER,
  INVALID,
  toZod,
  compile,
  withParser,
  ZodCompileAsyncError,
  ZodCompileUnsupportedError,
  getDiscriminatedOption,
} from 'zod/v4/core';
export { toJSONSchema } from '../../../node_modules/zod/v4/core/json-schema-processors.js';
export { fromJSONSchema } from '../../../node_modules/zod/v4/classic/from-json-schema.js';
export { deepPartial } from '../../../node_modules/zod/v4/classic/deep-partial.js';
export { input, output } from '../../../node_modules/zod/v4/classic/in-out.js';
/** `z.locales`: English only (`z.config(z.locales.en())` works; no other locale ships in the Worker). */
export const locales = Object.freeze({ en });
export { ZodISODateTime, ZodISODate, ZodISOTime, ZodISODuration } from '../../../node_modules/zod/v4/classic/iso.js';
export * as iso from '../../../node_modules/zod/v4/classic/iso.js';
export type { ZodCoercedString, ZodCoercedNumber, ZodCoercedBigInt, ZodCoercedBoolean, ZodCoercedDate } from '../../../node_modules/zod/v4/classic/coerce.js';
export * as coerce from '../../../node_modules/zod/v4/classic/coerce.js';
