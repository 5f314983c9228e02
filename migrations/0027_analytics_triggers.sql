-- Monthly ledger totals (analytics_ledger_months) kept by triggers on ledger_entries, whichever
-- module writes the journal: an insert adds the entry, a delete subtracts it, an update moves it
-- (subtracts the old row, adds the new). Counted: entries with a location, not soft-deleted, and
-- not of a test-mode (sandbox channel) booking. The kind expression is the one of
-- src/modules/analytics/ledger-sql.ts (KIND_SQL); keep them identical.
CREATE TRIGGER analytics_ledger_insert AFTER INSERT ON ledger_entries
WHEN NEW.location_id IS NOT NULL AND NEW.deleted_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM bookings WHERE bookings.id = NEW.rental_id AND bookings.test_mode = 1)
BEGIN
  INSERT INTO analytics_ledger_months (location_id, month, kind, entry_type, customer_id, amount, entries)
  VALUES (
    NEW.location_id, substr(NEW.occurred_at, 1, 7),
    CASE WHEN NEW.rental_id IS NOT NULL THEN 'booking' WHEN NEW.source = 'pos' THEN 'pos' WHEN NEW.source = 'slip' THEN 'slip' ELSE 'other' END,
    NEW.entry_type, NEW.customer_id, NEW.amount, 1
  )
  ON CONFLICT (location_id, month, kind, entry_type) DO UPDATE SET amount = amount + excluded.amount, entries = entries + 1;
END;
--> statement-breakpoint
CREATE TRIGGER analytics_ledger_delete AFTER DELETE ON ledger_entries
WHEN OLD.location_id IS NOT NULL AND OLD.deleted_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM bookings WHERE bookings.id = OLD.rental_id AND bookings.test_mode = 1)
BEGIN
  INSERT INTO analytics_ledger_months (location_id, month, kind, entry_type, customer_id, amount, entries)
  VALUES (
    OLD.location_id, substr(OLD.occurred_at, 1, 7),
    CASE WHEN OLD.rental_id IS NOT NULL THEN 'booking' WHEN OLD.source = 'pos' THEN 'pos' WHEN OLD.source = 'slip' THEN 'slip' ELSE 'other' END,
    OLD.entry_type, OLD.customer_id, -OLD.amount, -1
  )
  ON CONFLICT (location_id, month, kind, entry_type) DO UPDATE SET amount = amount + excluded.amount, entries = entries - 1;
END;
--> statement-breakpoint
CREATE TRIGGER analytics_ledger_update AFTER UPDATE OF location_id, occurred_at, entry_type, amount, source, rental_id, deleted_at, customer_id ON ledger_entries
BEGIN
  INSERT INTO analytics_ledger_months (location_id, month, kind, entry_type, customer_id, amount, entries)
  SELECT
    OLD.location_id, substr(OLD.occurred_at, 1, 7),
    CASE WHEN OLD.rental_id IS NOT NULL THEN 'booking' WHEN OLD.source = 'pos' THEN 'pos' WHEN OLD.source = 'slip' THEN 'slip' ELSE 'other' END,
    OLD.entry_type, OLD.customer_id, -OLD.amount, -1
  WHERE OLD.location_id IS NOT NULL AND OLD.deleted_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM bookings WHERE bookings.id = OLD.rental_id AND bookings.test_mode = 1)
  ON CONFLICT (location_id, month, kind, entry_type) DO UPDATE SET amount = amount + excluded.amount, entries = entries - 1;
  INSERT INTO analytics_ledger_months (location_id, month, kind, entry_type, customer_id, amount, entries)
  SELECT
    NEW.location_id, substr(NEW.occurred_at, 1, 7),
    CASE WHEN NEW.rental_id IS NOT NULL THEN 'booking' WHEN NEW.source = 'pos' THEN 'pos' WHEN NEW.source = 'slip' THEN 'slip' ELSE 'other' END,
    NEW.entry_type, NEW.customer_id, NEW.amount, 1
  WHERE NEW.location_id IS NOT NULL AND NEW.deleted_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM bookings WHERE bookings.id = NEW.rental_id AND bookings.test_mode = 1)
  ON CONFLICT (location_id, month, kind, entry_type) DO UPDATE SET amount = amount + excluded.amount, entries = entries + 1;
END;
--> statement-breakpoint
-- The journal written before these triggers existed.
INSERT INTO analytics_ledger_months (location_id, month, kind, entry_type, customer_id, amount, entries)
SELECT
  l.location_id, substr(l.occurred_at, 1, 7),
  CASE WHEN l.rental_id IS NOT NULL THEN 'booking' WHEN l.source = 'pos' THEN 'pos' WHEN l.source = 'slip' THEN 'slip' ELSE 'other' END,
  l.entry_type, l.customer_id, SUM(l.amount), COUNT(*)
FROM ledger_entries l
WHERE l.location_id IS NOT NULL AND l.deleted_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM bookings WHERE bookings.id = l.rental_id AND bookings.test_mode = 1)
GROUP BY 1, 2, 3, 4, 5
ON CONFLICT (location_id, month, kind, entry_type) DO UPDATE SET amount = amount + excluded.amount, entries = entries + excluded.entries;
--> statement-breakpoint
-- Rentals that become completed (checked out, or written as completed by an import) wait in
-- analytics_unrealized_bookings until realize-completed-bookings realizes their revenue.
CREATE TRIGGER analytics_booking_completed AFTER UPDATE OF status ON bookings
WHEN NEW.status = 'completed' AND OLD.status <> 'completed' AND NEW.test_mode = 0
BEGIN
  INSERT INTO analytics_unrealized_bookings (rental_id, customer_id, location_id, completed_at)
  VALUES (NEW.id, NEW.customer_id, NEW.location_id, coalesce(NEW.checked_out_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))
  ON CONFLICT (rental_id) DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER analytics_booking_inserted_completed AFTER INSERT ON bookings
WHEN NEW.status = 'completed' AND NEW.test_mode = 0
BEGIN
  INSERT INTO analytics_unrealized_bookings (rental_id, customer_id, location_id, completed_at)
  VALUES (NEW.id, NEW.customer_id, NEW.location_id, coalesce(NEW.checked_out_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))
  ON CONFLICT (rental_id) DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER analytics_booking_deleted AFTER DELETE ON bookings
BEGIN
  DELETE FROM analytics_unrealized_bookings WHERE rental_id = OLD.id;
END;
--> statement-breakpoint
-- Completed rentals of the history that are not realized yet.
INSERT INTO analytics_unrealized_bookings (rental_id, customer_id, location_id, completed_at)
SELECT b.id, b.customer_id, b.location_id, coalesce(b.checked_out_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
FROM bookings b
WHERE b.status = 'completed' AND b.test_mode = 0
  AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.id = 'led_rlz_' || b.id)
ON CONFLICT (rental_id) DO NOTHING;
