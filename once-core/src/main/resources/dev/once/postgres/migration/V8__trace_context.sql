-- Once: the W3C trace context of the transaction that appended a row, so that the relay's delivery
-- continues that trace (the starter does it when the application has a tracer; without one both
-- stay NULL). Nullable, no default and no CHECK: adding them rewrites nothing and scans nothing,
-- instant on a big table. The values are validated in code when read back: a malformed one is
-- ignored (the delivery starts a new trace), never an error.
ALTER TABLE once.outbox
    ADD COLUMN traceparent text,
    ADD COLUMN tracestate text;
