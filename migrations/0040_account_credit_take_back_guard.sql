-- One SQL definition of a renter's account credit, read by both of its guards: the entries whose sum it
-- is (bookings' account-credit.ts, lib/money-view.ts `accountCreditEntrySql`): goodwill `credit` entries
-- (value moved to the account, and their take-backs) and `account_credit` payments (spends, and their
-- cancellation reversals), by operator, renter and currency (lower-case).
CREATE VIEW renter_account_credit_entries AS
SELECT customer_id, renter_id, lower(currency) AS currency, amount
FROM ledger_entries
WHERE affects_balance = 1 AND deleted_at IS NULL
  AND ((entry_type = 'credit' AND source = 'goodwill') OR (entry_type = 'payment' AND source = 'account_credit'));

-- 0039's guard, unchanged in what it refuses, now reading the view.
DROP TRIGGER ledger_account_credit_guard;
CREATE TRIGGER ledger_account_credit_guard
BEFORE INSERT ON ledger_entries
WHEN NEW.entry_type = 'payment' AND NEW.source = 'account_credit' AND NEW.amount < 0 AND NEW.affects_balance = 1 AND (
  SELECT coalesce(sum(c.amount), 0) FROM renter_account_credit_entries c
  WHERE c.customer_id = NEW.customer_id AND c.renter_id = NEW.renter_id AND c.currency = lower(NEW.currency)
) + NEW.amount < 0
BEGIN
  SELECT RAISE(ABORT, 'insufficient_account_credit: the renter''s account credit no longer covers this payment');
END;

-- A cancellation takes back the goodwill credit its booking moved to the renter's account only as far
-- as the account still holds it (bookings' account-credit.ts): what the renter spent stays spent and the
-- refund keeps that much. The take-back is a negative goodwill `credit` entry; this guard aborts the
-- cancellation's batch when it would take the renter's credit below zero (the renter spent it at the
-- same moment: 409 `account_credit_changed`, nothing written, cancel again).
CREATE TRIGGER ledger_account_credit_take_back_guard
BEFORE INSERT ON ledger_entries
WHEN NEW.entry_type = 'credit' AND NEW.source = 'goodwill' AND NEW.amount < 0 AND NEW.affects_balance = 1 AND (
  SELECT coalesce(sum(c.amount), 0) FROM renter_account_credit_entries c
  WHERE c.customer_id = NEW.customer_id AND c.renter_id = NEW.renter_id AND c.currency = lower(NEW.currency)
) + NEW.amount < 0
BEGIN
  SELECT RAISE(ABORT, 'account_credit_changed: the renter spent account credit this booking gave meanwhile; cancel again');
END;
