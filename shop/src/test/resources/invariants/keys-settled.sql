-- Invariant keys-settled: one row per violation, its id in the only column.
--
-- 5. No idempotency key is committed in progress: such a key would answer every retry with "in
-- progress" for ever, and the request it stands for may or may not have taken effect.
SELECT client_id || '/' || idem_key FROM once.idempotency_key
WHERE state <> 'completed'
