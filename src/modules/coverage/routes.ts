// The module's route declarations, one file per audience and sub-resource; this file is the entry point index.ts imports.
export * from './routes-offerings';
export * from './routes-review';
export * from './routes-enablements';
export * from './routes-checkout';
export * from './routes-policies';
export * from './routes-public';
export * from './routes-messages';
