// The slip tenant portal's face. No other module calls it today: sign-in with a single-use magic link
// and tenant sessions (auth.ts), the tenant's reservations (queries.ts), reservation details, vessel,
// contract, documents and messages (reservation.ts), cards and payments (payments.ts), guest passes
// and haul services (passes.ts) are reached through its router only.
export {};
