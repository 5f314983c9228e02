-- Optimistic concurrency for waiver numbers. Every write sets `version` to the version it read
-- plus one; if another write landed in between, NEW.version is not OLD.version + 1 and the whole
-- D1 batch (waiver number, renter update, audit row, events) is rolled back. The writer then
-- answers 409 (or re-reads and retries when the caller sent no `expectedVersion`). This is what
-- makes N racing completions of one waiver number give exactly one success.
CREATE TRIGGER waiver_numbers_version_guard
BEFORE UPDATE OF version ON waiver_numbers
WHEN NEW.version <> OLD.version + 1
BEGIN
  SELECT RAISE(ABORT, 'version_conflict: the waiver number was changed by another request');
END;
