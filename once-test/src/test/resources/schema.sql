CREATE TABLE IF NOT EXISTS effect (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, tag text NOT NULL);
-- The README's example (com.example.wallet).
CREATE TABLE IF NOT EXISTS deposit (id uuid PRIMARY KEY, wallet text NOT NULL, amount numeric(19, 2) NOT NULL);
CREATE TABLE IF NOT EXISTS loyalty_points (wallet text NOT NULL, points int NOT NULL);
