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
  isCustomized: boolean;
  updatedAt: string | null;
}

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
};
