-- Every change to an item's allocations (a sale, a hold, a drydock period, a release, a wipe)
-- bumps inventory_items.alloc_seq, so cached availability keyed by (version, alloc_seq) is never
-- served after the item's busy time changed, whichever path changed it.
CREATE TRIGGER allocations_seq_insert AFTER INSERT ON allocations
BEGIN
  UPDATE inventory_items SET alloc_seq = alloc_seq + 1 WHERE id = NEW.item_id;
END;
--> statement-breakpoint
CREATE TRIGGER allocations_seq_update AFTER UPDATE ON allocations
BEGIN
  UPDATE inventory_items SET alloc_seq = alloc_seq + 1 WHERE id = NEW.item_id;
END;
--> statement-breakpoint
CREATE TRIGGER allocations_seq_delete AFTER DELETE ON allocations
BEGIN
  UPDATE inventory_items SET alloc_seq = alloc_seq + 1 WHERE id = OLD.item_id;
END;
