-- Invariant reservation-states: one row per violation, its id in the only column.
--
-- 7b. Each reservation is one line of its order (same client, sku and quantity), at most one row
-- per (order, sku), released or void only for a cancelled order, and held only for an order that
-- is live or cancelled with its release still to come: so units are released at most once, and
-- never for an order that still needs them.
SELECT DISTINCT r.order_id || '/' || r.sku FROM reservation r
JOIN orders o ON o.id = r.order_id
LEFT JOIN order_item i ON i.order_id = r.order_id AND i.sku = r.sku
WHERE i.sku IS NULL OR i.quantity <> r.quantity OR o.client_id <> r.client_id
   OR (SELECT count(*) FROM reservation d
       WHERE d.order_id = r.order_id AND d.sku = r.sku) > 1
   OR (r.state IN ('released', 'void') AND o.status <> 'cancelled')
   OR (r.state = 'held'
       AND (o.status NOT IN ('placed', 'reserved', 'paid', 'cancelled')
            OR (o.status = 'cancelled' AND EXISTS (
                    SELECT 1 FROM once.outbox e
                    JOIN once.inbox c ON c.message_id = e.message_id
                                     AND c.consumer = 'release-stock'
                    WHERE e.type = 'order.cancelled' AND e.aggregate_id = o.id))))
