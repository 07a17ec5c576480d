-- Shop: a payment knows the order it pays.
--
-- payment.succeeded and payment.failed are published only for a payment that an order waits for
-- (docs/orders.md): the settlement reads order_id from the payment row it moves, in the same
-- statement. The order's own link (orders.payment_id) is not enough: a declined payment's event
-- clears it, so it no longer tells afterwards which payments were made for orders. order_id is
-- written once, with the payment, by POST /v1/orders/{id}/pay, and never changes. An order may have
-- several payments: declined ones, then the one that pays it.
ALTER TABLE payment ADD COLUMN order_id text;
ALTER TABLE payment ADD CONSTRAINT payment_order_fk FOREIGN KEY (order_id) REFERENCES orders (id);

-- Payments made for orders before this version: a pending one is still linked from its order
-- (its link is cleared only once its payment.failed is consumed), so every payment that can still
-- be settled gets its order_id. A failed one whose link was cleared is settled already.
UPDATE payment p SET order_id = o.id FROM orders o WHERE o.payment_id = p.id;
