-- Database-level backstop against double-booked slips: even if a writer bypassed the unit's SlipLock
-- object, a write that would leave two blocking reservations of one unit on overlapping nights aborts
-- the whole D1 batch. Blocking: pending, confirmed, checked_in, and awaiting_payment while its bill
-- hold has not expired (an expired hold stops counting at that instant, before the sweep marks it).
-- Nights are [arrival_date, departure_date) as YYYY-MM-DD strings, which compare in date order.
CREATE TRIGGER slip_reservations_overlap_insert
BEFORE INSERT ON slip_reservations
WHEN (NEW.status IN ('pending', 'confirmed', 'checked_in')
      OR (NEW.status = 'awaiting_payment' AND NEW.hold_expires_at > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)))
  AND EXISTS (
    SELECT 1 FROM slip_reservations r
    WHERE r.slip_id = NEW.slip_id
      AND r.arrival_date < NEW.departure_date AND NEW.arrival_date < r.departure_date
      AND (r.status IN ('pending', 'confirmed', 'checked_in')
           OR (r.status = 'awaiting_payment' AND r.hold_expires_at > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)))
  )
BEGIN
  SELECT RAISE(ABORT, 'slip_conflict: the unit is already reserved for these nights');
END;
--> statement-breakpoint
CREATE TRIGGER slip_reservations_overlap_update
BEFORE UPDATE OF slip_id, arrival_date, departure_date, status, hold_expires_at ON slip_reservations
WHEN (NEW.status IN ('pending', 'confirmed', 'checked_in')
      OR (NEW.status = 'awaiting_payment' AND NEW.hold_expires_at > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)))
  AND EXISTS (
    SELECT 1 FROM slip_reservations r
    WHERE r.id != NEW.id AND r.slip_id = NEW.slip_id
      AND r.arrival_date < NEW.departure_date AND NEW.arrival_date < r.departure_date
      AND (r.status IN ('pending', 'confirmed', 'checked_in')
           OR (r.status = 'awaiting_payment' AND r.hold_expires_at > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)))
  )
BEGIN
  SELECT RAISE(ABORT, 'slip_conflict: the unit is already reserved for these nights');
END;
