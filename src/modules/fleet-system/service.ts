// Fleet software's face: what other modules may call, and today nothing outside calls it: the
// module plugs in through module.ts (its router). The logic lives beside it: link.ts (connection,
// mappings, token handling), reservations.ts (pass-through operations), sync.ts (a booking to the
// fleet system).
export {};
