-- Shop: what the provider's answers write.
--
-- A refund credits the account at once (kind 'refund', positive). When the provider refuses it,
-- the credit is taken back by a 'reversal' row with the opposite sign that references the refund,
-- so a reversal is positive when it gives a charge back and negative when it takes a refused
-- refund back. A charge stays negative, deposits and refunds positive; nothing is ever zero. The
-- unique index on reversals (V1) keeps one reversal per original, whichever kind it reverses.
ALTER TABLE operation DROP CONSTRAINT operation_sign;
ALTER TABLE operation ADD CONSTRAINT operation_sign CHECK (
    amount <> 0 AND CASE kind WHEN 'charge' THEN amount < 0
                              WHEN 'reversal' THEN true
                              ELSE amount > 0 END);

-- refunded is the sum of the refunds that are not failed: a refused refund gives its share back
-- to the payment, which may then be refunded again.
ALTER TABLE refund ADD COLUMN updated_at timestamptz;
