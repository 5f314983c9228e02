/** Public vocabulary of the marina settings (other marina modules read the effective settings through service.ts). */
export const RATE_TYPES = ['nightly', 'monthly', 'seasonal', 'annual'] as const;
export type RateType = (typeof RATE_TYPES)[number];

export const DEPOSIT_POLICIES = ['none', 'fixed', 'percent', 'first_night', 'first_month'] as const;
export type DepositPolicy = (typeof DEPOSIT_POLICIES)[number];

export interface ChargeLine {
  name: string;
  amountCents: number;
  /** stay: once; night: per night; month: per month of the stay (pro-rated by days); foot: per billable foot. */
  per: 'stay' | 'night' | 'month' | 'foot';
  taxable: boolean;
}

export interface SlipSettings {
  locationId: string;
  approvalRequired: boolean;
  deposit: { policy: DepositPolicy; amountCents: number; percent: number };
  requiredDocuments: string[];
  checkInTime: string;
  checkOutTime: string;
  clearances: { overhangAllowanceFt: number; sideClearanceFt: number; underKeelClearanceFt: number };
  billHoldHours: number;
  rates: { nightlyPerFootCents: number; monthlyPerFootCents: number; seasonalPerFootCents: number; annualPerFootCents: number };
  taxRatePercent: number;
  fees: ChargeLine[];
  utilities: ChargeLine[];
  defaultContractTemplateId: string | null;
  cancellationPolicy: string | null;
  /** How long a waitlist offer holds the unit for the renter's answer (hours). */
  waitlistOfferHoldHours: number;
  /** Lift operations (haul-outs, launches, relocations) the yard can do per local day; 0 = the lift is out of service. */
  dailyLiftCapacity: number;
  /** Metered utilities in cents per unit (decimals allowed: 32.5 cents per kWh); the charge is rounded to the cent. */
  utilityRates: UtilityRates;
  /** Haul service prices in cents per foot of LOA, by service type (the schedule can replace or add lines). */
  haulRates: HaulRates;
  /** Whether anonymous visitors may book and join the waitlist through /public/slips. */
  publicBookingEnabled: boolean;
  /** Rate types a public booking may choose (seasonal and annual terms usually go through the waitlist). */
  publicRateTypes: RateType[];
  /** Address of the tenant portal front end; magic links point at `{portalUrl}?token=...` (default: the API's own base URL). */
  portalUrl: string | null;
  isCustomized: boolean;
  updatedAt: string | null;
}

export interface UtilityRates {
  electricityPerKwhCents: number;
  waterPerGallonCents: number;
  /** Whether utility charges added from meter readings are taxed at the reservation's tax rate. */
  taxable: boolean;
}

export const HAUL_SERVICE_TYPES = ['haul_out', 'launch', 'haul_and_hold', 'round_trip', 'relocation'] as const;
export type HaulServiceType = (typeof HAUL_SERVICE_TYPES)[number];
export type HaulRates = Record<HaulServiceType, number>;

/** What a location gets until the operator changes it. */
export const DEFAULT_SLIP_SETTINGS: Omit<SlipSettings, 'locationId' | 'isCustomized' | 'updatedAt'> = {
  approvalRequired: true,
  deposit: { policy: 'none', amountCents: 0, percent: 0 },
  requiredDocuments: ['insurance', 'registration'],
  checkInTime: '14:00',
  checkOutTime: '11:00',
  clearances: { overhangAllowanceFt: 0, sideClearanceFt: 1, underKeelClearanceFt: 1 },
  billHoldHours: 48,
  rates: { nightlyPerFootCents: 350, monthlyPerFootCents: 2500, seasonalPerFootCents: 9000, annualPerFootCents: 16000 },
  taxRatePercent: 0,
  fees: [],
  utilities: [],
  defaultContractTemplateId: null,
  cancellationPolicy: null,
  waitlistOfferHoldHours: 72,
  dailyLiftCapacity: 6,
  utilityRates: { electricityPerKwhCents: 35, waterPerGallonCents: 2, taxable: false },
  haulRates: { haul_out: 1200, launch: 1200, haul_and_hold: 2000, round_trip: 2200, relocation: 800 },
  publicBookingEnabled: true,
  publicRateTypes: ['nightly', 'monthly'],
  portalUrl: null,
};
