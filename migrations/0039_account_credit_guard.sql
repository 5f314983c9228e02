-- A renter's account credit is never spent twice (bookings' account-credit.ts). The credit is the
-- goodwill `credit` entries of the renter's ledger less its `account_credit` payments (their
-- cancellation reversals giving it back), in one currency. A booking paying with it writes an
-- `account_credit` payment in its one batch; this guard aborts that batch when the payment would
-- take the renter's credit below zero (two bookings racing for one credit: the second is refused
-- with `insufficient_account_credit`, and its card charge is refunded).
CREATE TRIGGER ledger_account_credit_guard
BEFORE INSERT ON ledger_entries
WHEN NEW.entry_type = 'payment' AND NEW.source = 'account_credit' AND NEW.amount < 0 AND NEW.affects_balance = 1 AND (
  SELECT coalesce(sum(l.amount), 0) FROM ledger_entries l
  WHERE l.customer_id = NEW.customer_id AND l.renter_id = NEW.renter_id AND l.affects_balance = 1 AND l.deleted_at IS NULL
    AND lower(l.currency) = lower(NEW.currency)
    AND ((l.entry_type = 'credit' AND l.source = 'goodwill') OR (l.entry_type = 'payment' AND l.source = 'account_credit'))
) + NEW.amount < 0
BEGIN
  SELECT RAISE(ABORT, 'insufficient_account_credit: the renter''s account credit no longer covers this payment');
END;
