-- Optimistic concurrency for OCTO bookings. Every change of an OCTO booking (extend, update,
-- confirm, cancel, expiry) sets `version` to the version it read plus one, in the same D1 batch as
-- its allocations and the operator's booking. If another change landed in between, the new value
-- is not OLD.version + 1 and the whole batch is rolled back: two racing confirmations, or a cancel
-- racing a confirmation, can never both be written.
CREATE TRIGGER octo_bookings_version_guard
BEFORE UPDATE OF version ON octo_bookings
WHEN NEW.version <> OLD.version + 1
BEGIN
  SELECT RAISE(ABORT, 'version_conflict: the OCTO booking was changed by another request');
END;
