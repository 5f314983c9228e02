-- Database-level backstop against double sales: even if a writer bypassed the item's lock object,
-- an overlapping active allocation of the same asset, or seats beyond the slot's capacity, abort
-- the whole D1 batch. Expired holds (expires_at in the past) no longer count.
CREATE TRIGGER allocations_asset_overlap_insert
BEFORE INSERT ON allocations
WHEN NEW.active = 1 AND NEW.asset_id IS NOT NULL AND EXISTS (
  SELECT 1 FROM allocations a
  WHERE a.asset_id = NEW.asset_id AND a.active = 1
    AND a.blocked_start < NEW.blocked_end AND NEW.blocked_start < a.blocked_end
    AND (a.expires_at IS NULL OR a.expires_at > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
)
BEGIN
  SELECT RAISE(ABORT, 'allocation_conflict: asset already allocated for this time');
END;
--> statement-breakpoint
CREATE TRIGGER allocations_asset_overlap_update
BEFORE UPDATE OF active, asset_id, blocked_start, blocked_end ON allocations
WHEN NEW.active = 1 AND NEW.asset_id IS NOT NULL AND EXISTS (
  SELECT 1 FROM allocations a
  WHERE a.id != NEW.id AND a.asset_id = NEW.asset_id AND a.active = 1
    AND a.blocked_start < NEW.blocked_end AND NEW.blocked_start < a.blocked_end
    AND (a.expires_at IS NULL OR a.expires_at > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
)
BEGIN
  SELECT RAISE(ABORT, 'allocation_conflict: asset already allocated for this time');
END;
--> statement-breakpoint
CREATE TRIGGER allocations_seat_capacity_insert
BEFORE INSERT ON allocations
WHEN NEW.active = 1 AND NEW.asset_id IS NULL AND NEW.capacity IS NOT NULL AND (
  SELECT COALESCE(SUM(a.seats), 0) FROM allocations a
  WHERE a.item_id = NEW.item_id AND a.asset_id IS NULL AND a.active = 1 AND a.start = NEW.start
    AND (a.expires_at IS NULL OR a.expires_at > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
) + NEW.seats > NEW.capacity
BEGIN
  SELECT RAISE(ABORT, 'allocation_conflict: seats exceed the capacity of this departure');
END;
