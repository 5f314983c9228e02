-- A staff member is never on two active bookings at once (staff-assignments' conditional INSERT
-- guards new assignments). This guards the other way in: a booking that moves (reschedule, modify)
-- while its assigned staff are on another active booking overlapping its new time aborts the whole
-- batch with `staff_conflict` (answered 409 by the app's database-guard mapping).
CREATE TRIGGER bookings_staff_move_guard
BEFORE UPDATE OF start, "end" ON bookings
WHEN (NEW.start != OLD.start OR NEW."end" != OLD."end") AND NEW.status IN ('pending', 'confirmed', 'checked_in') AND EXISTS (
  SELECT 1 FROM staff_assignments mine
  JOIN staff_assignments other ON other.staff_id = mine.staff_id AND other.customer_id = mine.customer_id AND other.rental_id != mine.rental_id
  JOIN bookings ob ON ob.id = other.rental_id
  WHERE mine.rental_id = NEW.id AND ob.status IN ('pending', 'confirmed', 'checked_in')
    AND ob.start < NEW."end" AND NEW.start < ob."end"
)
BEGIN
  SELECT RAISE(ABORT, 'staff_conflict: a staff member assigned to this booking is on another booking at the new time; unassign them or choose another time');
END;
