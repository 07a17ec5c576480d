-- Invariant stock: one row per violation, its id in the only column.
--
-- 6. Every product's stock is balanced (available + reserved = initial_stock +
-- restocked), non-negative, and reserved is the sum of its held reservations: units that
-- appear or vanish are sold twice or never.
SELECT p.client_id || '/' || p.sku FROM product p
LEFT JOIN (SELECT client_id, sku, sum(quantity) AS held FROM reservation
           WHERE state = 'held' GROUP BY client_id, sku) r
       ON r.client_id = p.client_id AND r.sku = p.sku
WHERE p.available < 0 OR p.reserved < 0
   OR p.available + p.reserved <> p.initial_stock + p.restocked
   OR p.reserved <> COALESCE(r.held, 0)
