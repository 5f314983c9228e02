import { and, eq } from 'drizzle-orm';
import { MIAMI_TZ, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { todayIn } from '../lib/clock';
import { addDays } from '../lib/time';
import { slips } from '../db/schema/slips';
import { updateSlipSettings } from '../modules/marina-settings/service';
import { bulkCreateSlips, createCheckout, slipRowsOfLocation, subscriptionStatus } from '../modules/slips/service';
import { batchPins, createMap } from '../modules/marina-maps/service';
import { confirmReservation, createReservation, sendBill } from '../modules/slip-reservations/service';
import { createTemplate, generateContract } from '../modules/slip-contracts/service';

/** The demo contract template (every location; default). */
export const DEMO_CONTRACT_BODY = `This slip license agreement is made between {{marina.name}} ("the Marina") and {{renter.fullName}} ("the Licensee") for the vessel {{vessel.name}} (length overall {{vessel.loaFt}} ft, registration {{vessel.registration}}).

1. Slip. The Marina licenses slip {{slip.unitNumber}} ({{slip.section}}) at {{location.name}}, {{location.address}}, from {{reservation.arrivalDate}} to {{reservation.departureDate}} ({{reservation.rateType}}). Check-in from {{settings.checkInTime}}, check-out by {{settings.checkOutTime}}.

2. Fees. The Licensee pays {{reservation.ratePerFoot}} per foot for {{reservation.billableLengthFt}} ft, a total of {{reservation.total}} including fees, utilities and tax. A deposit of {{reservation.deposit}} is due on booking.

3. Insurance. The Licensee keeps liability insurance of at least {{insuranceMinimum}} for the vessel and names the Marina as additional insured.

4. Rules. The Licensee follows the marina rules, keeps the vessel seaworthy and moves it when the dock master asks.

5. Cancellation. {{settings.cancellationPolicy}}`;

/**
 * The operator's marina at Miami: slip settings, 42 slips in three docks on a map, the contract
 * template, and reservations from the clock's Miami date: a transient stay from 3 days ahead
 * (confirmed), a billed one 10 days ahead, a monthly one from tomorrow, and the next winter season
 * (from the next 1 November) with its contract.
 */
async function seedMarina(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const exists = await db
    .select({ id: slips.id })
    .from(slips)
    .where(and(eq(slips.customerId, op.customerId), eq(slips.locationId, op.miamiId), eq(slips.unitNumber, 'A-01')))
    .get();
  if (exists) return false;
  const base = ctx.env.PUBLIC_BASE_URL?.replace(/\/$/, '') ?? 'http://127.0.0.1:8787';
  if (!(await subscriptionStatus(ctx)).active) await createCheckout(ctx, { quota: 50 }, base);

  await updateSlipSettings(ctx, op.miamiId, SLIP_SETTINGS);
  await seedDocks(ctx, op);
  const units = await slipRowsOfLocation(ctx, { locationId: op.miamiId });
  await Promise.all([seedMap(ctx, op, units), seedStays(ctx, units, seedContractTemplate(ctx))]);
  return true;
}

const SLIP_SETTINGS: Parameters<typeof updateSlipSettings>[2] = {
  approvalRequired: true,
  deposit: { policy: 'percent', percent: 25 },
  clearances: { overhangAllowanceFt: 1, sideClearanceFt: 1, underKeelClearanceFt: 1 },
  rates: { nightlyPerFootCents: 450, monthlyPerFootCents: 3200, seasonalPerFootCents: 14500, annualPerFootCents: 26000 },
  taxRatePercent: 7,
  utilities: [{ name: 'Shore power', amountCents: 1200, per: 'night', taxable: true }],
  fees: [{ name: 'Pump-out and waste', amountCents: 2500, per: 'stay', taxable: true }],
  cancellationPolicy: 'Full refund of the deposit up to 14 days before arrival; no refund after arrival.',
};

/** 42 units in three docks of different sizes. */
async function seedDocks(ctx: Ctx, op: DemoOperator) {
  const docks = [
    { prefix: 'A-', end: 16, section: 'A Dock', lengthFt: 30, widthFt: 12, depthFt: 7, power: { amps: [30], volts: 120, phase: 'single' as const } },
    { prefix: 'B-', end: 16, section: 'B Dock', lengthFt: 45, widthFt: 16, depthFt: 9, power: { amps: [30, 50], volts: 240, phase: 'single' as const } },
    {
      prefix: 'C-',
      end: 10,
      section: 'C Dock (T-heads)',
      lengthFt: 80,
      widthFt: 26,
      depthFt: 12,
      power: { amps: [50, 100], volts: 240, phase: 'three' as const },
    },
  ];
  await Promise.all(
    docks.map((d) =>
      bulkCreateSlips(ctx, {
        locationId: op.miamiId,
        prefix: d.prefix,
        start: 1,
        end: d.end,
        padding: 2,
        section: d.section,
        unitType: 'slip',
        lengthFt: d.lengthFt,
        widthFt: d.widthFt,
        depthFt: d.depthFt,
        power: d.power,
        water: true,
        amenities: ['wifi', 'pump-out'],
      }),
    ),
  );
}

type Unit = Awaited<ReturnType<typeof slipRowsOfLocation>>[number];

/** The docks' map with a pin per unit. */
async function seedMap(ctx: Ctx, op: DemoOperator, units: Unit[]) {
  const map = await createMap(ctx, {
    locationId: op.miamiId,
    name: 'Miami docks',
    imageUrl: 'https://example.com/maps/miami-docks.png',
    imageWidth: 1600,
    imageHeight: 900,
  });
  const pins = units.map((u) => {
    const [dock, num] = u.unitNumber.split('-');
    const row = { A: 20, B: 50, C: 80 }[dock] ?? 50;
    const i = Number(num);
    return { slipId: u.id, x: Math.min(95, 5 + i * 5.5), y: row + (i % 2 ? -4 : 4), rotation: i % 2 ? 0 : 180 };
  });
  await batchPins(ctx, { mapId: map.mapId, pins, remove: [] });
}

/** The default contract template of every location. */
function seedContractTemplate(ctx: Ctx) {
  return createTemplate(ctx, {
    name: 'Slip license agreement',
    description: 'Standard agreement for transient, monthly and seasonal slips.',
    title: 'Slip license agreement {{reservation.number}}',
    body: DEMO_CONTRACT_BODY,
    rateTypes: [],
    defaults: { insuranceMinimum: '$300,000' },
    isDefault: true,
  });
}

/**
 * The four stays, each its own slip, side by side; the seasonal one's contract waits for the template.
 */
async function seedStays(ctx: Ctx, units: Unit[], template: Promise<unknown>) {
  const byNumber = new Map(units.map((u) => [u.unitNumber, u]));
  const today = todayIn(ctx, MIAMI_TZ);
  const [y] = today.split('-').map(Number);
  const seasonStart = `${today >= `${y}-11-01` ? y + 1 : y}-11-01`;
  const seasonEnd = `${Number(seasonStart.slice(0, 4)) + 1}-05-01`;
  const transientStay = async () => {
    const transient = await createReservation(ctx, {
      slipId: byNumber.get('A-03')!.id,
      rateType: 'nightly',
      arrivalDate: addDays(today, 3),
      departureDate: addDays(today, 6),
      boat: { vesselName: 'Zoë', loaFt: 28, beamFt: 9.5, draftFt: 3.5, registration: 'FL4421ZM', make: 'Grady-White', model: 'Freedom 285' },
      renter: { firstName: 'Zoë', lastName: 'Martin', email: 'zoe.martin@renter.test', phone: '+13055550177' },
      status: 'pending',
      overrideFit: false,
    });
    await confirmReservation(ctx, transient.id, {});
  };
  const billedStay = async () => {
    const billed = await createReservation(ctx, {
      slipId: byNumber.get('B-07')!.id,
      rateType: 'nightly',
      arrivalDate: addDays(today, 10),
      departureDate: addDays(today, 12),
      boat: { vesselName: 'Blue Heron', loaFt: 41, beamFt: 13.5, draftFt: 5, registration: 'FL9081BH' },
      renter: { firstName: 'Marcus', lastName: 'Reyes', email: 'marcus.reyes@renter.test', phone: '+13055550188' },
      status: 'pending',
      overrideFit: false,
    });
    await sendBill(ctx, billed.id, { channel: 'email' });
  };
  const seasonalStay = async () => {
    const seasonal = await createReservation(ctx, {
      slipId: byNumber.get('C-02')!.id,
      rateType: 'seasonal',
      arrivalDate: seasonStart,
      departureDate: seasonEnd,
      boat: { vesselName: 'Havfrue', loaFt: 62, beamFt: 17, draftFt: 6.5, airDraftFt: 24, registration: 'NO-HAV-62', make: 'Hallberg-Rassy', model: '64' },
      renter: { firstName: 'Søren', lastName: 'Ødegård', email: 'soren.odegard@renter.test', phone: '+4791234567' },
      status: 'confirmed',
      overrideFit: false,
    });
    await template;
    await generateContract(ctx, { reservationId: seasonal.id });
  };
  const monthly = createReservation(ctx, {
    slipId: byNumber.get('B-12')!.id,
    rateType: 'monthly',
    arrivalDate: addDays(today, 1),
    departureDate: addDays(today, 62),
    boat: { vesselName: 'Salty Dog', loaFt: 38, beamFt: 12.5, draftFt: 4.5, registration: 'FL7733SD' },
    renter: { firstName: 'Priya', lastName: 'Nair', email: 'priya.nair@renter.test' },
    status: 'confirmed',
    overrideFit: false,
  });
  await Promise.all([transientStay(), billedStay(), seasonalStay(), monthly]);
}

export const marinaSeed: OperatorSeedStep = { name: 'marina', run: seedMarina };
