import type { ModuleDef } from '../lib/module';
import customers from './customers/module';
import users from './users/module';
import staffSchedule from './staff-schedule/module';
import locations from './locations/module';
import apiKeys from './api-keys/module';
import webhooks from './webhooks/module';
import outbox from './outbox/module';
import schedule from './schedule/module';
import deposits from './deposits/module';
import bookingEvents from './booking-events/module';
import publicBooking from './public-booking/module';
import renters from './renters/module';
import waiverNumbers from './waiver-numbers/module';
import waivers from './waivers/module';
import inventory from './inventory/module';
import boatRecords from './boat-records/module';
import channel from './channel/module';
import channelConnections from './channel-connections/module';
import availability from './availability/module';
import bookings from './bookings/module';
import holds from './holds/module';
import drydock from './drydock/module';
import waitlist from './waitlist/module';
import sandbox from './sandbox/module';
import calendarSync from './calendar-sync/module';
import structuredData from './structured-data/module';
import marketplace from './marketplace/module';
import accounting from './accounting/module';
import fleetSystem from './fleet-system/module';
import voice from './voice/module';
import gps from './gps/module';

/**
 * Every module of the API, in the order their routes are mounted. The app, the cron dispatcher,
 * the queue consumer and the hook runner all read this list. Add a module: one import, one entry.
 */
export const modules: ModuleDef[] = [
  customers,
  users,
  staffSchedule,
  locations,
  apiKeys,
  webhooks,
  outbox,
  schedule,
  deposits,
  bookingEvents,
  publicBooking,
  renters,
  waiverNumbers,
  waivers,
  inventory,
  boatRecords,
  channel,
  channelConnections,
  availability,
  bookings,
  holds,
  drydock,
  waitlist,
  sandbox,
  calendarSync,
  structuredData,
  marketplace,
  accounting,
  fleetSystem,
  voice,
  gps,
];
