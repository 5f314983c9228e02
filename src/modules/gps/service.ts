// GPS alerts: the entry point other code imports. setup.ts (devices, home areas, settings),
// ingest.ts (position reports, crossings, auto-return), alerts.ts (firing, overdue sweep),
// queries.ts (reads), views.ts, geometry.ts.
export { createDevice, deleteDevice, setHomeArea, deleteHomeArea, getSettings, updateSettings } from './setup';
export { listDevices, listHomeAreas, listAlerts, deviceAlerts, alertSummary } from './queries';
export { ingest, CONFIRMING_FIXES } from './ingest';
export { overdueSweep, nextOverdueDue } from './alerts';
