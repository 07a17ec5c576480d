-- Shop: a refund moves money only when the provider confirms it (issue 22).
--
-- Until V5 a refund credited the account in the request's transaction and a refused refund took the
-- credit back with a negative reversal; when the customer had spent the credit meanwhile, that
-- reversal could not be written (the balance may not go negative) and the refund stayed pending
-- until its outbox row died. From here on:
--   * the request only reserves the amount on the payment (refunded + amount <= amount, under the
--     payment's row lock, as before) and records the refund pending, with no journal row:
--     operation_id is NULL;
--   * the provider's confirmation credits the account (kind 'refund', referencing the payment's
--     charge) and sets operation_id, in the transaction that completes the outbox row;
--   * a refusal marks the refund failed and releases the reservation; it moves no money.
-- Refunds written before this version already hold their credit: credited_at_request marks them.
-- A confirmation does not credit them again, and a refusal still takes their credit back with a
-- reversal, as it did when they were accepted. The application never writes the column (it has no
-- right to), so every refund it writes from here on is credited on confirmation only.
ALTER TABLE refund ALTER COLUMN operation_id DROP NOT NULL;
ALTER TABLE refund ADD COLUMN credited_at_request boolean NOT NULL DEFAULT false;
UPDATE refund SET credited_at_request = true;

-- A refund has its credit exactly when the provider confirmed it; one credited at request time
-- always has it (taken back by a reversal if it failed).
ALTER TABLE refund ADD CONSTRAINT refund_credited_iff_confirmed CHECK (
    CASE WHEN credited_at_request THEN operation_id IS NOT NULL
         ELSE (operation_id IS NOT NULL) = (status = 'succeeded') END);

COMMENT ON COLUMN payment.refunded IS
    'Sum of the refunds that are pending or succeeded: reserved at request time, released when the provider refuses one.';
COMMENT ON COLUMN refund.operation_id IS
    'The journal row that credited the account: written when the provider confirmed the refund (at request time if credited_at_request).';
COMMENT ON COLUMN refund.credited_at_request IS
    'Written before V6, when a refund credited the account at request time.';
