/**
 * The renter-self-service module's face: the renter's self-service on a booking, without operator credentials. Other modules use it for:
 * - the widget's checkout (a renter session in the booking's commit): checkoutSessionStmt;
 * - reading a renter's booking (assistants, wallet passes): rentalById, asRenter, partySizeOf;
 * - cancellation eligibility (the assistant): eligibilityOf;
 * - the people of some bookings and their waivers, signed or missing (the daily manifest): waiversOfRentals.
 */
export { checkoutSessionStmt } from './sessions';
export { eligibilityOf } from './eligibility';
export { partySizeOf, waiversOfRentals } from './participants';
export { rentalById, asRenter } from './queries';
