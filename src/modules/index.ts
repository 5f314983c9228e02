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
import shortLinks from './short-links/module';
import communications from './communications/module';
import cartRecovery from './cart-recovery/module';
import marinaSettings from './marina-settings/module';
import marinaMaps from './marina-maps/module';
import slipReservations from './slip-reservations/module';
import slipContracts from './slip-contracts/module';
import slipWaitlist from './slip-waitlist/module';
import slipGuestAccess from './slip-guest-access/module';
import slipDocuments from './slip-documents/module';
import haulServices from './haul-services/module';
import meterReadings from './meter-readings/module';
import slipPortal from './slip-portal/module';
import publicSlips from './public-slips/module';
import slips from './slips/module';
import payments from './payments/module';
import promoCodes from './promo-codes/module';
import pos from './pos/module';
import protectionPlans from './protection-plans/module';
import memberships from './memberships/module';
import affiliates from './affiliates/module';
import partners from './partners/module';
import oauth from './oauth/module';
import gateway from './gateway/module';
import geofences from './geofences/module';
import assetPools from './asset-pools/module';
import partnerCalls from './partner-calls/module';
import octo from './octo/module';
import coverage from './coverage/module';
import calendarSync from './calendar-sync/module';
import structuredData from './structured-data/module';
import marketplace from './marketplace/module';
import accounting from './accounting/module';
import fleetSystem from './fleet-system/module';
import voice from './voice/module';
import gps from './gps/module';
import publicSettings from './public-settings/module';
import staffAvailability from './staff-availability/module';
import staffAssignments from './staff-assignments/module';
import manifests from './manifests/module';
import renterSelfService from './renter-self-service/module';
import walletPasses from './wallet-passes/module';
import assistants from './assistants/module';
import widget from './widget/module';
import analytics from './analytics/module';
import reports from './reports/module';
import aiHelpers from './ai-helpers/module';

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
  // Marina: slips last, because its GET /slips/{id} would otherwise catch the static /slips/... paths of the others.
  marinaSettings,
  marinaMaps,
  slipReservations,
  slipContracts,
  // Marina II: before slips too (/slips/waitlist, /slips/guest-access).
  slipWaitlist,
  slipGuestAccess,
  slipDocuments,
  haulServices,
  meterReadings,
  slipPortal,
  publicSlips,
  slips,
  sandbox,
  shortLinks,
  communications,
  cartRecovery,
  payments,
  promoCodes,
  pos,
  protectionPlans,
  memberships,
  affiliates,
  partners,
  oauth,
  gateway,
  geofences,
  assetPools,
  partnerCalls,
  octo,
  coverage,
  calendarSync,
  structuredData,
  marketplace,
  accounting,
  fleetSystem,
  voice,
  gps,
  publicSettings,
  staffAvailability,
  staffAssignments,
  manifests,
  renterSelfService,
  walletPasses,
  assistants,
  widget,
  analytics,
  reports,
  aiHelpers,
];
