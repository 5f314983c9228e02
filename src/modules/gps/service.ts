// GPS alerts' face: what other modules may call, and today nothing outside calls it: the module
// plugs in through module.ts (its router and the overdue sweep). The logic lives beside it: setup.ts
// (devices, home areas, settings), ingest.ts (position reports, crossings, auto-return), alerts.ts
// (firing, overdue sweep), queries.ts (reads), views.ts, geometry.ts.
export {};
