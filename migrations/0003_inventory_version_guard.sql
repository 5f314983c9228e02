-- Optimistic concurrency for inventory items. `version` counts the writes of `data`; a writer
-- sets it to the version it read plus one. If another write landed in between, the new value is
-- not OLD.version + 1 and the whole D1 batch (item, assets, audit row) is rolled back; the writer
-- re-reads and retries, or answers 409 version_conflict. `SET version = version + 1` always passes;
-- updates that do not set `version` (display order, soft delete) are not affected.
CREATE TRIGGER inventory_items_version_guard
BEFORE UPDATE OF version ON inventory_items
WHEN NEW.version <> OLD.version + 1
BEGIN
  SELECT RAISE(ABORT, 'version_conflict: the inventory item was changed by another request');
END;
