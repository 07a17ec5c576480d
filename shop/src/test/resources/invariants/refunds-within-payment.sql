-- Invariant refunds-within-payment: one row per violation, its id in the only column.
--
-- 3. Per payment, the refunds that did not fail (pending or succeeded: what the payment holds
-- reserved) sum to payment.refunded, which never exceeds the payment. A refund moves
-- money only when the provider confirms it: every succeeded refund has its journal credit, of its
-- amount, to the payment's account, against the payment's charge; a pending or failed one has
-- none, except a refund written before the shop's V6 (credited_at_request), which was
-- credited at request time and whose credit is taken back by a reversal exactly when it failed.
-- And every refund credit in the journal belongs to a refund. So the refund credits of an account
-- add up to its confirmed refunds: otherwise a client could get back money the provider never
-- refunded, or more than it paid.
SELECT p.id FROM payment p
LEFT JOIN (SELECT payment_id, sum(amount) AS total
           FROM refund WHERE status <> 'failed'
           GROUP BY payment_id) r ON r.payment_id = p.id
WHERE p.refunded <> COALESCE(r.total, 0)
   OR p.refunded > p.amount
   OR COALESCE(r.total, 0) > p.amount
   OR EXISTS (
       SELECT 1 FROM refund f
       LEFT JOIN operation o ON o.id = f.operation_id
       WHERE f.payment_id = p.id
         AND ((NOT f.credited_at_request
               AND (f.operation_id IS NOT NULL) <> (f.status = 'succeeded'))
              OR (f.credited_at_request AND f.operation_id IS NULL)
              OR (f.operation_id IS NOT NULL
                  AND (o.id IS NULL
                       OR o.kind <> 'refund'
                       OR o.amount <> f.amount
                       OR o.account_id <> p.account_id
                       OR o.reverses IS DISTINCT FROM p.charge_operation_id
                       OR (f.status = 'failed') <> EXISTS (
                              SELECT 1 FROM operation v
                              WHERE v.kind = 'reversal' AND v.reverses = o.id)))))
UNION ALL
SELECT o.id FROM operation o
WHERE o.kind = 'refund'
  AND NOT EXISTS (SELECT 1 FROM refund f WHERE f.operation_id = o.id)
