// Fleet software: the entry point other code imports. link.ts (connection, mappings, token
// handling), reservations.ts (pass-through operations), sync.ts (a booking to the fleet system).
export { status, connect, disconnect, getMappings, setMappings } from './link';
export { inventoryTypes, products, findReservations, createReservation, updateReservation, cancelReservation, createInvoice } from './reservations';
export { syncBooking } from './sync';
