-- Invariant journal-running-balance: one row per violation, its id in the only column.
--
-- 1b. Every journal row's balance_after is the running sum of its account's rows in
-- seq order, and never negative: statements show it to clients as the balance after the
-- movement, so a wrong one is a wrong statement even when the final balance is right.
SELECT id FROM (
    SELECT id, balance_after,
           sum(amount) OVER (PARTITION BY account_id ORDER BY seq) AS running
    FROM operation) rows
WHERE balance_after <> running OR balance_after < 0
