import type { BoatDimensions, FitRefusal } from './types';

export interface FitUnit {
  maxLoaFt: number | null;
  lengthFt: number | null;
  widthFt: number | null;
  depthFt: number | null;
  overheadClearanceFt: number | null;
}

export interface Clearances {
  overhangAllowanceFt: number;
  sideClearanceFt: number;
  underKeelClearanceFt: number;
}

/** Feet to two decimals, computed in hundredths so 30.1 + 2 × 1.2 compares exactly. */
const hundredths = (ft: number) => Math.round(ft * 100);
const feet = (h: number) => h / 100;

/**
 * The fit rules: LOA ≤ max LOA (the unit's length when it has no max LOA) + overhang allowance;
 * beam + 2 × side clearance ≤ width; draft + under-keel clearance ≤ depth at low water; air draft ≤
 * overhead clearance. Equality fits. A dimension the unit or the boat does not give is not checked.
 * Answers every dimension that fails, with what is needed, what is offered and the shortfall.
 */
export function fitUnit(unit: FitUnit, boat: BoatDimensions, c: Clearances): FitRefusal[] {
  const out: FitRefusal[] = [];
  const check = (dimension: FitRefusal['dimension'], need: number, have: number, what: string) => {
    if (need > have) {
      const short = feet(need - have);
      out.push({
        dimension,
        requiredFt: feet(need),
        availableFt: feet(have),
        shortByFt: short,
        message: `${what}: needs ${feet(need)} ft, the unit offers ${feet(have)} ft (${short} ft short)`,
      });
    }
  };
  const maxLoa = unit.maxLoaFt ?? unit.lengthFt;
  if (maxLoa != null) check('length', hundredths(boat.loaFt), hundredths(maxLoa) + hundredths(c.overhangAllowanceFt), 'Length overall');
  if (unit.widthFt != null && boat.beamFt != null)
    check('beam', hundredths(boat.beamFt) + 2 * hundredths(c.sideClearanceFt), hundredths(unit.widthFt), 'Beam with side clearance');
  if (unit.depthFt != null && boat.draftFt != null)
    check('draft', hundredths(boat.draftFt) + hundredths(c.underKeelClearanceFt), hundredths(unit.depthFt), 'Draft with under-keel clearance');
  if (unit.overheadClearanceFt != null && boat.airDraftFt != null)
    check('air_draft', hundredths(boat.airDraftFt), hundredths(unit.overheadClearanceFt), 'Air draft');
  return out;
}
