export * from './accounts';
export * from './locations';
export * from './events';
export * from './payments';
export * from './inventory';
export * from './bookings';
export * from './waivers';
export * from './channel';
