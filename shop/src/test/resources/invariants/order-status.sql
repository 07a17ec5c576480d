-- Invariant order-status: one row per violation, its id in the only column.
--
-- 7a. No order is both paid and rejected: a reserved or paid order holds every line, a rejected
-- one holds nothing and has no payment, and an order's reservations are all or nothing (one per
-- line, all in one state): otherwise the shop took money for goods it could not reserve.
SELECT o.id FROM orders o
WHERE (o.status IN ('reserved', 'paid') AND EXISTS (
           SELECT 1 FROM order_item i
           LEFT JOIN reservation r ON r.order_id = i.order_id AND r.sku = i.sku
           WHERE i.order_id = o.id AND r.state IS DISTINCT FROM 'held'))
   OR (o.status = 'rejected' AND (o.payment_id IS NOT NULL OR EXISTS (
           SELECT 1 FROM reservation r
           WHERE r.order_id = o.id AND r.state <> 'rejected')))
   OR EXISTS (
           SELECT 1 FROM reservation r WHERE r.order_id = o.id
           GROUP BY r.order_id
           HAVING count(DISTINCT r.state) <> 1
               OR count(DISTINCT r.sku) <> (SELECT count(*) FROM order_item i
                                            WHERE i.order_id = o.id))
