-- Shop: payments and refunds. The provider is called later by the outbox relay, never inside the
-- request transaction.

-- refunded is the running sum of accepted refunds; the CHECK backs up the conditional UPDATE that
-- accepts a refund only while refunded + amount <= amount, so refunds never exceed the payment.
CREATE TABLE payment (
    id                  text           NOT NULL,
    client_id           text           NOT NULL,
    account_id          text           NOT NULL,
    amount              numeric(20, 4) NOT NULL,
    currency            text           NOT NULL,
    description         text,
    status              text           NOT NULL,
    refunded            numeric(20, 4) NOT NULL DEFAULT 0,
    charge_operation_id text           NOT NULL,
    created_at          timestamptz    NOT NULL,
    updated_at          timestamptz    NOT NULL,
    CONSTRAINT payment_pk PRIMARY KEY (id),
    CONSTRAINT payment_client_fk FOREIGN KEY (client_id) REFERENCES client (id),
    CONSTRAINT payment_account_fk FOREIGN KEY (account_id) REFERENCES account (id),
    CONSTRAINT payment_charge_fk FOREIGN KEY (charge_operation_id) REFERENCES operation (id),
    CONSTRAINT payment_charge_uq UNIQUE (charge_operation_id),
    CONSTRAINT payment_amount_positive CHECK (amount > 0),
    CONSTRAINT payment_currency_format CHECK (currency ~ '^[A-Z]{3}$'),
    CONSTRAINT payment_description_length CHECK (char_length(description) <= 500),
    CONSTRAINT payment_status CHECK (status IN ('pending', 'succeeded', 'failed')),
    CONSTRAINT payment_refunded_within_amount CHECK (refunded >= 0 AND refunded <= amount),
    CONSTRAINT payment_refunds_need_success CHECK (refunded = 0 OR status = 'succeeded')
);

CREATE TABLE refund (
    id           text           NOT NULL,
    payment_id   text           NOT NULL,
    amount       numeric(20, 4) NOT NULL,
    status       text           NOT NULL,
    operation_id text           NOT NULL,
    created_at   timestamptz    NOT NULL,
    CONSTRAINT refund_pk PRIMARY KEY (id),
    CONSTRAINT refund_payment_fk FOREIGN KEY (payment_id) REFERENCES payment (id),
    CONSTRAINT refund_operation_fk FOREIGN KEY (operation_id) REFERENCES operation (id),
    CONSTRAINT refund_operation_uq UNIQUE (operation_id),
    CONSTRAINT refund_amount_positive CHECK (amount > 0),
    CONSTRAINT refund_status CHECK (status IN ('pending', 'succeeded', 'failed'))
);
CREATE INDEX refund_payment_idx ON refund (payment_id);
