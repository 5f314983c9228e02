-- A cancellation takes back the goodwill credit its booking moved to the renter's account only as far
-- as the account still holds it (bookings' account-credit.ts): what the renter spent stays spent and the
-- refund keeps that much. The take-back is a negative goodwill `credit` entry; this guard aborts the
-- cancellation's batch when it would take the renter's credit below zero (the renter spent it at the
-- same moment: 409 `account_credit_changed`, nothing written, cancel again).
CREATE TRIGGER ledger_account_credit_take_back_guard
BEFORE INSERT ON ledger_entries
WHEN NEW.entry_type = 'credit' AND NEW.source = 'goodwill' AND NEW.amount < 0 AND NEW.affects_balance = 1 AND (
  SELECT coalesce(sum(l.amount), 0) FROM ledger_entries l
  WHERE l.customer_id = NEW.customer_id AND l.renter_id = NEW.renter_id AND l.affects_balance = 1 AND l.deleted_at IS NULL
    AND lower(l.currency) = lower(NEW.currency)
    AND ((l.entry_type = 'credit' AND l.source = 'goodwill') OR (l.entry_type = 'payment' AND l.source = 'account_credit'))
) + NEW.amount < 0
BEGIN
  SELECT RAISE(ABORT, 'account_credit_changed: the renter spent account credit this booking gave meanwhile; cancel again');
END;
