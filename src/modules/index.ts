import type { Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import customers from './customers';
import users from './users';
import staffSchedule from './staff-schedule';
import locations from './locations';
import apiKeys from './api-keys';
import webhooks from './webhooks';
import outbox from './outbox';
import schedule from './schedule';
import deposits from './deposits';
import bookingEvents from './booking-events';
import publicBooking from './public-booking';
import renters from './renters';
import waiverNumbers from './waiver-numbers';
import waivers from './waivers';
import inventory from './inventory';
import boatRecords from './boat-records';
import channel from './channel';
import channelConnections from './channel-connections';
import availability from './availability';
import bookings from './bookings';
import holds from './holds';
import drydock from './drydock';
import waitlist from './waitlist';
import benchRoutes from './bench';
import { devRoutes } from '../seed/route';

/** Every module router, mounted once in app.ts. Add a module: one import and one entry. */
export const modules: Hono<AppEnv>[] = [
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
  benchRoutes,
  devRoutes,
];
