-- Optimistic concurrency for haul services: every change (schedule, confirm, start, complete,
-- cancel, edit) sets `version` to the version it read plus one. If another change landed in
-- between, the new value is not OLD.version + 1 and the whole D1 batch (the service, its lift
-- bookings, the reservation's charges, the audit row and the events) is rolled back; the writer
-- answers 409 version_conflict. `SET version = version + 1` always passes.
CREATE TRIGGER haul_services_version_guard
BEFORE UPDATE OF version ON haul_services
WHEN NEW.version <> OLD.version + 1
BEGIN
  SELECT RAISE(ABORT, 'haul_version_conflict: the haul service was changed by another request');
END;
