-- Shop: API clients, accounts and the append-only ledger (G4).
-- Once's own tables live in schema "once" and are migrated by the starter; this history is the shop's.

-- An API client. Disabling is a timestamp, never a delete: its accounts and payments stay readable
-- to operators, and its keys stop working on the next request.
CREATE TABLE client (
    id          text        NOT NULL,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL,
    disabled_at timestamptz,
    CONSTRAINT client_pk PRIMARY KEY (id),
    CONSTRAINT client_name_length CHECK (char_length(name) BETWEEN 1 AND 200)
);

-- API keys are stored only as SHA-256 of the key: the key is 256 random bits, so a fast hash is as
-- strong as a slow one (nothing to brute-force), and authentication stays one primary-key lookup.
CREATE TABLE api_key (
    key_hash   bytea       NOT NULL,
    client_id  text        NOT NULL,
    created_at timestamptz NOT NULL,
    CONSTRAINT api_key_pk PRIMARY KEY (key_hash),
    CONSTRAINT api_key_client_fk FOREIGN KEY (client_id) REFERENCES client (id),
    CONSTRAINT api_key_hash_length CHECK (octet_length(key_hash) = 32)
);
CREATE INDEX api_key_client_idx ON api_key (client_id);

-- An account's balance is a projection of its operations, kept in the same statement as every
-- journal insert (see AccountSql / PaymentSql), so reading it never sums history. The CHECK is the
-- last line of defence: the statements themselves only move money when the result stays >= 0.
CREATE TABLE account (
    id         text          NOT NULL,
    client_id  text          NOT NULL,
    currency   text          NOT NULL,
    balance    numeric(28, 4) NOT NULL DEFAULT 0,
    created_at timestamptz   NOT NULL,
    CONSTRAINT account_pk PRIMARY KEY (id),
    CONSTRAINT account_client_fk FOREIGN KEY (client_id) REFERENCES client (id),
    CONSTRAINT account_currency_format CHECK (currency ~ '^[A-Z]{3}$'),
    CONSTRAINT account_balance_non_negative CHECK (balance >= 0)
);
CREATE INDEX account_client_idx ON account (client_id);

-- The journal: insert-only (trigger below). seq orders an account's rows; it is taken while the
-- statement holds the account's row lock, so per account seq order is also commit order and a
-- cursor (seq > :after) never skips a row that commits later. seq needs no unique constraint of
-- its own: the identity never repeats a value (GENERATED ALWAYS refuses explicit ones), and the
-- unique (account_id, seq) index below, which every query by seq uses, backs that up per account.
CREATE TABLE operation (
    seq           bigint GENERATED ALWAYS AS IDENTITY,
    id            text           NOT NULL,
    account_id    text           NOT NULL,
    kind          text           NOT NULL,
    amount        numeric(20, 4) NOT NULL,
    balance_after numeric(28, 4) NOT NULL,
    reverses      text,
    created_at    timestamptz    NOT NULL,
    CONSTRAINT operation_pk PRIMARY KEY (id),
    CONSTRAINT operation_account_fk FOREIGN KEY (account_id) REFERENCES account (id),
    CONSTRAINT operation_reverses_fk FOREIGN KEY (reverses) REFERENCES operation (id),
    CONSTRAINT operation_kind CHECK (kind IN ('deposit', 'charge', 'refund', 'reversal')),
    -- Money in is positive, money out negative; never zero.
    CONSTRAINT operation_sign CHECK ((kind = 'charge') = (amount < 0) AND amount <> 0),
    -- Corrections always name what they correct; original entries never do.
    CONSTRAINT operation_reverses_kind CHECK ((reverses IS NOT NULL) = (kind IN ('refund', 'reversal'))),
    CONSTRAINT operation_balance_after_non_negative CHECK (balance_after >= 0)
);
CREATE UNIQUE INDEX operation_account_seq_idx ON operation (account_id, seq);
-- A charge is reversed (provider decline) at most once.
CREATE UNIQUE INDEX operation_one_reversal_idx ON operation (reverses) WHERE kind = 'reversal';

-- G4 in the database: no UPDATE, DELETE or TRUNCATE of journal rows, whoever sends them. SQLSTATE
-- LG001 is the shop's own code so that callers and tests can tell this refusal from anything else.
CREATE FUNCTION operation_append_only() RETURNS trigger
    LANGUAGE plpgsql AS
$$
BEGIN
    RAISE EXCEPTION 'operation is an append-only journal: % is not allowed', TG_OP
        USING ERRCODE = 'LG001',
              HINT = 'Correct an operation with a new reversing row that references it.';
END;
$$;

CREATE TRIGGER operation_no_update_or_delete
    BEFORE UPDATE OR DELETE ON operation
    FOR EACH ROW EXECUTE FUNCTION operation_append_only();

CREATE TRIGGER operation_no_truncate
    BEFORE TRUNCATE ON operation
    FOR EACH STATEMENT EXECUTE FUNCTION operation_append_only();
