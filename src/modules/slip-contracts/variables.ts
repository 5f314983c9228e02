/** The variables a contract template can use as `{{name}}`, with what they hold. */
export const TEMPLATE_VARIABLES: { name: string; description: string; example: string }[] = [
  { name: 'renter.firstName', description: "Renter's first name", example: 'Søren' },
  { name: 'renter.lastName', description: "Renter's last name", example: 'Ødegård' },
  { name: 'renter.fullName', description: "Renter's full name", example: 'Søren Ødegård' },
  { name: 'renter.email', description: "Renter's e-mail", example: 'soren@example.com' },
  { name: 'renter.phone', description: "Renter's phone", example: '+4712345678' },
  { name: 'vessel.name', description: 'Vessel name', example: 'Havfrue' },
  { name: 'vessel.loaFt', description: 'Length overall (feet)', example: '34' },
  { name: 'vessel.beamFt', description: 'Beam (feet)', example: '11.5' },
  { name: 'vessel.draftFt', description: 'Draft (feet)', example: '5' },
  { name: 'vessel.registration', description: 'Registration or documentation number', example: 'FL1234AB' },
  { name: 'vessel.make', description: 'Make', example: 'Hallberg-Rassy' },
  { name: 'vessel.model', description: 'Model', example: '340' },
  { name: 'vessel.year', description: 'Year built', example: '2015' },
  { name: 'slip.unitNumber', description: 'Unit number', example: 'A-12' },
  { name: 'slip.name', description: 'Unit name', example: 'Sunset' },
  { name: 'slip.section', description: 'Section (dock)', example: 'A Dock' },
  { name: 'slip.unitType', description: 'Unit type', example: 'slip' },
  { name: 'slip.lengthFt', description: 'Slip length (feet)', example: '40' },
  { name: 'reservation.number', description: 'Reservation number', example: 'SR-7KQ2M9X' },
  { name: 'reservation.rateType', description: 'nightly, monthly, seasonal or annual', example: 'seasonal' },
  { name: 'reservation.arrivalDate', description: 'Arrival date', example: 'Sat 1 May 2027' },
  { name: 'reservation.departureDate', description: 'Departure date', example: 'Mon 1 Nov 2027' },
  { name: 'reservation.nights', description: 'Nights', example: '184' },
  { name: 'reservation.ratePerFoot', description: 'Rate per foot', example: '$90.00' },
  { name: 'reservation.billableLengthFt', description: 'Billed length: max(LOA, slip length)', example: '40' },
  { name: 'reservation.total', description: 'Total', example: '$3,600.00' },
  { name: 'reservation.deposit', description: 'Deposit asked', example: '$500.00' },
  { name: 'reservation.balance', description: 'Balance', example: '$3,100.00' },
  { name: 'location.name', description: 'Marina location name', example: 'Demo Marina Miami' },
  { name: 'location.address', description: 'Location address', example: '401 Biscayne Blvd, Miami' },
  { name: 'location.phone', description: 'Location phone', example: '+13055550100' },
  { name: 'marina.name', description: "Operator's business name", example: 'Demo Marina LLC' },
  { name: 'settings.checkInTime', description: 'Check-in time', example: '14:00' },
  { name: 'settings.checkOutTime', description: 'Check-out time', example: '11:00' },
  { name: 'settings.cancellationPolicy', description: "The location's cancellation policy", example: 'Full refund up to 30 days before arrival.' },
  { name: 'contract.date', description: 'Date the contract was generated (at the location)', example: 'Fri 2 Apr 2027' },
];

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Replaces `{{name}}` with its value; unknown names render empty and are reported. */
export function render(text: string, values: Record<string, string>): { text: string; missing: string[] } {
  const missing = new Set<string>();
  const out = text.replace(PLACEHOLDER, (_m, name: string) => {
    const v = values[name];
    if (v === undefined || v === '') missing.add(name);
    return v ?? '';
  });
  return { text: out, missing: [...missing] };
}

export const placeholdersOf = (text: string) => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];
