import type { ErrorDetail } from '../../lib/errors';
import type { InventoryModel } from './model';
import { detail, invalid } from './errors';

// ---------------------------------------------------------------------------------------------
// Business rules of the model

/** Rules that need more than one field: kind-specific requirements and unique ids. Throws 400 with every problem. */
export function checkRules(data: InventoryModel, prefix = 'data'): void {
  const problems: ErrorDetail[] = [];
  const f = (path: string) => `${prefix}.${path}`;
  const assets = data.assets ?? [];
  if (data.type === 'tour') {
    if (data.capacity < 1) problems.push(detail(f('capacity'), 'a tour needs a capacity of at least 1 seat'));
    if (!data.timeSlots?.length) problems.push(detail(f('timeSlots'), 'a tour needs at least one time slot', 'required'));
    if (assets.length) problems.push(detail(f('assets'), 'tours are seat-based and have no assets; use capacity'));
  } else if (!assets.length) {
    problems.push(detail(f('assets'), 'a rental needs at least one asset (one per physical unit of the pool)', 'required'));
  }
  const seenIds = new Map<string, number>();
  const seenNames = new Map<string, number>();
  assets.forEach((a, i) => {
    if (a.assetId) {
      if (seenIds.has(a.assetId)) problems.push(detail(f(`assets.${i}.assetId`), `duplicate assetId (also at assets.${seenIds.get(a.assetId)})`));
      else seenIds.set(a.assetId, i);
    }
    const key = a.name.trim().toLowerCase();
    if (seenNames.has(key)) problems.push(detail(f(`assets.${i}.name`), `asset names must be unique within an item (also at assets.${seenNames.get(key)})`));
    else seenNames.set(key, i);
  });
  const addonIds = new Set<string>();
  data.addons.forEach((a, i) => {
    if (addonIds.has(a.addonId)) problems.push(detail(f(`addons.${i}.addonId`), 'duplicate addonId'));
    addonIds.add(a.addonId);
  });
  const slotKeys = new Set<string>();
  (data.timeSlots ?? []).forEach((s, i) => {
    const key = `${s.time}|${[...(s.weekdays ?? [])].sort().join(',')}`;
    if (slotKeys.has(key)) problems.push(detail(f(`timeSlots.${i}.time`), `duplicate time slot ${s.time}`));
    slotKeys.add(key);
  });
  if (problems.length) throw invalid(problems);
}

/** Maintenance blocks may only name assets of the item. */
export function checkBlockAssets(data: InventoryModel, assetIds: Set<string>, prefix = 'data'): void {
  const problems: ErrorDetail[] = [];
  data.maintenanceBlocks.forEach((b, i) =>
    (b.assetIds ?? []).forEach((id, j) => {
      if (!assetIds.has(id)) problems.push(detail(`${prefix}.maintenanceBlocks.${i}.assetIds.${j}`, `${id} is not an asset of this item`));
    }),
  );
  if (problems.length) throw invalid(problems);
}
