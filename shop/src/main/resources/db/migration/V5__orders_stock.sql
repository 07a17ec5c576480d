-- Shop: products and their stock, orders, and stock reservations (docs/orders.md).
--
-- Lock order, everywhere: an order, then its payment, then the account (the ledger guard), and
-- products only ever in ascending sku order, after anything else a transaction locks. No
-- transaction locks an order, a payment or an account after a product, so no two can deadlock.

-- A client's product. available + reserved = initial_stock + restocked holds in every committed
-- state: a reservation moves units from available to reserved, a release moves them back, a
-- restock adds to both available and restocked. Nothing ever leaves reserved otherwise (the shop
-- does not ship), so the CHECK is the stock's whole bookkeeping.
CREATE TABLE product (
    client_id     text           NOT NULL,
    sku           text           NOT NULL,
    name          text           NOT NULL,
    price         numeric(20, 4) NOT NULL,
    currency      text           NOT NULL,
    initial_stock bigint         NOT NULL,
    restocked     bigint         NOT NULL DEFAULT 0,
    available     bigint         NOT NULL,
    reserved      bigint         NOT NULL DEFAULT 0,
    created_at    timestamptz    NOT NULL,
    updated_at    timestamptz    NOT NULL,
    CONSTRAINT product_pk PRIMARY KEY (client_id, sku),
    CONSTRAINT product_client_fk FOREIGN KEY (client_id) REFERENCES client (id),
    CONSTRAINT product_sku_format CHECK (sku ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
    CONSTRAINT product_name_length CHECK (char_length(name) BETWEEN 1 AND 200),
    CONSTRAINT product_price_positive CHECK (price > 0),
    CONSTRAINT product_currency_format CHECK (currency ~ '^[A-Z]{3}$'),
    CONSTRAINT product_stock_non_negative CHECK (
        initial_stock >= 0 AND restocked >= 0 AND available >= 0 AND reserved >= 0),
    CONSTRAINT product_stock_balanced CHECK (available + reserved = initial_stock + restocked)
);

-- An order. payment_id is the order's pending payment while it is reserved (at most one at a
-- time), and the payment that paid it once it is paid; refund_id the refund a cancellation of a
-- paid order made.
CREATE TABLE orders (
    id          text           NOT NULL,
    client_id   text           NOT NULL,
    account_id  text           NOT NULL,
    status      text           NOT NULL,
    total       numeric(20, 4) NOT NULL,
    currency    text           NOT NULL,
    payment_id  text,
    refund_id   text,
    created_at  timestamptz    NOT NULL,
    reserved_at timestamptz,
    updated_at  timestamptz    NOT NULL,
    CONSTRAINT orders_pk PRIMARY KEY (id),
    CONSTRAINT orders_client_fk FOREIGN KEY (client_id) REFERENCES client (id),
    CONSTRAINT orders_account_fk FOREIGN KEY (account_id) REFERENCES account (id),
    CONSTRAINT orders_payment_fk FOREIGN KEY (payment_id) REFERENCES payment (id),
    CONSTRAINT orders_refund_fk FOREIGN KEY (refund_id) REFERENCES refund (id),
    CONSTRAINT orders_status CHECK (
        status IN ('placed', 'reserved', 'rejected', 'paid', 'cancelled')),
    CONSTRAINT orders_total_positive CHECK (total > 0),
    CONSTRAINT orders_currency_format CHECK (currency ~ '^[A-Z]{3}$'),
    CONSTRAINT orders_paid_has_payment CHECK (status <> 'paid' OR payment_id IS NOT NULL),
    CONSTRAINT orders_payment_only_when_reserved_or_paid CHECK (
        payment_id IS NULL OR status IN ('reserved', 'paid', 'cancelled'))
);
CREATE INDEX orders_client_idx ON orders (client_id);
CREATE INDEX orders_account_idx ON orders (account_id);
-- The payment events find their order by payment; a payment belongs to one order at most.
CREATE UNIQUE INDEX orders_payment_uq ON orders (payment_id) WHERE payment_id IS NOT NULL;

-- An order's lines, with the unit price taken from the product when the order was placed.
CREATE TABLE order_item (
    order_id text           NOT NULL,
    sku      text           NOT NULL,
    quantity bigint         NOT NULL,
    price    numeric(20, 4) NOT NULL,
    CONSTRAINT order_item_pk PRIMARY KEY (order_id, sku),
    CONSTRAINT order_item_order_fk FOREIGN KEY (order_id) REFERENCES orders (id),
    CONSTRAINT order_item_quantity_positive CHECK (quantity > 0),
    CONSTRAINT order_item_price_positive CHECK (price > 0)
);

-- A reservation is a fact with a unique key (order_id, sku): its insert, ON CONFLICT DO NOTHING,
-- gates the stock decrement, so a redelivered order.placed never reserves twice.
--   held     the units are taken from available into reserved;
--   released the order was cancelled and the units went back, once (a compare-and-set from held);
--   rejected the order could not be reserved whole; nothing was taken;
--   void     the cancellation arrived before the reservation: nothing was taken, and the row's
--            key keeps a late order.placed from taking anything.
CREATE TABLE reservation (
    order_id   text        NOT NULL,
    client_id  text        NOT NULL,
    sku        text        NOT NULL,
    quantity   bigint      NOT NULL,
    state      text        NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT reservation_pk PRIMARY KEY (order_id, sku),
    CONSTRAINT reservation_order_fk FOREIGN KEY (order_id) REFERENCES orders (id),
    CONSTRAINT reservation_product_fk FOREIGN KEY (client_id, sku) REFERENCES product (client_id, sku),
    CONSTRAINT reservation_quantity_positive CHECK (quantity > 0),
    CONSTRAINT reservation_state CHECK (state IN ('held', 'released', 'rejected', 'void'))
);
CREATE INDEX reservation_product_idx ON reservation (client_id, sku);
