// GPS alerts: the entry point other code imports. setup.ts (devices, geofences, settings),
// ingest.ts (position reports, crossings, auto-return), alerts.ts (alerts, overdue sweep, reads),
// rentals.ts (the one place that uses the booking service), geometry.ts.
export { createDevice, listDevices, deleteDevice, createGeofence, listGeofences, deleteGeofence, getSettings, updateSettings } from './setup';
export { ingest, CONFIRMING_FIXES } from './ingest';
export { listAlerts, deviceAlerts, alertSummary, overdueSweep } from './alerts';
