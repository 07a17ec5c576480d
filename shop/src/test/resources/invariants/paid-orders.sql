-- Invariant paid-orders: one row per violation, its id in the only column.
--
-- 8a. Every paid order's payment succeeded, from the order's account, for the order's total: an
-- order shipped as paid without the money is the one loss a shop cannot recover.
SELECT o.id FROM orders o
LEFT JOIN payment p ON p.id = o.payment_id
WHERE o.status = 'paid'
  AND (p.id IS NULL OR p.status <> 'succeeded'
       OR p.amount <> o.total OR p.account_id <> o.account_id)
