-- Invariant reversals: one row per violation, its id in the only column.
--
-- 2. Every reversal references exactly one original, a charge or a refund of the same account,
-- and gives back exactly its amount; no original is reversed twice: a reversal is how the
-- append-only ledger corrects a movement, and a second one would give the money back twice.
SELECT r.id FROM operation r
LEFT JOIN operation o ON o.id = r.reverses
WHERE r.kind = 'reversal'
  AND (o.id IS NULL
       OR o.kind NOT IN ('charge', 'refund')
       OR o.account_id <> r.account_id
       OR r.amount <> -o.amount
       OR (SELECT count(*) FROM operation t
           WHERE t.kind = 'reversal' AND t.reverses = r.reverses) > 1)
