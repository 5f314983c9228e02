-- Database-level guards of billed meter readings, whoever writes: a billed reading keeps its value
-- and billing (any UPDATE that leaves it billed aborts the batch, so marking it billed or charging it
-- to a reservation a second time fails and the whole batch lands not at all), and it cannot be
-- deleted. Un-billing (billed 1 -> 0, when the reservation it was charged to is deleted) is allowed.
CREATE TRIGGER meter_readings_billed_update
BEFORE UPDATE ON meter_readings
WHEN OLD.billed = 1 AND NEW.billed = 1
BEGIN
  SELECT RAISE(ABORT, 'meter_billed: the reading is already billed');
END;
--> statement-breakpoint
CREATE TRIGGER meter_readings_billed_delete
BEFORE DELETE ON meter_readings
WHEN OLD.billed = 1
BEGIN
  SELECT RAISE(ABORT, 'meter_billed: a billed reading cannot be deleted');
END;
