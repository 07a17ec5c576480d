-- Invariant payment-charges: one row per violation, its id in the only column.
--
-- 8b. Every payment has exactly one charge journal row, of its amount from its account, reversed
-- exactly when the payment failed, and every charge row belongs to a payment: a succeeded payment
-- whose charge is missing or given back is money never taken, a charge without payment is money
-- taken for nothing.
SELECT p.id FROM payment p
LEFT JOIN operation c ON c.id = p.charge_operation_id
WHERE c.id IS NULL
   OR c.kind <> 'charge'
   OR c.account_id <> p.account_id
   OR c.amount <> -p.amount
   OR (p.status = 'failed') <> EXISTS (
          SELECT 1 FROM operation r WHERE r.kind = 'reversal' AND r.reverses = c.id)
   OR (SELECT count(*) FROM payment q WHERE q.charge_operation_id = c.id) > 1
UNION ALL
SELECT c.id FROM operation c
WHERE c.kind = 'charge'
  AND NOT EXISTS (SELECT 1 FROM payment p WHERE p.charge_operation_id = c.id)
