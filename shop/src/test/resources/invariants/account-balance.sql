-- Invariant account-balance: one row per violation, its id in the only column.
--
-- 1a. Every account's balance is the sum of its journal rows and is never negative: the balance
-- is a projection kept by the ledger's trigger, and a balance that drifts from its journal is
-- money created or lost.
SELECT a.id FROM account a
LEFT JOIN (SELECT account_id, sum(amount) AS total
           FROM operation GROUP BY account_id) o ON o.account_id = a.id
WHERE a.balance <> COALESCE(o.total, 0) OR a.balance < 0
