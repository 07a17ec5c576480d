-- The tables of the JPA test application (dev.once.spring.jpa), mapped by its entities.
CREATE TABLE IF NOT EXISTS jpa_placed_order (
  id uuid PRIMARY KEY,
  order_ref text NOT NULL UNIQUE,
  tag text NOT NULL,
  quantity int NOT NULL
);
CREATE TABLE IF NOT EXISTS jpa_stock_reservation (
  id uuid PRIMARY KEY,
  message_id uuid NOT NULL,
  tag text NOT NULL
);
